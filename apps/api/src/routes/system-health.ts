import { createRoute } from '@hono/zod-openapi';
import { driveHealth, healthWarnings, type HealthInputs } from '@mo/core/health';
import { QUEUE_NAMES, systemHealthResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { json, router } from '../openapi/route.ts';

/** Enough of the scan queue's newest jobs to find the newest finished pass among manual imports. */
const PASS_LOOKBACK = 20;

const getSystemHealth = createRoute({
  method: 'get',
  path: '/system/health',
  operationId: 'getSystemHealth',
  summary: 'What needs attention: each problem as a sentence saying what is wrong and what to do',
  tags: ['service'],
  description:
    'A warning for: a drive whose path is missing (`drive-missing`) or an empty folder, as a mount point is while its disk is not mounted ' +
    '(`drive-empty`); a drive with less free space than the margin kept on it, 2 % of its size and 1 GiB at most (`drive-low-space`); a queue ' +
    'with waiting jobs and no live worker (`queue-without-worker`); Redis at 90 % of its maxmemory or more (`redis-memory`); TVmaze look-ups ' +
    'failing since the last one that succeeded (`provider-failing`); the newest finished scanner pass failed (`pass-failed`). What cannot be ' +
    'read (Redis down) gives no warning of its own here: `GET /api/ready` says so.',
  responses: { 200: json(systemHealthResponse) },
});

export function systemHealthRoutes({ config, jobs }: AppDeps) {
  return router().openapi(getSystemHealth, async (c) => {
    const cfg = config.current();
    const [drives, workers, stats, memory, passes, failure] = await Promise.allSettled([
      Promise.all(cfg.drives.map(driveHealth)),
      jobs.workers(),
      jobs.stats(),
      jobs.memory(),
      jobs.list({ queue: 'scan', limit: PASS_LOOKBACK }),
      config.data.identifyCache().failures.read(),
    ]);
    const value = <T>(r: PromiseSettledResult<T>) => (r.status === 'fulfilled' ? r.value : null);
    const waiting = new Map(value(stats)?.map((s) => [s.queue, s.counts.waiting]));
    const live = value(workers)?.queues;
    const lastPass = value(passes)?.find((j) => j.name === 'scan-pass' && (j.state === 'completed' || j.state === 'failed'));
    const provider = value(failure);
    const inputs: HealthInputs = {
      drives: value(drives) ?? [],
      queues: live ? QUEUE_NAMES.map((queue) => ({ queue, workers: live[queue].workers, waiting: waiting.get(queue) ?? 0 })) : [],
      redis: value(memory),
      provider: provider && cfg.metadata.identify.includes('tvmaze') ? { name: 'tvmaze', ...provider } : null,
      lastPass: lastPass ? { failed: lastPass.state === 'failed', finished_at: lastPass.finished_at, error: lastPass.error } : null,
    };
    return c.json({ warnings: healthWarnings(inputs) }, 200);
  });
}
