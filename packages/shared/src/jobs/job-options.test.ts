import { describe, expect, it } from 'vitest';
import { JOB_NAMES, JOBS, RECYCLE_PURGE_SCHEDULER_ID, SCAN_SCHEDULER_ID, transcodeJobItemSchema, trackJobPayloadSchema, type JobName } from './catalogue.ts';
import { apiJobOptions, jobOptionsProblem, KEEP_CEILING, transcodeJobOptions, TRANSCODE_PRIORITY_MAX } from './job-options.ts';

/** What the API gives a job: a transcode also carries the id and priority its entry was claimed with. */
const given = (name: JobName): Record<string, unknown> => ({
  ...(name === 'transcode-run' ? transcodeJobOptions('tr-0123456789abcdef', 7) : apiJobOptions(name)),
});

const DAY = 86_400;

/** What BullMQ stores for a job the scan schedule makes (read from a real Redis, BullMQ 5.81). */
function scheduled(extra: Record<string, unknown> = {}) {
  const { deduplication: _, ...opts } = apiJobOptions('scan-pass');
  return {
    name: 'scan-pass',
    repeatJobKey: SCAN_SCHEDULER_ID,
    opts: { ...opts, repeat: { every: 900_000, count: 3 }, jobId: `repeat:${SCAN_SCHEDULER_ID}:1795533803214`, timestamp: 1795533802571, delay: 643, ...extra },
  };
}

