import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRuntimeConfig, readProcessEnv, type JobContext, type RuntimeConfig } from '@mo/core';
import { tempInstall, type TempInstall } from '../../../../test/support/service.ts';
import type { WorkerDeps } from '../deps.ts';
import { scanPassHandler } from './scan-pass.ts';

let install: TempInstall;
let config: RuntimeConfig;
afterEach(async () => {
  config?.close();
  await install?.cleanup();
});

const log = createLogger({ name: 'test', level: 'silent' });
const progress: unknown[] = [];
const ctx: JobContext = { jobId: '1', attempt: 1, signal: new AbortController().signal, progress: async (v) => void progress.push(v), log };

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
    expect(dry).toMatchObject({ dry_run: true, moves: [], plans: [{ source: src, destination: join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv') }] });
    expect(existsSync(src)).toBe(true);

    await config.updateSettings({ app: { dry_run: false } });
    const wet = await handler({ trigger: 'schedule' }, ctx);
    expect(wet.moves).toMatchObject([{ status: 'moved', destination: join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv') }]);
    expect(existsSync(src)).toBe(false);
    expect(progress).toContainEqual({ moved: 1, planned: 1 });
    expect((await config.state.read()).last_scan_at).toBe(wet.started_at);
  });

  it('fails a pass for good when a template cannot name files', async () => {
    const d = await deps();
    await config.updateSettings({ library: { movie_template: '{title}{extension}' } });
    await expect(scanPassHandler(d, {})({ trigger: 'api' }, ctx)).rejects.toThrow(UnrecoverableError);
    await expect(scanPassHandler(d, {})({ trigger: 'api' }, ctx)).rejects.toThrow('library.movie_template: unknown token {extension}');
  });

  it('stops the worker at start on a bad PUID', async () => {
    expect(() => scanPassHandler({} as WorkerDeps, { PUID: 'abc' })).toThrow('PUID must be a numeric user or group id');
  });
});
