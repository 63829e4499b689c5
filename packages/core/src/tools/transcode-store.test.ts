import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSCODE_JOB_ID } from '@mo/shared';
import { AppError } from '../errors.ts';
import { createTranscodeRecords, type TranscodeRecords } from '../state/transcode-records.ts';
import { transcodeStore } from './transcode-store.ts';
import type { TranscodeEntry } from './transcoder-queue.ts';

let dir: string;
let state: TranscodeRecords;
const entry = (path: string): TranscodeEntry => ({ path, ext: '.avi', bytes: 1, kind: 'movie', title: 'X' });
const queue = ['/m/a.avi', '/m/b.avi', '/m/c.avi'].map(entry);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-transcode-store-'));
  state = createTranscodeRecords(join(dir, 'transcodes.jsonl'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('transcodeStore on a real transcode log', () => {
  it('two claims at once take different entries, each with its own job id', async () => {
    const store = transcodeStore(state);
    const [one, two] = await Promise.all([store.claim(queue, 1), transcodeStore(state).claim(queue, 1)]);
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(1);
    expect(one[0]!.entry.path).not.toBe(two[0]!.entry.path);
    expect(one[0]!.job_id).toMatch(TRANSCODE_JOB_ID);
    const { transcodes } = await state.read();
    expect(transcodes[one[0]!.entry.path]).toMatchObject({ status: 'queued', job_id: one[0]!.job_id });
  });

  it('claims every queued entry in run order, the higher priority first', async () => {
    const store = transcodeStore(state);
    await store.apply('/m/c.avi', { type: 'prioritize', priority: 3 });
    expect((await store.claim(queue, Infinity)).map((c) => [c.entry.path, c.priority])).toEqual([
      ['/m/c.avi', 3],
      ['/m/a.avi', 0],
      ['/m/b.avi', 0],
    ]);
    expect(await store.claim(queue, Infinity)).toEqual([]);
  });

  it('a refused event throws its reason and leaves the file as it was', async () => {
    const store = transcodeStore(state);
    const [claimed] = await store.claim(queue, 1);
    const before = await readFile(state.file, 'utf8');
    const err = await store.apply('/m/a.avi', { type: 'start', job_id: 'tr-0000000000000000', output: '/m/a.mp4' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('conflict');
    expect(await readFile(state.file, 'utf8')).toBe(before);
    expect(await store.apply('/m/a.avi', { type: 'start', job_id: claimed!.job_id, output: '/m/a.mp4' })).toMatchObject({ status: 'running' });
  });

  it('a cancel reaches the entries its job holds, and only those', async () => {
    const store = transcodeStore(state);
    const [a, b] = await store.claim(queue, 2);
    expect(await store.applyToJobs([{ type: 'cancel', job_id: a!.job_id }])).toEqual(['/m/a.avi']);
    const { transcodes } = await state.read();
    expect(transcodes['/m/a.avi']).toMatchObject({ status: 'failed', error: 'cancelled' });
    expect(transcodes['/m/b.avi']).toMatchObject({ status: 'queued', job_id: b!.job_id });
  });

  it('gives back claimed entries in one write, leaving one its job has moved on with and keeping priorities', async () => {
    const store = transcodeStore(state);
    await store.apply('/m/c.avi', { type: 'prioritize', priority: 3 });
    const claimed = await store.claim(queue, Infinity);
    const a = claimed.find((c) => c.entry.path === '/m/a.avi')!;
    await store.apply('/m/a.avi', { type: 'start', job_id: a.job_id, output: '/m/a.mp4' });
    await store.unclaim(claimed);
    const { transcodes } = await state.read();
    expect(transcodes).toEqual({
      '/m/a.avi': expect.objectContaining({ status: 'running', job_id: a.job_id }),
      '/m/c.avi': expect.objectContaining({ status: 'queued', job_id: null, priority: 3 }),
    });
  });

  it('the pause is kept in the transcode log', async () => {
    await transcodeStore(state).setPaused(true);
    expect((await state.read()).paused).toBe(true);
    await transcodeStore(state).setPaused(false);
    expect((await state.read()).paused).toBe(false);
  });
});
