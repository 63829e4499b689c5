import type { z } from 'zod';
import type { healthWarning, QueueName } from '@mo/shared';
import { marginBytes } from '../scanner/choose-drive.ts';

/** What the System page warns of (GET /api/system/health): a problem a person can act on. */
export type HealthWarning = z.infer<typeof healthWarning>;

export interface DriveHealth {
  name: string;
  path: string;
  /** `missing`: the path cannot be read; `empty`: a folder with nothing in it, as a mount point is before its disk is mounted. */
  state: 'mounted' | 'missing' | 'empty';
  free_bytes: number | null;
  total_bytes: number | null;
}

export interface HealthInputs {
  drives: readonly DriveHealth[];
  /** Each queue: its live workers, and the jobs waiting in it (delayed ones included). */
  queues: readonly { queue: QueueName; workers: number; waiting: number }[];
  /** Redis's INFO memory; `max_bytes` 0 means no limit. Null when Redis cannot be asked. */
  redis: { used_bytes: number; max_bytes: number } | null;
  /** The metadata provider's look-ups failing since `since`; null when the last one succeeded (or none was made). */
  provider: { name: string; since: string; error: string } | null;
  /** The newest scanner pass that finished; null when none has. */
  lastPass: { failed: boolean; finished_at: string | null; error: string | null } | null;
}

/** Above this share of Redis's maxmemory, jobs may soon be refused (or evicted, by the policy). */
export const REDIS_MEMORY_WARN_RATIO = 0.9;

const GB = 1000 ** 3;
const size = (bytes: number) => (bytes >= GB ? `${(bytes / GB).toFixed(1)} GB` : `${Math.round(bytes / 1000 ** 2)} MB`);

function driveWarnings(d: DriveHealth): HealthWarning[] {
  if (d.state === 'missing') {
    return [
      {
        code: 'drive-missing',
        subject: d.name,
        message: `Drive ${d.name} is not mounted: ${d.path} does not exist or cannot be read. Mount the disk (or the Docker volume) at ${d.path}, or remove the drive from the config; until then nothing is moved to it.`,
      },
    ];
  }
  if (d.state === 'empty') {
    return [
      {
        code: 'drive-empty',
        subject: d.name,
        message: `Drive ${d.name} looks unmounted: ${d.path} is an empty folder. If its disk should be mounted there, mount it before the next pass, or files will be written to the folder underneath.`,
      },
    ];
  }
  if (d.free_bytes === null || d.total_bytes === null) return [];
  const margin = marginBytes(d.total_bytes);
  if (d.free_bytes >= margin) return [];
  return [
    {
      code: 'drive-low-space',
      subject: d.name,
      message: `Drive ${d.name} has ${size(d.free_bytes)} free, under the ${size(margin)} kept free on it: nothing more is moved there. Free some space on ${d.path} or add a drive.`,
    },
  ];
}

/** The health warnings of the service, in the order the System page shows them. */
export function healthWarnings(inputs: HealthInputs): HealthWarning[] {
  const warnings = inputs.drives.flatMap(driveWarnings);
  for (const q of inputs.queues) {
    if (q.workers > 0 || q.waiting === 0) continue;
    warnings.push({
      code: 'queue-without-worker',
      subject: q.queue,
      message: `${q.waiting} ${q.queue} job${q.waiting === 1 ? ' waits' : 's wait'} and no worker takes them. Start a worker with ${q.queue} in its WORKER_QUEUES (or none set), or check why the worker stopped.`,
    });
  }
  const redis = inputs.redis;
  if (redis && redis.max_bytes > 0 && redis.used_bytes >= redis.max_bytes * REDIS_MEMORY_WARN_RATIO) {
    warnings.push({
      code: 'redis-memory',
      subject: 'redis',
      message: `Redis uses ${size(redis.used_bytes)} of its ${size(redis.max_bytes)} maxmemory (${Math.round((redis.used_bytes / redis.max_bytes) * 100)} %): new jobs may soon be refused. Raise maxmemory, or clear finished jobs from the queue dashboard.`,
    });
  }
  if (inputs.provider) {
    warnings.push({
      code: 'provider-failing',
      subject: inputs.provider.name,
      message: `Look-ups at ${inputs.provider.name} have failed since ${inputs.provider.since} (${inputs.provider.error}): series are named from the library and aliases alone. Check that this machine reaches the provider.`,
    });
  }
  if (inputs.lastPass?.failed) {
    warnings.push({
      code: 'pass-failed',
      subject: 'scan-pass',
      message: `The last scanner pass failed${inputs.lastPass.finished_at ? ` at ${inputs.lastPass.finished_at}` : ''}${inputs.lastPass.error ? `: ${inputs.lastPass.error}` : ''}. Fix the cause, then run a pass from Downloads; its job on Activity says more.`,
    });
  }
  return warnings;
}