describe('jobOptionsProblem', () => {
  it.each(JOB_NAMES)('accepts what the API gives %s', (name) => {
    expect(jobOptionsProblem(name, { name, opts: given(name) })).toBeNull();
    // BullMQ leaves out what it was not given.
    const { deduplication: _, ...without } = given(name);
    expect(jobOptionsProblem(name, { name, opts: without })).toBeNull();
  });

  it('accepts the jobs of the scan schedule, and every iteration of it', () => {
    expect(jobOptionsProblem('scan-pass', scheduled())).toBeNull();
    expect(jobOptionsProblem('scan-pass', scheduled({ repeat: { every: 60_000, count: 1 }, delay: 0 }))).toBeNull();
    const { timestamp: _, delay: __, ...first } = scheduled().opts;
    expect(jobOptionsProblem('scan-pass', { ...scheduled(), opts: first })).toBeNull();
  });

  it('accepts the daily recycle bin purge from its own schedule only', () => {
    const { deduplication: _, ...opts } = apiJobOptions('recycle-purge');
    const purge = (scheduler: string) => ({
      name: 'recycle-purge',
      repeatJobKey: scheduler,
      opts: { ...opts, repeat: { every: 86_400_000, count: 2 }, jobId: `repeat:${scheduler}:1795533803214`, delay: 5 },
    });
    expect(jobOptionsProblem('recycle-purge', purge(RECYCLE_PURGE_SCHEDULER_ID))).toBeNull();
    expect(jobOptionsProblem('recycle-purge', purge(SCAN_SCHEDULER_ID))).toMatch(/only the periodic/);
    expect(jobOptionsProblem('scan-pass', { ...purge(RECYCLE_PURGE_SCHEDULER_ID), name: 'scan-pass' })).toMatch(/only the periodic/);
  });

  it('accepts a job queued under an older catalogue that kept more, up to the ceiling', () => {
    const opts = { ...apiJobOptions('scan-pass'), removeOnComplete: { age: 7 * DAY, count: 1000 }, removeOnFail: { ...KEEP_CEILING } };
    expect(jobOptionsProblem('scan-pass', { name: 'scan-pass', opts })).toBeNull();
  });

  const refused: [string, JobName, Record<string, unknown>, RegExp][] = [
    ['a repeat (Bull Board’s add job)', 'transcode-run', { repeat: { every: 1000 } }, /only the periodic scanner pass repeats/],
    ['a cron repeat', 'media-tracks', { repeat: { pattern: '* * * * *' } }, /only the periodic scanner pass repeats/],
    ['a repeat on a scan pass', 'scan-pass', { repeat: { every: 1000 } }, /only the periodic scanner pass repeats/],
    ['a delay', 'transcode-run', { delay: 60_000 }, /^delay: not an option/],
    ['a priority', 'media-tracks', { priority: 1 }, /^priority: not an option/],
    ['a transcode without its job id', 'transcode-run', { jobId: undefined }, /^jobId is not one the API gives/],
    ['a transcode with a job id of another form', 'transcode-run', { jobId: '12' }, /^jobId is not one the API gives/],
    ['a transcode without a priority', 'transcode-run', { priority: undefined }, /^priority must be a whole number/],
    ['a transcode with priority 0 (BullMQ: none, before every other)', 'transcode-run', { priority: 0 }, /^priority must be a whole number/],
    ['a transcode with a priority beyond the range', 'transcode-run', { priority: TRANSCODE_PRIORITY_MAX + 1 }, /^priority must be a whole number/],
    ['lifo', 'media-tracks', { lifo: true }, /^lifo: not an option/],
    ['a custom job id', 'scan-pass', { jobId: 'mine' }, /^jobId: not an option/],
    ['a parent', 'library-scan', { parent: { id: '1', queue: 'x' } }, /^parent: not an option/],
    ['several at once, named in order', 'transcode-run', { lifo: true, delay: 5 }, /^delay, lifo: not an option/],
    ['more attempts', 'transcode-run', { attempts: 100 }, /^attempts must be 2/],
    ['no attempts', 'transcode-run', { attempts: undefined }, /^attempts must be 2/],
    ['another backoff', 'scan-pass', { backoff: { type: 'fixed', delay: 1 } }, /^backoff must be/],
    ['kept forever once done', 'transcode-run', { removeOnComplete: false }, /^removeOnComplete must be \{age, count\}/],
    ['kept forever once failed', 'media-tracks', { removeOnFail: false }, /^removeOnFail must be \{age, count\}/],
    ['a keep count only', 'media-tracks', { removeOnFail: 5 }, /^removeOnFail must be \{age, count\}/],
    ['kept too many', 'library-scan', { removeOnComplete: { age: DAY, count: 1_000_000 } }, /^removeOnComplete keeps more/],
    ['kept too long', 'library-scan', { removeOnFail: { age: 365 * DAY, count: 10 } }, /^removeOnFail keeps more/],
    ['kept with extra keys', 'library-scan', { removeOnFail: { age: DAY, count: 10, limit: 1 } }, /^removeOnFail must be/],
    ['another deduplication id', 'scan-pass', { deduplication: { id: 'other' } }, /^deduplication must be/],
    ['deduplication with a ttl', 'scan-pass', { deduplication: { id: 'scan-pass', ttl: 1e9 } }, /^deduplication must be/],
    ['deduplication on a job that never joins', 'transcode-run', { deduplication: { id: 'transcode-run' } }, /^deduplication: not an option/],
  ];
  it.each(refused)('refuses %s', (_what, name, change, message) => {
    const opts: Record<string, unknown> = { ...given(name), ...change };
    for (const k of Object.keys(change)) if (change[k] === undefined) delete opts[k];
    expect(jobOptionsProblem(name, { name, opts })).toMatch(message);
  });

  it('refuses a repeat job BullMQ made for another schedule, and the scan schedule’s keys elsewhere', () => {
    expect(jobOptionsProblem('scan-pass', { ...scheduled(), repeatJobKey: '4706ef86e0e20ca7158b9d25c46bc297' })).toMatch(/only the periodic/);
    expect(jobOptionsProblem('transcode-run', { ...scheduled(), name: 'transcode-run' })).toMatch(/only the periodic/);
    expect(jobOptionsProblem('scan-pass', { name: 'scan-pass', repeatJobKey: SCAN_SCHEDULER_ID, opts: apiJobOptions('scan-pass') })).toMatch(/^repeat must be/);
    expect(jobOptionsProblem('scan-pass', scheduled({ repeat: { every: 1000, limit: 5 } }))).toMatch(/^repeat must be/);
    expect(jobOptionsProblem('scan-pass', scheduled({ repeat: { pattern: '* * * * *' } }))).toMatch(/^repeat must be/);
    expect(jobOptionsProblem('scan-pass', scheduled({ repeat: { every: 0 } }))).toMatch(/^repeat\.every/);
    expect(jobOptionsProblem('scan-pass', scheduled({ jobId: 'repeat:other:1' }))).toMatch(/^jobId is not one/);
    expect(jobOptionsProblem('scan-pass', scheduled({ delay: -1 }))).toMatch(/^delay must be/);
    expect(jobOptionsProblem('scan-pass', scheduled({ priority: 2 }))).toMatch(/^priority: not an option/);
    expect(jobOptionsProblem('scan-pass', scheduled({ deduplication: { id: 'scan-pass' } }))).toMatch(/^deduplication: not an option/);
  });

  it.each([null, undefined, 'x', 1, []])('refuses options that are not an object: %j', (opts) => {
    expect(jobOptionsProblem('scan-pass', { name: 'scan-pass', opts })).toMatch(/must be an object/);
  });

  it('gives each joining job its own deduplication id, and no other job one', () => {
    for (const name of JOB_NAMES) {
      expect(apiJobOptions(name).deduplication).toEqual(JOBS[name].joinRunning ? { id: name } : undefined);
    }
  });

  it('gives a preview pass and a pass of chosen downloads none: they join no other pass', () => {
    expect(apiJobOptions('scan-pass', { trigger: 'api' }).deduplication).toEqual({ id: 'scan-pass' });
    expect(apiJobOptions('scan-pass', { trigger: 'api', dry_run: true }).deduplication).toBeUndefined();
    expect(apiJobOptions('scan-pass', { trigger: 'api', sources: ['/d/a.mkv'] }).deduplication).toBeUndefined();
    expect(jobOptionsProblem('scan-pass', { name: 'scan-pass', opts: apiJobOptions('scan-pass', { trigger: 'api', dry_run: true }) })).toBeNull();
  });

  it('takes a scan payload with dry_run true or a list of sources, and nothing else', () => {
    const p = JOBS['scan-pass'].payload;
    expect(p.safeParse({ trigger: 'api', dry_run: true, sources: ['/d/a.mkv'] }).success).toBe(true);
    expect(p.safeParse({ trigger: 'api', dry_run: false }).success).toBe(false);
    expect(p.safeParse({ trigger: 'api', sources: [] }).success).toBe(false);
    expect(p.safeParse({ trigger: 'api', sources: [''] }).success).toBe(false);
  });
});

