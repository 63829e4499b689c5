import { AppError, REDIS_DEADLINE_MS, withDeadline, type JobClient } from '@mo/core';
import { requestCancel } from '@mo/core/queue';
import type { TranscodeJobs } from '@mo/core/tools';

/** The transcoder service's job port over the API's BullMQ client. */
export function transcodeJobs(jobs: JobClient): TranscodeJobs {
  return {
    queue: (batch) => jobs.queueTranscodes(batch),
    removeWaiting: (ids) => jobs.removeWaiting('transcode', ids),
    setPaused: (paused) => jobs.setPaused('transcode', paused),
    progressOf: (ids) => jobs.progressOf('transcode', ids),
    stateOf: async (id) => (await jobs.get('transcode', id))?.state ?? null,
    reprioritize: (id, priority) => jobs.reprioritize('transcode', id, priority),
    async cancel(id) {
      const q = jobs.queues().find((x) => x.name === 'transcode');
      if (!q) throw new AppError('unavailable', 'the transcode queue is not available');
      try {
        await withDeadline(requestCancel(q, id), REDIS_DEADLINE_MS, () => new Error('timed out'));
      } catch (err) {
        throw new AppError('unavailable', `the job queue cannot be reached (${(err as Error).message})`);
      }
    },
  };
}
