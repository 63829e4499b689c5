import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobPayload } from '@mo/shared';
import { tempInstall, type TempInstall } from '@mo/test-support/service';
import { AppError } from '../errors.ts';
import { createRuntimeConfig, type RuntimeConfig } from '../config/runtime-config.ts';
import { createLogger } from '../logging/logger.ts';
import { readPassFile } from './pass-file.ts';
import { readPendingImports } from './pending-imports.ts';
import { scanRunService } from './scan-run-service.ts';

let install: TempInstall;
let config: RuntimeConfig;
afterEach(async () => {
  config?.close();
  await install?.cleanup();
});

const log = createLogger({ name: 'scan-run-service-test', level: 'silent' });
const ctx = (jobId: string) => ({ jobId, log, progress: async () => {} });

class Final extends Error {}

/** The service over a temp install, with the queue's errors and the notify queue as plain fakes. */
async function service() {
  install = await tempInstall('[app]\nsettle_seconds = 0\ndry_run = false\n\n[library]\nsample_max_bytes = 0\n');
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  const notices: JobPayload<'notify'>[] = [];
  const run = scanRunService({
    config: () => config.current(),
    state: config.state,
    owner: { uid: process.getuid!(), gid: process.getgid!() },
    data: config.data,
    passes: config.data.passes(),
    identifyCache: config.data.identifyCache(),
    updateSettings: (patch) => config.updateSettings(patch),
    notify: async (n) => void notices.push(n),
    unrecoverable: (message) => new Final(message),
    final: (err) => (err instanceof AppError ? new Final(err.message) : err),
  });
  return { run, notices };
}

function put(rel: string) {
  const p = join(install.paths.downloads, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, 'video');
  return p;
}

const target = { name: 'jf', kind: 'jellyfin', url: 'http://127.0.0.1:1', api_key: 'k', enabled: true } as const;

describe('scanRunService', () => {
  it('moves a download, keeps the full result in the pass file and tells the enabled media servers once', async () => {
    const { run, notices } = await service();
    await config.updateSettings({ notifications: { targets: [target] } });
    const src = put('Heat.1995.1080p.mkv');
    const destination = join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    expect(await run.pass(ctx('7'))).toMatchObject({ dry_run: false, counts: { plans: 1, moved: 1 }, pass_file: 'passes/7.json' });
    expect((await readPassFile(install.paths.data, '7'))?.moves).toMatchObject([{ status: 'moved', destination }]);
    expect(existsSync(src)).toBe(false);
    expect(notices).toEqual([{ pass: '7', imports: [{ source: src, destination }] }]);
  });

  it('fails for good, with nothing moved, on a job id that cannot name a pass file or a template that cannot name files', async () => {
    const { run, notices } = await service();
    const src = put('Heat.1995.1080p.mkv');
    await expect(run.pass(ctx('../escape'))).rejects.toThrow(Final);
    await config.updateSettings({ library: { movie_template: '{title}{extension}' } });
    await expect(run.pass(ctx('1'))).rejects.toSatisfy(
      (err) => err instanceof Final && err.message.includes('library.movie_template: unknown token {extension}'),
    );
    expect(existsSync(src)).toBe(true);
    expect(notices).toEqual([]);
  });

  it('a payload naming a download outside the downloads folder fails for good, with nothing moved', async () => {
    const { run } = await service();
    const src = put('Heat.1995.1080p.mkv');
    const payload = { trigger: 'api' as const, sources: [src, join(install.paths.drive, 'Movies/x.mkv')] };
    await expect(run.pass(ctx('3'), payload)).rejects.toSatisfy((err) => err instanceof Final && err.message.includes('sources.1: must lie inside'));
    expect(existsSync(src)).toBe(true);
  });

  it('a pass of chosen downloads leaves what waits for the owner as the last whole pass found it', async () => {
    const { run } = await service();
    const heat = put('Heat.1995.1080p.mkv');
    const odd = put('some.unreadable.name.mkv');
    await run.pass(ctx('5'), { trigger: 'api', dry_run: true });
    const stores = { passes: config.data.passes(), history: config.data.history() };
    const pending = async () => (await readPendingImports(config.current(), stores)).items.map((i) => i.path);
    expect(await pending()).toEqual([odd]);
    expect(await run.pass(ctx('6'), { trigger: 'api', sources: [heat] })).toMatchObject({ counts: { moved: 1, skipped: 0 } });
    expect((await readPassFile(install.paths.data, '6'))?.chosen).toBe(true);
    expect(await pending()).toEqual([odd]);
  });

  it('a preview payload plans only, whatever dry_run says', async () => {
    const { run, notices } = await service();
    const src = put('Heat.1995.1080p.mkv');
    expect(await run.pass(ctx('4'), { trigger: 'api', dry_run: true })).toMatchObject({ dry_run: true, counts: { plans: 1, moved: 0 } });
    expect(existsSync(src)).toBe(true);
    expect(notices).toEqual([]);
  });

  it('hands a manual import refused in dry run to the final port, and imports once dry run is off', async () => {
    const { run, notices } = await service();
    const src = put('Heat.1995.1080p.mkv');
    const payload = { path: src, as: { kind: 'movie' as const, title: 'Heat', year: 1995 }, remember: false };
    await config.updateSettings({ app: { dry_run: true } });
    await expect(run.manualImport(payload, ctx('m1'))).rejects.toThrow(Final);
    await config.updateSettings({ app: { dry_run: false } });
    expect((await run.manualImport(payload, ctx('m2'))).moves).toMatchObject([{ status: 'moved', source: src }]);
    expect(existsSync(src)).toBe(false);
    expect(notices).toEqual([]);
  });

  it('indexes the library and records when', async () => {
    const { run } = await service();
    mkdirSync(join(install.paths.drive, 'Movies/Heat (1995)'), { recursive: true });
    writeFileSync(join(install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv'), 'video');
    const progress: unknown[] = [];
    const { summary } = await run.libraryScan({ ...ctx('l1'), progress: async (v) => void progress.push(v) });
    expect(summary).toMatchObject({ files: 1 });
    expect((await config.state.read()).last_library_scan_at).not.toBeNull();
  });
});
