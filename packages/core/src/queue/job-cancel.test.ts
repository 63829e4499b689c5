import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { JobPayload } from '@mo/shared';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { createLogger } from '../logging/logger.ts';
import { createJobClient, type JobClient, type JobRef } from './job-client.ts';
import { newTranscodeJobId } from '../tools/transcode-store.ts';
import { CANCELLED, cancelChannel, listenForCancels, requestCancel, type CancelRequest } from './job-cancel.ts';
import { createWorkerHost, type JobContext, type WorkerHost } from './worker-host.ts';

const url = testRedisUrl();
const logger = createLogger({ name: 'cancel-test', level: 'silent' });
const item: JobPayload<'transcode-run'>['item'] = { path: '/m/A.mkv', ext: '.mkv', bytes: 1, kind: 'movie', title: 'A', status: 'queued' };
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function setup(prefix: string): JobClient {
  const jobs = createJobClient({ redisUrl: url, prefix, logger });
  closers.push(
    () => dropPrefix(url, prefix),
    () => jobs.close(),
  );
  return jobs;
}

/** A worker whose transcode handler runs until its signal aborts, counting its calls. */
function worker(prefix: string, seen: JobContext[]): WorkerHost {
  const host = createWorkerHost({
    redisUrl: url,
    prefix,
    queues: ['transcode'],
    logger,
    handlers: {
      'transcode-run': (_payload, ctx) => {
        seen.push(ctx);
        return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('ffmpeg was killed'))));
      },
    },
  });
  closers.push(() => host.close());
  return host;
}

async function waitState(jobs: JobClient, id: string, state: string) {
  await expect.poll(async () => (await jobs.get('transcode', id))?.state, { timeout: 10_000, interval: 50 }).toBe(state);
}

const transcodeQueue = (jobs: JobClient) => jobs.queues().find((q) => q.name === 'transcode')!;

describe('job cancellation through Redis', () => {
  it('aborts a running job in the worker process that has it, which then fails for good', async () => {
    const prefix = uniquePrefix('cancel');
    const jobs = setup(prefix);
    const seen: JobContext[] = [];
    worker(prefix, seen);
    const [job] = (await jobs.queueTranscodes([{ payload: { item }, jobId: newTranscodeJobId(), priority: 1 }])) as [JobRef];
    await waitState(jobs, job.id, 'active');
    await requestCancel(transcodeQueue(jobs), job.id);
    await waitState(jobs, job.id, 'failed');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.signal.reason).toBe(CANCELLED);
    const record = await transcodeQueue(jobs).getJob(job.id);
    expect(record?.failedReason).toBe(CANCELLED);
    // attempts: 2 in the catalogue, yet it is not tried again.
    expect(record?.attemptsMade).toBe(1);
  });

  it('fails a job cancelled while it waited, without running its handler', async () => {
    const prefix = uniquePrefix('cancel');
    const jobs = setup(prefix);
    const [job] = (await jobs.queueTranscodes([{ payload: { item }, jobId: newTranscodeJobId(), priority: 1 }])) as [JobRef];
    await requestCancel(transcodeQueue(jobs), job.id);
    const seen: JobContext[] = [];
    worker(prefix, seen);
    await waitState(jobs, job.id, 'failed');
    expect(seen).toEqual([]);
    expect((await transcodeQueue(jobs).getJob(job.id))?.failedReason).toBe(CANCELLED);
  });

  it('hands well-formed requests to the listener and ignores the rest', async () => {
    const prefix = uniquePrefix('cancel');
    const heard: CancelRequest[] = [];
    const listener = listenForCancels({ redisUrl: url, prefix, logger, onCancel: (r) => heard.push(r) });
    const pub = new Redis(url);
    closers.push(
      async () => pub.disconnect(),
      () => listener.close(),
    );
    await expect.poll(async () => ((await pub.pubsub('NUMSUB', cancelChannel(prefix))) as [string, number])[1], { timeout: 5000 }).toBe(1);
    for (const message of ['not json', '{"queue":"nope","id":"1"}', '{"queue":"media","id":"7"}']) await pub.publish(cancelChannel(prefix), message);
    await expect.poll(() => heard, { timeout: 5000 }).toEqual([{ queue: 'media', id: '7' }]);
  });
});
