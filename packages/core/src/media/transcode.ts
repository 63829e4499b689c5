import { rm, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { AppError } from '../errors.ts';
import { progressReader, type FfmpegProgress } from './progress.ts';
import type { MediaProbe } from './probe.ts';
import { remuxTimeoutMs } from './remux.ts';
import { probeFile, runTool, ToolError } from './run.ts';
import { placeVerified } from './safe-replace.ts';
import { transcodePlan, type DroppedStream, type TranscodePlan, type VideoEncoder } from './transcode-command.ts';
import { verifyOutput, type OutputExpectation } from './verify.ts';
import type { WorkJournal } from './work-journal.ts';

export function mp4PathFor(file: string): string {
  return file.slice(0, file.length - extname(file).length) + '.mp4';
}

/** Encoding may run far slower than real time on a small CPU; the limit only catches a wedged ffmpeg. */
export function transcodeTimeoutMs(probe: MediaProbe, plan: TranscodePlan): number {
  if (plan.encoder === null) return remuxTimeoutMs(probe.size_bytes);
  const seconds = probe.duration_seconds ?? 4 * 3600;
  return (600 + 20 * seconds) * 1000;
}

function expectation(probe: MediaProbe, plan: TranscodePlan): OutputExpectation {
  return { streams: plan.expected, chapters: probe.chapters, duration_seconds: probe.duration_seconds, container: 'mp4' };
}

export interface TranscodeJob {
  /** The real path of the source. */
  file: string;
  encoder: VideoEncoder;
  journal: WorkJournal;
  jobId: string | null;
  signal?: AbortSignal;
  /**
   * True when an earlier attempt of this same job may have placed the MP4 and died before saying
   * so; a verified MP4 found in place is then taken as this job's work instead of a conflict.
   */
  adoptExisting: boolean;
  onProgress?: (p: FfmpegProgress & { encoder: VideoEncoder | null }) => void;
  /** Told when a hardware encoder failed and the job goes on with libx264. */
  onFallback?: (from: VideoEncoder, error: ToolError) => void;
}

export interface TranscodeOutcome {
  output: string;
  /** The command that made the output; empty when an earlier attempt's output was adopted. */
  command: string[];
  encoder: VideoEncoder | null;
  dropped: DroppedStream[];
}

/**
 * Makes `<name>.mp4` beside the source: ffmpeg writes a temp beside it, ffprobe checks the temp
 * (streams, MP4 container, duration within 1%), and only then is it linked into place. The source
 * is left alone; removing it is the caller's decision.
 */
export async function transcodeToMp4(job: TranscodeJob): Promise<TranscodeOutcome> {
  const signal = job.signal ? { signal: job.signal } : {};
  const probe = await probeFile(job.file, signal);
  const dest = mp4PathFor(job.file);

  if (await stat(dest).then(() => true, () => false)) {
    const taken = new AppError('conflict', `${dest} already exists; not overwritten`);
    if (!job.adoptExisting) throw taken;
    const plan = transcodePlan(probe, { encoder: job.encoder, src: job.file, tmp: dest });
    const existing = await probeFile(dest, signal).catch(() => null);
    if (!existing || verifyOutput(expectation(probe, plan), existing).length > 0) throw taken;
    return { output: dest, command: [], encoder: plan.encoder, dropped: plan.dropped };
  }

  const ticket = await job.journal.begin(dest, 'transcode', job.jobId);
  try {
    const run = async (plan: TranscodePlan) => {
      const onLine = job.onProgress && progressReader(probe.duration_seconds, (p) => job.onProgress!({ ...p, encoder: plan.encoder }));
      await runTool(plan.argv, { timeoutMs: transcodeTimeoutMs(probe, plan), ...signal, ...(onLine ? { onStdoutLine: onLine } : {}) });
      return plan;
    };
    let plan = transcodePlan(probe, { encoder: job.encoder, src: job.file, tmp: ticket.temp });
    try {
      await run(plan);
    } catch (err) {
      // A GPU that is missing, busy or lacks a profile fails the hardware encoder; the CPU still can.
      const hardware = plan.encoder !== null && plan.encoder !== 'libx264';
      if (!(err instanceof ToolError && err.reason === 'failed' && hardware)) throw err;
      job.onFallback?.(plan.encoder!, err);
      await rm(ticket.temp, { force: true });
      plan = await run(transcodePlan(probe, { encoder: 'libx264', src: job.file, tmp: ticket.temp }));
    }
    const problems = verifyOutput(expectation(probe, plan), await probeFile(ticket.temp, signal));
    if (problems.length > 0) throw new Error(`the transcoded file failed verification: ${problems.join('; ')}`);
    job.signal?.throwIfAborted();
    await placeVerified(ticket.temp, dest);
    return { output: dest, command: plan.argv, encoder: plan.encoder, dropped: plan.dropped };
  } finally {
    await ticket.end();
  }
}
