import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../errors.ts';
import { keepInBin, type Drive } from '../recycle/recycle-bin.ts';
import { muxerFor, type Muxer } from './containers.ts';
import { withMediaInFolder, type OpenedMedia, type PinnedFolder } from './open-media.ts';
import type { MediaProbe, MediaStream } from './probe.ts';
import { probeFileAndStat, probeOpened, runWith } from './run.ts';
import { replaceVerified, statStamp } from './safe-replace.ts';
import { streamsAfter, trackCommand, type TrackRequest } from './track-command.ts';
import { sameStreams, streamIdentity, verifyOutput, type OutputExpectation } from './verify.ts';
import type { WorkJournal } from './work-journal.ts';

/** A stream copy runs at disk speed; this allows a slow disk 5 MB/s, plus start-up. */
export function remuxTimeoutMs(bytes: number): number {
  return 120_000 + Math.ceil(bytes / 5_000_000) * 1000;
}

/** The muxer for a file we may remux, or a 400 naming the extension. */
export function remuxMuxer(file: string): Muxer {
  const muxer = muxerFor(file);
  if (!muxer) throw new AppError('bad_request', `path: ${file} is in a container this service does not remux`, { key: 'path' });
  return muxer;
}

/** What the remuxed file must hold: every stream but the dropped ones, flags as requested, nothing else lost. */
function remuxExpectation(probe: MediaProbe, req: TrackRequest, muxer: Muxer): OutputExpectation {
  return {
    streams: streamsAfter(probe.streams, req, muxer).map(streamIdentity),
    attachments: probe.others.filter((o) => o.type === 'attachment').length,
    chapters: probe.chapters,
    duration_seconds: probe.duration_seconds,
  };
}

export interface TrackJob extends TrackRequest {
  /** The real path (symlinks followed) of the file to change. */
  file: string;
  /** The streams the requester saw; the job acts only on a file that still has exactly these. */
  before: MediaStream[];
}

export interface TrackOutcome {
  command: string[];
  streams: MediaStream[];
  /** False when the file already had the requested streams (a job delivered twice). */
  changed: boolean;
  /** Where the file as it was before lies in its drive's recycle bin (see TrackOptions.bin); null when it was not kept. */
  recycled_to: string | null;
}

export interface TrackOptions {
  journal: WorkJournal;
  jobId: string | null;
  signal?: AbortSignal;
  /**
   * The drives whose recycle bin keeps the file as it was (`library.recycle_bin` on), as this box
   * mounts them; absent: the old file is gone once replaced. A file on none of them (a download)
   * is replaced as without.
   */
  bin?: readonly Drive[];
}

/**
 * Sets a default track or removes one by stream-copying into a temp beside the file, verifying the
 * copy with ffprobe and renaming it over the original. The original is never written: until the
 * rename it is byte-for-byte what it was, whatever fails or dies. Everything reads the file opened
 * once, and the temp is written and renamed through its folder held open (see open-media.ts).
 */
export function applyTrackAction(job: TrackJob, opts: TrackOptions): Promise<TrackOutcome> {
  const muxer = remuxMuxer(job.file);
  return withMediaInFolder(job.file, (source, folder) => remuxOpened(job, source, folder, muxer, opts));
}

async function remuxOpened(job: TrackJob, source: OpenedMedia, folder: PinnedFolder, muxer: Muxer, opts: TrackOptions): Promise<TrackOutcome> {
  const signal = opts.signal ? { signal: opts.signal } : {};
  const stamp = statStamp(source.stat);
  const probe = await probeOpened(source, signal);
  // Checked before "unchanged", so that a set_default on the current default is a no-op, not a
  // remux; and a job delivered again after it did its work finds it done. No command ran then.
  if (sameStreams(probe.streams, streamsAfter(job.before, job, muxer), { positions: false })) {
    return { command: [], streams: probe.streams, changed: false, recycled_to: null };
  }
  if (!sameStreams(probe.streams, job.before, { positions: true })) {
    throw new AppError('conflict', `the streams of ${job.file} changed since the request; nothing was done`, { streams: probe.streams });
  }

  const ticket = await opts.journal.begin(job.file, 'remux', opts.jobId);
  const temp = basename(ticket.temp);
  try {
    const command = trackCommand(probe, job, job.file, ticket.temp, muxer);
    await runWith(command, { input: source, output: { path: ticket.temp, folder } }, { timeoutMs: remuxTimeoutMs(stamp.size), ...signal });
    const { probe: out, stat: verified } = await probeFileAndStat(ticket.temp, { folder, as: job.file, ...signal });
    const problems = verifyOutput(remuxExpectation(probe, job, muxer), out);
    if (problems.length > 0) throw new Error(`the remuxed file failed verification: ${problems.join('; ')}`);
    opts.signal?.throwIfAborted();
    let recycledTo: string | null = null;
    // Linked into the bin, not moved: the rename that follows replaces the name, and a kill in
    // between leaves the old file at its name and in the bin, nothing lost (the bin purges it).
    const keepOld = async () => {
      const item = await keepInBin({ drives: opts.bin!, file: job.file, ino: stamp.ino }).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'conflict')
          throw new AppError(
            'conflict',
            `library.recycle_bin is on and keeps the file as it was, but: ${err.message}. Turn recycle_bin off to change its tracks anyway`,
          );
        throw err;
      });
      recycledTo = item?.path ?? null;
    };
    await replaceVerified(folder.at(temp), folder.at(basename(job.file)), stamp, verified, opts.bin ? keepOld : undefined);
    return { command, streams: out.streams, changed: true, recycled_to: recycledTo };
  } finally {
    await rm(folder.at(temp), { force: true });
    await ticket.end();
  }
}
