import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Alias, Config } from '@mo/shared';
import { openDataDir } from '../config/data-stores.ts';
import { validateFileConfig } from '../config/load.ts';
import { createLogger } from '../logging/logger.ts';
import { scannerService, type ScanJobOutcome, type ScanJobs } from './scanner-service.ts';

const log = createLogger({ name: 'scanner-service-test', level: 'silent' });

let dir: string;
let cfg: Config;
let submitted: { name: string; payload: unknown; waitSeconds: number }[];
let answer: ScanJobOutcome;
let refreshed: number;

const job = { id: 'j1', queue: 'scan', state: 'completed' as const };

beforeEach(async () => {
  submitted = [];
  refreshed = 0;
  answer = { kind: 'pending', job: { ...job, state: 'waiting' } };
  dir = await mkdtemp(join(tmpdir(), 'mo-scanner-service-'));
  for (const d of ['downloads', 'data', 'drive/Movies', 'drive/TV/Show']) await mkdir(join(dir, d), { recursive: true });
  cfg = validateFileConfig('test', {
    app: { dry_run: false },
    paths: { downloads: join(dir, 'downloads'), config: dir, data: join(dir, 'data') },
    drives: [{ name: 'disk1', path: join(dir, 'drive') }],
    // The test's videos are a few bytes: none is a sample.
    library: { sample_max_bytes: 0 },
  });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const jobs: ScanJobs = {
  async submit(name, payload, opts) {
    submitted.push({ name, payload, waitSeconds: opts.waitSeconds });
    return answer;
  },
};

function service(aliases: Alias[] = []) {
  const data = openDataDir(cfg.paths.data);
  return scannerService({
    config: () => cfg,
    passes: () => data.passes(),
    history: () => data.history(),
    jobs,
    refreshLibrary: async () => void refreshed++,
    async updateSettings(patch) {
      cfg = { ...cfg, library: { ...cfg.library, aliases } };
      const saved = patch(cfg);
      cfg = { ...cfg, library: { ...cfg.library, ...saved.library } };
      return cfg;
    },
  });
}

describe('scannerService', () => {
  it('submits a pass and hands back what the queue said, a result that is no pass summary untouched', async () => {
    expect(await service().pass(5)).toEqual(answer);
    answer = { kind: 'completed', job, result: { anything: 1 } };
    expect(await service().pass(0)).toEqual(answer);
    expect(submitted).toEqual([
      { name: 'scan-pass', payload: { trigger: 'api' }, waitSeconds: 5 },
      { name: 'scan-pass', payload: { trigger: 'api' }, waitSeconds: 0 },
    ]);
  });

  it('refreshes the library cache after a library scan that finished, not one that is still running', async () => {
    await service().libraryScan(1);
    expect(refreshed).toBe(0);
    answer = { kind: 'completed', job, result: {} };
    await service().libraryScan(1);
    expect(refreshed).toBe(1);
  });

  it('answers no passes before the first, without a queue', async () => {
    expect(await service().recentPasses(5)).toEqual([]);
    expect(submitted).toEqual([]);
  });

  it('previews a manual import without a job when asked, and queues the job otherwise', async () => {
    const path = join(dir, 'downloads', 'Some.Movie.2001.1080p.mkv');
    await writeFile(path, 'video');
    // Settled: a file written a moment ago may still be downloading.
    await utimes(path, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const as = { kind: 'movie' as const, title: 'Some Movie', year: 2001 };
    const preview = await service().manualImport({ path, as, remember: false, replace: false }, { dryRun: true, wait: 3, log });
    expect(preview).toMatchObject({ kind: 'preview', preview: { dry_run: true, plan: { source: path } } });
    expect(submitted).toEqual([]);

    cfg = { ...cfg, app: { ...cfg.app, dry_run: true } };
    expect((await service().manualImport({ path, as, remember: false, replace: false }, { dryRun: false, wait: 3, log })).kind).toBe('preview');
    expect(submitted).toEqual([]);

    cfg = { ...cfg, app: { ...cfg.app, dry_run: false } };
    expect(await service().manualImport({ path, as, remember: false, replace: false }, { dryRun: false, wait: 3, log })).toEqual(answer);
    expect(submitted).toEqual([{ name: 'manual-import', payload: { path, as, remember: false }, waitSeconds: 3 }]);
  });

  it("queues a replace the preview planned as a replacement, with the owner's word in the job", async () => {
    await mkdir(join(dir, 'drive/Movies/Some Movie (2001)'), { recursive: true });
    const held = join(dir, 'drive/Movies/Some Movie (2001)/Some Movie (2001).mkv');
    await writeFile(held, 'held');
    const path = join(dir, 'downloads', 'Some.Movie.2001.720p.HDTV.x264-GRP.mkv');
    await writeFile(path, 'video');
    await utimes(path, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const as = { kind: 'movie' as const, title: 'Some Movie', year: 2001 };
    await expect(service().manualImport({ path, as, remember: false, replace: false }, { dryRun: true, wait: 3, log })).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'exists' },
    });
    const preview = await service().manualImport({ path, as, remember: false, replace: true }, { dryRun: true, wait: 3, log });
    expect(preview).toMatchObject({ kind: 'preview', preview: { plan: { destination: held, replaces: { path: held } } } });
    await service().manualImport({ path, as, remember: false, replace: true }, { dryRun: false, wait: 3, log });
    expect(submitted).toEqual([{ name: 'manual-import', payload: { path, as, remember: false, replace: true }, waitSeconds: 3 }]);
  });

  it('refuses remember on a movie and a path outside the downloads before any job', async () => {
    const path = join(dir, 'downloads', 'Some.Movie.2001.mkv');
    await writeFile(path, 'video');
    const as = { kind: 'movie' as const, title: 'Some Movie', year: 2001 };
    await expect(service().manualImport({ path, as, remember: true, replace: false }, { dryRun: false, wait: 0, log })).rejects.toMatchObject({
      code: 'bad_request',
      details: { key: 'remember' },
    });
    await expect(service().manualImport({ path: '/etc/passwd', as, remember: false, replace: false }, { dryRun: false, wait: 0, log })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(submitted).toEqual([]);
  });

  it('removes one alias by name whatever its case, and says when there is none', async () => {
    const kept = { name: 'Other', series: 'Show' };
    expect(await service([{ name: 'The Show', series: 'Show' }, kept]).removeAlias({ name: 'the show', series: 'Show' })).toEqual([kept]);
    await expect(service([kept]).removeAlias({ name: 'Gone', series: 'Show' })).rejects.toMatchObject({ code: 'not_found', details: { key: 'name' } });
  });
});
