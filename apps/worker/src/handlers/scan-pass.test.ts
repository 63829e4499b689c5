import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRuntimeConfig, readProcessEnv, type JobContext, type RuntimeConfig } from '@mo/core';
import { tempInstall, type TempInstall } from '@mo/test-support/service';
import type { WorkerDeps } from '../deps.ts';
import { readPassFile } from '@mo/core/scanner';
import { scanPassHandler } from './scan-pass.ts';

let install: TempInstall;
let config: RuntimeConfig;
afterEach(async () => {
  config?.close();
  await install?.cleanup();
});

const log = createLogger({ name: 'test', level: 'silent' });
const progress: unknown[] = [];
const ctx: JobContext = {
  jobId: '1',
  attempt: 1,
  signal: new AbortController().signal,
  progress: async (v) => void progress.push(v),
  defer: () => Promise.reject(new Error('not deferred')),
  log,
};

async function deps(): Promise<WorkerDeps> {
  install = await tempInstall('[app]\nsettle_seconds = 0\n\n[library]\nsample_max_bytes = 0\n');
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  return { config, logger: log, env: readProcessEnv({ MEDIA_ORGANIZER_CONFIG: install.configFile }) };
}

function put(rel: string) {
  const p = join(install.paths.downloads, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, 'video');
  return p;
}

describe('scan-pass handler', () => {
  it('plans with dry_run on, moves once it is turned off, each run reading the settings of the moment', async () => {
    const handler = scanPassHandler(await deps(), {});
    const src = put('Heat.1995.1080p.mkv');
    const dry = await handler({ trigger: 'api' }, ctx);
    expect(dry).toMatchObject({ dry_run: true, counts: { plans: 1, moved: 0, failed: 0, skipped: 0 } });
    expect(await readPassFile(install.paths.data, '1')).toMatchObject({
      dry_run: true,
      moves: [],
      plans: [{ source: src, destination: join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv') }],
    });
    expect(existsSync(src)).toBe(true);
    await config.updateSettings({ app: { dry_run: false } });
    const wet = await handler({ trigger: 'schedule' }, { ...ctx, jobId: '2' });
    expect(wet.counts).toEqual({ plans: 1, moved: 1, failed: 0, skipped: 0 });
    expect((await readPassFile(install.paths.data, '2'))?.moves).toMatchObject([
      { status: 'moved', destination: join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv') },
    ]);
    expect(existsSync(src)).toBe(false);
    expect(progress).toContainEqual({ moved: 1, planned: 1 });
    expect((await config.state.read()).last_scan_at).toBe(wet.started_at);
  });

  it('keeps the full result in a pass file named for the job, and the job a summary pointing at it', async () => {
    const handler = scanPassHandler(await deps(), {});
    put('Heat.1995.1080p.mkv');
    put('Sample.Only.mkv.part');
    const summary = await handler({ trigger: 'api' }, { ...ctx, jobId: 'repeat:periodic-scan-pass:1700000000000' });
    const full = await readPassFile(install.paths.data, 'repeat:periodic-scan-pass:1700000000000');
    expect(summary).toEqual({
      dry_run: true,
      started_at: full!.started_at,
      finished_at: full!.finished_at,
      counts: { plans: full!.plans.length, moved: 0, failed: 0, skipped: full!.skipped.length },
      pass_file: 'passes/repeat:periodic-scan-pass:1700000000000.json',
    });
    expect(full!.plans).toHaveLength(1);
    expect(full!.skipped.length).toBeGreaterThan(0);
    expect(JSON.stringify(summary).length).toBeLessThan(300);
  });

  it('refuses, before the pass, a job id that could name a file elsewhere', async () => {
    const d = await deps();
    await config.updateSettings({ app: { dry_run: false } });
    const src = put('Heat.1995.1080p.mkv');
    await expect(scanPassHandler(d, {})({ trigger: 'api' }, { ...ctx, jobId: '../../escape' })).rejects.toThrow(UnrecoverableError);
    expect(existsSync(src)).toBe(true);
    expect(existsSync(join(install.paths.data, 'passes'))).toBe(false);
  });

  it('fails a pass for good when a template cannot name files', async () => {
    const d = await deps();
    await config.updateSettings({ library: { movie_template: '{title}{extension}' } });
    await expect(scanPassHandler(d, {})({ trigger: 'api' }, ctx)).rejects.toThrow(UnrecoverableError);
    await expect(scanPassHandler(d, {})({ trigger: 'api' }, ctx)).rejects.toThrow('library.movie_template: unknown token {extension}');
  });

  it('fails a pass for good, as a conflict, when the downloads folder lies in a library folder', async () => {
    const d = await deps();
    rmSync(install.paths.downloads, { recursive: true });
    symlinkSync(join(install.paths.drive, 'Movies'), install.paths.downloads);
    await expect(scanPassHandler(d, {})({ trigger: 'api' }, ctx)).rejects.toThrow(UnrecoverableError);
    // A conflict: the API answers a waiting POST /api/scan with 409 and this message.
    await expect(scanPassHandler(d, {})({ trigger: 'api' }, ctx)).rejects.toThrow(
      `[conflict] the downloads folder ${install.paths.downloads} lies in the library folder ${join(install.paths.drive, 'Movies')}`,
    );
  });

  it('queues one notice with the destinations after a pass that moved files, none in dry run or without an enabled target', async () => {
    const notices: unknown[] = [];
    const d = { ...(await deps()), notify: async (n: unknown) => void notices.push(n) };
    const handler = scanPassHandler(d, {});
    const target = { name: 'jf', kind: 'jellyfin', url: 'http://127.0.0.1:1', api_key: 'k', enabled: true } as const;
    const src = put('Heat.1995.1080p.mkv');
    await handler({ trigger: 'api' }, ctx);
    await config.updateSettings({ app: { dry_run: false } });
    await handler({ trigger: 'api' }, { ...ctx, jobId: '2' });
    expect(notices).toEqual([]);

    await config.updateSettings({ notifications: { targets: [{ ...target, enabled: false }] } });
    put('Alien.1979.mkv');
    await handler({ trigger: 'api' }, { ...ctx, jobId: '3' });
    expect(notices).toEqual([]);

    await config.updateSettings({ notifications: { targets: [target] } });
    await handler({ trigger: 'api' }, { ...ctx, jobId: '4' });
    expect(notices).toEqual([]);
    const src2 = put('Up.2009.mkv');
    await handler({ trigger: 'api' }, { ...ctx, jobId: '5' });
    expect(notices).toEqual([{ pass: '5', imports: [{ source: src2, destination: join(install.paths.drive, 'Movies/Up (2009)/Up (2009).mkv') }] }]);
    expect(existsSync(src)).toBe(false);
  });

  it('stops the worker at start on a bad PUID', async () => {
    expect(() => scanPassHandler({} as WorkerDeps, { PUID: 'abc' })).toThrow('PUID must be a numeric user or group id');
  });
});
