import { z } from 'zod';
import type { streamSchema } from '@mo/shared';
import { inputArgs, type Demuxer } from './containers.ts';

export type MediaStream = z.infer<typeof streamSchema>;
export type StreamType = MediaStream['type'];

/** ffmpeg's stream specifier for each type: `-c:a:1` is the second audio stream of the output. */
export const TYPE_SPECIFIER = { video: 'v', audio: 'a', subtitle: 's' } as const satisfies Record<StreamType, string>;

/** A stream the contract does not list (attachment, data, cover art…); kept so remuxes can check they survive. */
export interface OtherStream {
  index: number;
  type: string;
  codec: string | null;
}

export interface MediaProbe {
  /** ffprobe's format name, e.g. "matroska,webm". */
  container: string | null;
  duration_seconds: number | null;
  size_bytes: number;
  streams: MediaStream[];
  others: OtherStream[];
  chapters: number;
}

// Only the parts of ffprobe's JSON we read; everything else passes through unvalidated.
const flag = z.union([z.number(), z.boolean()]).optional();
const ffprobeJson = z.object({
  streams: z
    .array(
      z.object({
        index: z.number().int(),
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        channels: z.number().int().optional(),
        width: z.number().int().optional(),
        height: z.number().int().optional(),
        disposition: z.object({ default: flag, forced: flag, attached_pic: flag }).partial().optional(),
        tags: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .default([]),
  chapters: z.array(z.unknown()).default([]),
  format: z.object({ format_name: z.string().optional(), duration: z.string().optional(), size: z.string().optional() }).optional(),
});

/** ffprobe argv for everything normaliseProbe reads, reading `file` with `demuxer` only. */
export function probeCommand(file: string, demuxer: Demuxer): string[] {
  return ['ffprobe', '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-show_chapters', ...inputArgs(demuxer, file)];
}

// Matroska tags keep the muxer's case ("LANGUAGE", "Title"); ffprobe does not fold them all.
function tag(tags: Record<string, unknown> | undefined, name: string): string | null {
  if (!tags) return null;
  for (const [k, v] of Object.entries(tags)) {
    if (k.toLowerCase() === name && typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
}

/**
 * The names muxers give an MP4 track's handler when nobody named the track ("SoundHandler",
 * "GPAC ISO Video Handler", Apple's "Core Media Audio"); any other handler name is a title.
 */
const GENERIC_HANDLER = /handler$|^core media /i;

/**
 * A stream's title. MP4 keeps titles in a box ffprobe does not read, so a title written there is
 * read back from the handler name, which transcodes write too.
 */
function title(tags: Record<string, unknown> | undefined, container: string | undefined): string | null {
  const titled = tag(tags, 'title');
  if (titled !== null || !(container ?? '').split(',').includes('mp4')) return titled;
  const handler = tag(tags, 'handler_name');
  return handler !== null && !GENERIC_HANDLER.test(handler) ? handler : null;
}

function seconds(raw: string | undefined): number | null {
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

const CONTRACT_TYPES = new Set<string>(['video', 'audio', 'subtitle']);

/** ffprobe's JSON → the contract's stream list, plus what verification needs. */
export function normaliseProbe(json: unknown): MediaProbe {
  const data = ffprobeJson.parse(json);
  const streams: MediaStream[] = [];
  const others: OtherStream[] = [];
  for (const s of data.streams) {
    const type = s.codec_type ?? 'unknown';
    const codec = s.codec_name ?? null;
    // Cover art is a one-frame "video" stream; it is not a track anyone plays.
    if (!CONTRACT_TYPES.has(type) || s.disposition?.attached_pic) {
      others.push({ index: s.index, type: s.disposition?.attached_pic ? 'attached_pic' : type, codec });
      continue;
    }
    const language = tag(s.tags, 'language');
    streams.push({
      index: s.index,
      type: type as StreamType,
      codec,
      // "und" is ffprobe's way of saying there is no language.
      language: language === 'und' ? null : language,
      title: title(s.tags, data.format?.format_name),
      default: Boolean(s.disposition?.default),
      forced: Boolean(s.disposition?.forced),
      channels: type === 'audio' ? (s.channels ?? null) : null,
      width: type === 'video' ? (s.width ?? null) : null,
      height: type === 'video' ? (s.height ?? null) : null,
    });
  }
  return {
    container: data.format?.format_name ?? null,
    duration_seconds: seconds(data.format?.duration),
    size_bytes: seconds(data.format?.size) ?? 0,
    streams,
    others,
    chapters: data.chapters.length,
  };
}