describe('job payloads', () => {
  const item = { path: '/m/Movies/A (2001)/A (2001).avi', ext: '.avi', bytes: 1, kind: 'movie', title: 'A', status: 'queued' };

  it('takes a transcode item as run-next makes it', () => {
    expect(transcodeJobItemSchema.safeParse(item).success).toBe(true);
    expect(transcodeJobItemSchema.safeParse({ ...item, path: '/m/A.MKV', ext: '.mkv' }).success).toBe(true);
  });

  it.each([
    ['keep_original in the item', { keep_original: false }, 'keep_original'],
    ['an output of its own', { output: '/etc/cron.d/x' }, 'output'],
    ['another status', { status: 'done' }, 'status'],
    ['an extension that is not the path’s', { ext: '.mkv' }, 'ext'],
    ['a file already in MP4', { path: '/m/A.mp4', ext: '.mp4' }, 'ext'],
    ['a path without an extension', { path: '/m/A', ext: '' }, 'ext'],
  ])('refuses a transcode item with %s', (_what, change, key) => {
    const r = transcodeJobItemSchema.safeParse({ ...item, ...change });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error!.issues)).toContain(key);
  });

  it('refuses a transcode payload with keys beside the item', () => {
    expect(JOBS['transcode-run'].payload.safeParse({ item, keep_original: false }).success).toBe(false);
    expect(JOBS['transcode-run'].payload.safeParse({ item }).success).toBe(true);
  });

  it('refuses unknown keys in a track job and in the streams it carries', () => {
    const stream = { index: 1, type: 'audio', codec: 'aac', language: null, title: null, default: true, forced: false, channels: 2, width: null, height: null };
    const job = { path: '/d/a.mkv', action: 'remove', stream: 1, before: [stream] };
    expect(trackJobPayloadSchema.safeParse(job).success).toBe(true);
    expect(trackJobPayloadSchema.safeParse({ ...job, output: '/x' }).success).toBe(false);
    expect(trackJobPayloadSchema.safeParse({ ...job, before: [{ ...stream, map: '-0:0' }] }).success).toBe(false);
  });
});
