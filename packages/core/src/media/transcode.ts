import { constants } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { MediaSnapshot } from '@mo/shared';
import { AppError } from '../errors.ts';
import { withMediaInFolder, type OpenedMedia, type PinnedFolder } from './open-media.ts';
import { setTracksEnabled } from './mp4-track-enabled.ts';
import { progressReader, type FfmpegProgress } from './progress.ts';
import type { MediaProbe } from './probe.ts';
import { remuxTimeoutMs } from './remux.ts';
import { probeFile, probeFileAndStat, probeOpened, runWith, ToolError } from './run.ts';
import { placeVerified, statStamp, type FileStamp } from './safe-replace.ts';
import { transcodePlan, type DroppedStream, type TranscodePlan, type VideoEncoder } from './transcode-command.ts';
import { verifyOutput, type OutputExpectation } from './verify.ts';
import type { WorkJournal } from './work-journal.ts';

/** A file's size and streams as a transcode's record keeps them, before and after. */
export function snapshot(probe: MediaProbe): MediaSnapshot {
  return {
    bytes: probe.size_bytes,
    streams: probe.streams.map((s) => ({ index: s.index, type: s.type, codec: s.codec, language: s.language, default: s.default })),
  };
}

export function mp4PathFor(file: string): string {
  return file.slice(0, file.length - extname(file).length) + '.mp4';
}

/** Encoding may run far slower than real time on a small CPU; the limit only catches a wedged ffmpeg. */
export function transcodeTimeoutMs(probe: MediaProbe, plan: TranscodePlan): number {
  if (plan.encoder === null) return remuxTimeoutMs(probe.size_bytes);
  const seconds = probe.duration_seconds ?? 4 * 3600;
  return (600 + 20 * seconds) * 1000;
}

/**
 * Gives each track of the MP4 at `temp` the default flag the plan expects. ffmpeg numbers an MP4's
 * tracks from 1 in output stream order; the verification that follows reads the flags back.
 */
async function setDefaultTracks(folder: PinnedFolder, temp: string, plan: TranscodePlan): Promise<void> {
  const file = await open(folder.at(temp), constants.O_RDWR | constants.O_NOFOLLOW);
  try {
    await setTracksEnabled(file, new Map(plan.expected.map((s, i) => [i + 1, s.default === true])));
  } finally {
    await file.close();
  }
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
  /** The source as it was read, for removeSource. */
  source: FileStamp;
  before: MediaSnapshot;
  after: MediaSnapshot;
}

/**
 * Makes `<name>.mp4` beside the source: ffmpeg writes a temp beside it, ffprobe checks the temp
 * (streams, MP4 container, duration within 1%), and only then is it linked into place. The source
 * is left alone; removing it is the caller's decision. The source is opened once and the MP4 is
 * written and placed through its folder held open (see open-media.ts).
 */
export function transcodeToMp4(job: TranscodeJob): Promise<TranscodeOutcome> {
  return withMediaInFolder(job.file, (source, folder) => transcodeOpened(job, source, folder));
}

async function transcodeOpened(job: TranscodeJob, source: OpenedMedia, folder: PinnedFolder): Promise<TranscodeOutcome> {
  const signal = job.signal ? { signal: job.signal } : {};
  const probe = await probeOpened(source, signal);
  const stamp = statStamp(source.stat);
  const dest = mp4PathFor(job.file);
  const destName = basename(dest);

  const placed = await stat(folder.at(destName)).catch(() => null);
  if (placed) {
    const taken = new AppError('conflict', `${dest} already exists; not overwritten`);
    // The source itself is no earlier output: the caller would remove it as the original.
    if (!job.adoptExisting || (placed.dev === source.stat.dev && placed.ino === source.stat.ino)) throw taken;
    const plan = transcodePlan(probe, { encoder: job.encoder, src: job.file, tmp: dest });
    const existing = await probeFile(dest, { folder, ...signal }).catch(() => null);
    if (!existing || verifyOutput(expectation(probe, plan), existing).length > 0) throw taken;
    return { output: dest, command: [], encoder: plan.encoder, dropped: plan.dropped, source: stamp, before: snapshot(probe), after: snapshot(existing) };
  }

  const ticket = await job.journal.begin(dest, 'transcode', job.jobId);
  const temp = basename(ticket.temp);
  try {
    const run = async (plan: TranscodePlan) => {
      const onLine = job.onProgress && progressReader(probe.duration_seconds, (p) => job.onProgress!({ ...p, encoder: plan.encoder }));
      const output = { path: ticket.temp, folder };
      await runWith(
        plan.argv,
        { input: source, output },
        { timeoutMs: transcodeTimeoutMs(probe, plan), ...signal, ...(onLine ? { onStdoutLine: onLine } : {}) },
      );
      await setDefaultTracks(folder, temp, plan);
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
      await rm(folder.at(temp), { force: true });
      plan = await run(transcodePlan(probe, { encoder: 'libx264', src: job.file, tmp: ticket.temp }));
    }
    const { probe: made, stat: verified } = await probeFileAndStat(ticket.temp, { folder, as: dest, ...signal });
    const problems = verifyOutput(expectation(probe, plan), made);
    if (problems.length > 0) throw new Error(`the transcoded file failed verification: ${problems.join('; ')}`);
    job.signal?.throwIfAborted();
    await placeVerified(folder.at(temp), folder.at(destName), verified);
    return { output: dest, command: plan.argv, encoder: plan.encoder, dropped: plan.dropped, source: stamp, before: snapshot(probe), after: snapshot(made) };
  } finally {
    await rm(folder.at(temp), { force: true });
    await ticket.end();
  }
}
