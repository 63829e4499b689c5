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
  const file = join(root, 'config.toml');
  await writeFile(file, `[paths]\ndata = "${join(root, 'data')}"\n[[drives]]\nname = "disk1"\npath = "${drive}"\n[library]\nrecycle_days = 30\n`);
  config = await createRuntimeConfig({ configFile: file });
});
afterEach(async () => {
  config.close();
  await rm(root, { recursive: true, force: true });
});

it('deletes what was kept past recycle_days and writes the bin’s size down', async () => {
  const handler = recyclePurgeHandler(
    { config, logger: createLogger({ name: 'test', level: 'silent' }), env: {} as never },
    () => new Date('2026-11-28T03:00:00Z'),
  );
  const out = await handler({ trigger: 'schedule' }, {} as never);
  expect(out).toEqual({ removed: 1, bytes: 3, left: { files: 1, bytes: 3 } });
  expect(await readdir(join(root, 'disk1', '.recycle'))).toEqual(['2026-11-27']);
  expect(await readRecycleTotals(config.data)).toMatchObject({ files: 1, bytes: 3 });
});
