import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRuntimeConfig, readProcessEnv, type JobContext, type RuntimeConfig } from '@mo/core';
import { tempInstall, type TempInstall } from '@mo/test-support/service';
import { manualImportHandler } from './manual-import.ts';

let install: TempInstall;
let config: RuntimeConfig;
afterEach(async () => {
  config?.close();
  await install?.cleanup();
});

const log = createLogger({ name: 'test', level: 'silent' });
const ctx: JobContext = {
  jobId: '7',
  attempt: 1,
  signal: new AbortController().signal,
  progress: async () => {},
  defer: () => Promise.reject(new Error('not deferred')),
  log,
};

async function handler(dryRun = false) {
  install = await tempInstall(`[app]\ndry_run = ${dryRun}\nsettle_seconds = 0\n\n[library]\nsample_max_bytes = 0\n`);
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  return manualImportHandler({ config, logger: log, env: readProcessEnv({ MEDIA_ORGANIZER_CONFIG: install.configFile }) }, {});
}

function put(rel: string) {
  const p = join(install.paths.downloads, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, 'video');
  return p;
}

const heat = { kind: 'movie' as const, title: 'Heat', year: 1995 };

async function failure(run: Promise<unknown>): Promise<string> {
  const err = await run.then(
    () => null,
    (e: Error) => e,
  );
  expect(err).toBeInstanceOf(UnrecoverableError);
  return err!.message;
}

describe('manual-import handler', () => {
  it('imports the file as said, and answers a job delivered again after it imported with nothing to do', async () => {
    const run = await handler();
    const src = put('heat-final-cut.mkv');
    const result = await run({ path: src, as: heat, remember: false }, ctx);
    expect(result.moves).toMatchObject([{ source: src, status: 'moved', destination: join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv') }]);
    expect(existsSync(src)).toBe(false);
    const again = await run({ path: src, as: heat, remember: false }, ctx);
    expect(again.moves).toEqual([]);
  });

  it('replaces the held file with replace, sending it to the recycle bin, and refuses without it', async () => {
    const run = await handler();
    const held = join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).avi');
    mkdirSync(join(held, '..'), { recursive: true });
    writeFileSync(held, 'held');
    const src = put('heat-final-cut.mkv');
    expect(await failure(run({ path: src, as: heat, remember: false }, { ...ctx, jobId: '11' }))).toMatch(/^\[conflict\].*holds this movie already/);
    const result = await run({ path: src, as: heat, remember: false, replace: true }, { ...ctx, jobId: '12' });
    expect(result.plans).toMatchObject([{ source: src, replaces: { path: held } }]);
    const placed = join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    expect(result.moves).toMatchObject([{ source: src, status: 'moved', destination: placed, replaced: { path: held } }]);
    const binned = (result.moves[0] as { replaced: { recycled_to: string } }).replaced.recycled_to;
    expect(binned.startsWith(join(install.paths.drive, '.recycle/'))).toBe(true);
    expect([existsSync(src), existsSync(held), readFileSync(placed, 'utf8'), readFileSync(binned, 'utf8')]).toEqual([false, false, 'video', 'held']);
  });

  it('imports a download whose name no alias may hold (a right-to-left override), remembering nothing rather than failing', async () => {
    const run = await handler();
    const src = put('Calm\u202eVillage.S01E01.720p.mkv');
    const result = await run({ path: src, as: { kind: 'episode', title: 'Quiet Town', season: 1, episodes: [1] }, remember: true }, { ...ctx, jobId: '10' });
    expect(result.moves).toMatchObject([{ status: 'moved' }]);
    expect(result.remembered).toEqual([]);
    expect(config.current().library.aliases).toEqual([]);
  });

  it('a job whose download another import took since is a failure, not the success of an import it never did', async () => {
    const run = await handler();
    const src = put('heat-final-cut.mkv');
    await run({ path: src, as: heat, remember: false }, { ...ctx, jobId: '8' });
    const msg = await failure(run({ path: src, as: { kind: 'movie', title: 'Ronin', year: 1998 }, remember: false }, { ...ctx, jobId: '9' }));
    expect(msg).toMatch(/^\[not_found\]/);
  });

  it('refuses, moving nothing, a path that now leads out of the downloads folder, and any job while dry_run is on', async () => {
    const run = await handler();
    mkdirSync(join(install.paths.drive, 'Movies/Heat (1995)'), { recursive: true });
    const held = join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    writeFileSync(held, 'library');
    symlinkSync(held, join(install.paths.downloads, 'heat.mkv'));
    expect(await failure(run({ path: join(install.paths.downloads, 'heat.mkv'), as: heat, remember: false }, ctx))).toMatch(/^\[forbidden\]/);
    expect(
      await failure(run({ path: join(install.paths.downloads, '../media/disk1/Movies/Heat (1995)/Heat (1995).mkv'), as: heat, remember: false }, ctx)),
    ).toMatch(/^\[forbidden\]/);
    expect(existsSync(held)).toBe(true);

    await config.updateSettings({ app: { dry_run: true } });
    const src = put('Ronin.mkv');
    expect(await failure(run({ path: src, as: { kind: 'movie', title: 'Ronin', year: 1998 }, remember: false }, ctx))).toMatch(/^\[conflict\] dry_run is on/);
    expect(existsSync(src)).toBe(true);
  });

  it('fails with the reason when the destination was taken since the request', async () => {
    const run = await handler();
    mkdirSync(join(install.paths.drive, 'Movies/Heat (1995)'), { recursive: true });
    writeFileSync(join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv'), 'library');
    const src = put('heat.mkv');
    expect(await failure(run({ path: src, as: heat, remember: false }, ctx))).toMatch(/^\[conflict\] .*the library holds it already/);
    expect(existsSync(src)).toBe(true);
  });
});
