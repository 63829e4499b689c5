import type { VIDEO_ENCODERS } from '@mo/shared';
import { AppError } from '../errors.ts';
import { inputArgs, MP4_MUXER, requireDemuxer } from './containers.ts';
import { TYPE_SPECIFIER, type MediaProbe, type MediaStream } from './probe.ts';
import type { ExpectedStream } from './verify.ts';

export type VideoEncoder = (typeof VIDEO_ENCODERS)[number];

export interface DroppedStream {
  index: number;
  type: string;
  codec: string | null;
  reason: string;
}

export interface TranscodePlan {
  argv: string[];
  /** The encoder the video goes through; null when every stream is copied. */
  encoder: VideoEncoder | null;
  /** The output's streams, in order, for verification. */
  expected: ExpectedStream[];
  dropped: DroppedStream[];
}

/** What MP4 players take as is; anything else is encoded. */
const MP4_VIDEO = new Set(['h264', 'hevc']);
const MP4_AUDIO = new Set(['aac', 'ac3', 'eac3', 'mp3']);
/** Text subtitles become mov_text; image subtitles (PGS, VobSub, DVB) cannot, and are dropped. */
const TEXT_SUBTITLES = new Set(['subrip', 'srt', 'ass', 'ssa', 'webvtt', 'mov_text', 'text']);

export const VAAPI_DEVICE = '/dev/dri/renderD128';

/** The flags that encode output video stream `n` with `encoder`; the encoder test uses the very same. */
export function videoEncoderArgs(encoder: VideoEncoder, n: number): string[] {
  const v = `v:${n}`;
  switch (encoder) {
    case 'libx264':
      return [`-c:${v}`, 'libx264', `-preset:${v}`, 'medium', `-crf:${v}`, '20', `-pix_fmt:${v}`, 'yuv420p'];
    case 'h264_nvenc':
      // Constant quality: -b 0 lets -cq alone decide the rate.
      return [`-c:${v}`, 'h264_nvenc', `-preset:${v}`, 'p5', `-rc:${v}`, 'vbr', `-cq:${v}`, '23', `-b:${v}`, '0', `-pix_fmt:${v}`, 'yuv420p'];
    case 'h264_qsv':
      return [`-c:${v}`, 'h264_qsv', `-preset:${v}`, 'medium', `-global_quality:${v}`, '23', `-pix_fmt:${v}`, 'nv12'];
    case 'h264_vaapi':
      // Frames are decoded in software, then uploaded to the device -vaapi_device opened.
      return [`-filter:${v}`, 'format=nv12,hwupload', `-c:${v}`, 'h264_vaapi', `-qp:${v}`, '23'];
  }
}

function dropReason(type: string, codec: string | null): string {
  switch (type) {
    case 'attached_pic':
      return 'cover art is not carried over';
    case 'attachment':
      return 'MP4 cannot carry attachments (fonts and the like)';
    case 'data':
      return 'data streams are not carried over (chapters are, separately)';
    case 'subtitle':
      return `image subtitles (${codec ?? 'unknown codec'}) cannot be turned into MP4 text subtitles`;
    default:
      return `MP4 cannot carry a ${type} stream`;
  }
}

/**
 * The flags that give output stream `n` the source stream's language, title and default/forced
 * flags. Both are needed: left to itself ffmpeg makes the first stream of a type default when the
 * source marks none (any `-disposition` turns that off), and MP4 keeps a track's title where
 * ffprobe cannot read it, so it is also written as the handler name, which ffprobe reads.
 * Relative flags (`+default-forced`) leave the stream's other flags (commentary, hearing impaired)
 * as copied from the source.
 */
function identityArgs(s: MediaStream, n: number): string[] {
  const spec = `${TYPE_SPECIFIER[s.type]}:${n}`;
  const flags = `${s.default ? '+' : '-'}default${s.forced ? '+' : '-'}forced`;
  const args = [`-disposition:${spec}`, flags, `-metadata:s:${spec}`, `language=${s.language ?? 'und'}`];
  if (s.title !== null) args.push(`-metadata:s:${spec}`, `title=${s.title}`, `-metadata:s:${spec}`, `handler_name=${s.title}`);
  return args;
}

/** What an output stream made from `s` must be, beyond its codec. */
function identity(s: MediaStream): Pick<MediaStream, 'language' | 'title' | 'default' | 'forced'> {
  return { language: s.language, title: s.title, default: s.default, forced: s.forced };
}

/**
 * ffmpeg argv that turns `src` into an MP4 at `tmp`, copying every stream MP4 players accept
 * and encoding the rest: video with `encoder`, audio to AAC, text subtitles to mov_text.
 */
export function transcodePlan(probe: MediaProbe, opts: { encoder: VideoEncoder; src: string; tmp: string }): TranscodePlan {
  const maps: string[] = [];
  const codecs: string[] = [];
  const expected: ExpectedStream[] = [];
  const dropped: DroppedStream[] = probe.others.map((o) => ({ ...o, reason: dropReason(o.type, o.codec) }));
  const count = { video: 0, audio: 0, subtitle: 0 };
  let encoding = false;

  for (const s of probe.streams) {
    if (s.type === 'subtitle' && !TEXT_SUBTITLES.has(s.codec ?? '')) {
      dropped.push({ index: s.index, type: s.type, codec: s.codec, reason: dropReason(s.type, s.codec) });
      continue;
    }
    const n = count[s.type]++;
    maps.push('-map', `0:${s.index}`);
    if (s.type === 'video') {
      if (MP4_VIDEO.has(s.codec ?? '')) {
        codecs.push(`-c:v:${n}`, 'copy');
        // Apple players only play HEVC in MP4 under the hvc1 tag.
        if (s.codec === 'hevc') codecs.push(`-tag:v:${n}`, 'hvc1');
      } else {
        encoding = true;
        codecs.push(...videoEncoderArgs(opts.encoder, n));
      }
      expected.push({ type: 'video', codec: MP4_VIDEO.has(s.codec ?? '') ? s.codec : 'h264', width: s.width, height: s.height, ...identity(s) });
    } else if (s.type === 'audio') {
      if (MP4_AUDIO.has(s.codec ?? '')) codecs.push(`-c:a:${n}`, 'copy');
      else codecs.push(`-c:a:${n}`, 'aac', `-b:a:${n}`, (s.channels ?? 2) > 2 ? '384k' : '192k');
      expected.push({ type: 'audio', codec: MP4_AUDIO.has(s.codec ?? '') ? s.codec : 'aac', ...identity(s) });
    } else {
      codecs.push(`-c:s:${n}`, 'mov_text');
      expected.push({ type: 'subtitle', codec: 'mov_text', ...identity(s) });
    }
    codecs.push(...identityArgs(s, n));
  }
  if (maps.length === 0) throw new AppError('bad_request', `${opts.src} has no stream an MP4 can carry`);

  const device = encoding && opts.encoder === 'h264_vaapi' ? ['-vaapi_device', VAAPI_DEVICE] : [];
  const argv = [
    'ffmpeg',
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    '-progress',
    'pipe:1',
    '-n',
    ...device,
    ...inputArgs(requireDemuxer(opts.src), opts.src),
    ...maps,
    '-map_metadata',
    '0',
    '-map_chapters',
    '0',
    ...codecs,
    '-movflags',
    '+faststart',
    '-max_muxing_queue_size',
    '4096',
    '-f',
    MP4_MUXER.format,
    ...MP4_MUXER.options,
    opts.tmp,
  ];
  return { argv, encoder: encoding ? opts.encoder : null, expected, dropped: dropped.sort((a, b) => a.index - b.index) };
}
