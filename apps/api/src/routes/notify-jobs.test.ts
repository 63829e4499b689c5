import { afterEach, expect, it } from 'vitest';
import { createJobClient, createLogger, createWorkerHost, type JobClient, type WorkerHost } from '@mo/core';
import { jobViewResponse } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { waitFor } from '@mo/test-support/service';

const logger = createLogger({ name: 't', level: 'silent' });
let t: TestApp | undefined;
let jobs: JobClient | undefined;
let host: WorkerHost | undefined;
let prefix: string | undefined;

afterEach(async () => {
  await host?.close();
  await t?.close();
  await jobs?.close();
  if (prefix) await dropPrefix(testRedisUrl(), prefix);
  [t, jobs, host, prefix] = [undefined, undefined, undefined, undefined];
});

it('GET /api/jobs/notify/:id shows a notice waiting for its retry, with the target that failed and why', async () => {
  prefix = uniquePrefix('notify-jobs');
  jobs = createJobClient({ redisUrl: testRedisUrl(), prefix, logger });
  t = await testApp({ jobs });
  // As the worker's notify handler fails an attempt: progress says who was told, the error who was not.
  host = createWorkerHost({
    redisUrl: testRedisUrl(),
    prefix,
    queues: ['notify'],
    logger,
    handlers: {
      notify: async (_p, ctx) => {
        await ctx.progress({ told: ['jf'], failed: { plex: 'GET /library/sections: ECONNREFUSED' } });
        throw new Error('not told: plex (GET /library/sections: ECONNREFUSED)');
      },
    },
  });
  const { job } = await jobs.submit('notify', { pass: '3', imports: [{ source: '/d/a.mkv', destination: '/m/A (2001)/A (2001).mkv' }] }, { waitSeconds: 0 });
  const view = await waitFor(
    async () => {
      const res = await t!.app.request(`/api/jobs/notify/${job.id}`);
      const body = jobViewResponse.parse(await res.json());
      return body.state === 'delayed' && body;
    },
    10_000,
    'the first attempt to fail',
  );
  expect(view).toMatchObject({
    queue: 'notify',
    name: 'notify',
    error: 'not told: plex (GET /library/sections: ECONNREFUSED)',
    progress: { told: ['jf'], failed: { plex: 'GET /library/sections: ECONNREFUSED' } },
  });
});
