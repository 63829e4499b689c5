import { AppError } from '../errors.ts';
import { inputArgs, requireDemuxer, type Muxer } from './containers.ts';
import { TYPE_SPECIFIER, type MediaProbe, type MediaStream } from './probe.ts';

export type TrackAction = 'set_default' | 'remove';

export interface TrackRequest {
  action: TrackAction;
  /** ffprobe's stream index. */
  stream: number;
}

/** The stream a request names; only audio and subtitle tracks may be changed. */
export function trackTarget(streams: readonly MediaStream[], stream: number): MediaStream {
  const target = streams.find((s) => s.index === stream);
  if (!target) {
    throw new AppError('bad_request', `stream: the file has no audio or subtitle stream ${stream}`, {
      key: 'stream',
      streams: streams.map((s) => ({ index: s.index, type: s.type })),
    });
  }
  if (target.type !== 'audio' && target.type !== 'subtitle') {
    throw new AppError('bad_request', `stream: stream ${stream} is ${target.type}, not an audio or subtitle stream`, { key: 'stream' });
  }
  return target;
}

/** The request's stream, checked against the file's streams and what its container can store. */
export function checkTrackRequest(streams: readonly MediaStream[], req: TrackRequest, muxer: Muxer): MediaStream {
  const target = trackTarget(streams, req.stream);
  if (req.action === 'set_default' && muxer.defaults === 'none') {
    throw new AppError('bad_request', `action: a ${muxer.format} file cannot mark a default track`, { key: 'action' });
  }
  return target;
}

/**
 * The streams the file should have after the action, in order. Indexes are the input's: the
 * output's numbering also depends on dropped non-contract streams, so callers compare without them.
 */
export function streamsAfter(before: readonly MediaStream[], req: TrackRequest, muxer: Muxer): MediaStream[] {
  const target = checkTrackRequest(before, req, muxer);
  const after =
    req.action === 'remove'
      ? before.filter((s) => s.index !== req.stream)
      : before.map((s) => (s.type === target.type ? { ...s, default: s.index === req.stream } : s));
  if (muxer.defaults !== 'first-if-none') return after;
  // MP4 enables the first track of a type that has no enabled one, and players read that as default.
  const firstOfType = new Map<string, number>();
  for (const s of after) if (!firstOfType.has(s.type)) firstOfType.set(s.type, s.index);
  const typesWithDefault = new Set(after.filter((s) => s.default).map((s) => s.type));
  return after.map((s) => (!typesWithDefault.has(s.type) && firstOfType.get(s.type) === s.index ? { ...s, default: true } : s));
}

/** Input stream indexes the remux leaves out: the removed track, and an MP4 chapter track that -map_chapters rewrites. */
export function droppedIndexes(probe: Pick<MediaProbe, 'others'>, req: TrackRequest, muxer: Muxer): number[] {
  const chapterTracks = muxer.chaptersAsTrack ? probe.others.filter((o) => o.type === 'data').map((o) => o.index) : [];
  const removed = req.action === 'remove' ? [req.stream] : [];
  return [...removed, ...chapterTracks].sort((a, b) => a - b);
}

/**
 * ffmpeg argv that stream-copies `src` into `tmp` with one track removed or made the default of
 * its type. Everything else (other streams with their tags and flags, chapters, attachments,
 * global metadata) is mapped through unchanged.
 */
export function trackCommand(probe: Pick<MediaProbe, 'streams' | 'others'>, req: TrackRequest, src: string, tmp: string, muxer: Muxer): string[] {
  const target = checkTrackRequest(probe.streams, req, muxer);
  const argv = ['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-n', ...inputArgs(requireDemuxer(src), src), '-map', '0'];
  for (const index of droppedIndexes(probe, req, muxer)) argv.push('-map', `-0:${index}`);
  argv.push('-map_metadata', '0', '-map_chapters', '0', '-c', 'copy');
  if (req.action === 'set_default') {
    // `-disposition:a:N` counts output streams of that type; nothing of that type is dropped here.
    const spec = TYPE_SPECIFIER[target.type];
    probe.streams
      .filter((s) => s.type === target.type)
      .forEach((s, n) => {
        if (s.index === target.index) argv.push(`-disposition:${spec}:${n}`, '+default');
        else if (s.default) argv.push(`-disposition:${spec}:${n}`, '-default');
      });
  }
  // Sparse subtitle tracks can outrun ffmpeg's small default interleaving queue on long files.
  argv.push('-max_muxing_queue_size', '4096', '-f', muxer.format, ...muxer.options, tmp);
  return argv;
}
