import { Queue } from 'bullmq';
import { withDeadline, type Logger, type RuntimeConfig } from '@mo/core';
import { workerRedisOptions } from '@mo/core/queue';
import type { QueuePause, TranscodeRunService } from '@mo/core/tools';

/** A Redis that does not answer in this time leaves the pause as it is, for the next sync. */
const PAUSE_DEADLINE_MS = 5000;

/** BullMQ's own pause of the transcode queue, over a connection of its own. */
export function transcodeQueuePause(opts: { redisUrl: string; prefix: string; logger: Logger }): QueuePause & { close(): Promise<void> } {
  const queue = new Queue('transcode', { connection: workerRedisOptions(opts.redisUrl), prefix: opts.prefix });
  queue.on('error', (err) => opts.logger.error({ err: err.message, queue: 'transcode' }, 'queue error'));
  const deadline = <T>(work: Promise<T>) => withDeadline(work, PAUSE_DEADLINE_MS, () => new Error('Redis did not answer'));
  return {
    isPaused: () => deadline(queue.isPaused()),
    setPaused: (paused) => deadline(paused ? queue.pause() : queue.resume()),
    close: () => queue.close(),
  };
}

/**
 * Keeps the queue's own pause in line with the records: at once (this worker's start), whenever the
 * records' flag changes (a sync that ran between the API's two writes of a resume is undone by the
 * next), and every `everyMs` (a Redis flushed or restarted empty meanwhile). Returns the stop.
 */
export function keepTranscodePauseInLine(
  config: Pick<RuntimeConfig, 'onStateChange'>,
  transcodes: Pick<TranscodeRunService, 'syncQueuePauseQuietly' | 'keepQueuePauseSynced'>,
  everyMs: number,
): () => void {
  const stopListening = config.onStateChange((next, prev) => {
    if (next.transcoder_paused !== prev.transcoder_paused) void transcodes.syncQueuePauseQuietly();
  });
  const stopTicking = transcodes.keepQueuePauseSynced(everyMs);
  return () => {
    stopListening();
    stopTicking();
  };
}
