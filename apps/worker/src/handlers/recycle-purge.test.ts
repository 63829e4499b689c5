import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRuntimeConfig, createLogger, type RuntimeConfig } from '@mo/core';
import { readRecycleTotals } from '@mo/core/recycle';
import { recyclePurgeHandler } from './recycle-purge.ts';

let root: string;
let config: RuntimeConfig;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-purge-'));
  const drive = join(root, 'disk1');
  for (const [day, name] of [
    ['2026-10-01', 'old.mkv'],
    ['2026-11-27', 'new.mkv'],
  ]) {
    await mkdir(join(drive, '.recycle', day!, 'Movies'), { recursive: true });
    await writeFile(join(drive, '.recycle', day!, 'Movies', name!), 'abc');
  }
});

async function open(dryRun: boolean) {
  const drive = join(root, 'disk1');
  const file = join(root, 'config.toml');
  await writeFile(
    file,
    `[app]\ndry_run = ${dryRun}\n[paths]\ndata = "${join(root, 'data')}"\n[[drives]]\nname = "disk1"\npath = "${drive}"\n[library]\nrecycle_days = 30\n`,
  );
  config = await createRuntimeConfig({ configFile: file });
  return recyclePurgeHandler({ config, logger: createLogger({ name: 'test', level: 'silent' }), env: {} as never }, () => new Date('2026-11-28T03:00:00Z'));
}
afterEach(async () => {
  config?.close();
  await rm(root, { recursive: true, force: true });
});

it('deletes what was kept past recycle_days and writes the bin’s size down', async () => {
  const handler = await open(false);
  const out = await handler({ trigger: 'schedule' }, {} as never);
  expect(out).toEqual({ removed: 1, bytes: 3, left: { files: 1, bytes: 3 } });
  expect(await readdir(join(root, 'disk1', '.recycle'))).toEqual(['2026-11-27']);
  expect(await readRecycleTotals(config.data)).toMatchObject({ files: 1, bytes: 3 });
});

it('deletes nothing with dry_run on, and still counts the bin', async () => {
  const handler = await open(true);
  expect(await handler({ trigger: 'schedule' }, {} as never)).toEqual({ removed: 0, bytes: 0, left: { files: 2, bytes: 6 } });
  expect((await readdir(join(root, 'disk1', '.recycle'))).sort()).toEqual(['2026-10-01', '2026-11-27']);
});
