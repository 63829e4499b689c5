import { extname } from 'node:path';
import type { VideoExtension } from '@mo/shared';
import { AppError } from '../errors.ts';

/**
 * How a container keeps default-track flags: as given (Matroska), as given but with the first
 * track of a type made default when none is (MP4's "enabled" flag), or not at all (AVI, TS…).
 */
export type DefaultFlags = 'stored' | 'first-if-none' | 'none';

export interface Muxer {
  /** ffmpeg's `-f` name: temp files end in `.part`, so ffmpeg cannot guess it from the name. */
  format: string;
  options: string[];
  defaults: DefaultFlags;
  /**
   * MP4-family files hold chapters as a text "data" track, which `-map_chapters` writes again;
   * copying the old one too would leave two.
   */
  chaptersAsTrack: boolean;
}

const mp4: Muxer = { format: 'mp4', options: [], defaults: 'first-if-none', chaptersAsTrack: true };

// ffmpeg's table-driven CRC-32 over every cluster costs more CPU than the rest of a remux put
// together (0.75 s per GB here). The elements are optional, players ignore them, mkvmerge does
// not write them either, and our check of an output is ffprobe's, not theirs.
const NO_CRC = ['-write_crc32', '0'];

// Keyed by the known video types, so a container read or written here is one the scanner knows.
const MUXERS: Partial<Record<VideoExtension, Muxer>> = {
  '.mkv': { format: 'matroska', options: NO_CRC, defaults: 'stored', chaptersAsTrack: false },
  '.webm': { format: 'webm', options: NO_CRC, defaults: 'stored', chaptersAsTrack: false },
  '.mp4': mp4,
  '.m4v': mp4,
  '.mov': { format: 'mov', options: [], defaults: 'first-if-none', chaptersAsTrack: true },
  '.avi': { format: 'avi', options: [], defaults: 'none', chaptersAsTrack: false },
  '.ts': { format: 'mpegts', options: [], defaults: 'none', chaptersAsTrack: false },
  // ffmpeg switches to 192-byte packets only when the name ends in .m2ts; ours ends in .part.
  '.m2ts': { format: 'mpegts', options: ['-mpegts_m2ts_mode', '1'], defaults: 'none', chaptersAsTrack: false },
  '.wmv': { format: 'asf', options: [], defaults: 'none', chaptersAsTrack: false },
  '.mpg': { format: 'mpeg', options: [], defaults: 'none', chaptersAsTrack: false },
  '.mpeg': { format: 'mpeg', options: [], defaults: 'none', chaptersAsTrack: false },
  '.flv': { format: 'flv', options: [], defaults: 'none', chaptersAsTrack: false },
};

function byExtension<T>(table: Partial<Record<VideoExtension, T>>, file: string): T | null {
  const ext = extname(file).toLowerCase();
  return Object.hasOwn(table, ext) ? table[ext as VideoExtension]! : null;
}

/** The muxer that writes a file like `file` again, or null for an extension we do not remux. */
export function muxerFor(file: string): Muxer | null {
  return byExtension(MUXERS, file);
}

export const MP4_MUXER = mp4;

/**
 * How ffmpeg reads a file: always one named demuxer, never its probing. Probing picks the
 * demuxer from the content, so a `.mkv` that is an HLS playlist or an ffconcat list would be
 * read as one and open the files it lists.
 */
export interface Demuxer {
  /** ffmpeg's `-f` name, also the only format the input may be opened as. */
  format: string;
  /** The demuxer's own options that keep it to the one file. */
  options: string[];
}

const demuxer = (format: string, options: string[] = []): Demuxer => ({ format, options });
const matroska = demuxer('matroska');
// Both are off by default; named so that a build that changes its defaults still reads no other file.
const mov = demuxer('mov', ['-enable_drefs', '0', '-use_absolute_path', '0']);
const avi = demuxer('avi');
const mpegts = demuxer('mpegts');
const asf = demuxer('asf');
const mpegPs = demuxer('mpeg');
const ogg = demuxer('ogg');
const rm = demuxer('rm');

/**
 * The video extensions this service reads, each with a demuxer that opens no other file. An
 * extension missing here (`.iso`, `.strm`, which is a text file naming a URL) is not read at all.
 */
const DEMUXERS: Partial<Record<VideoExtension, Demuxer>> = {
  '.mkv': matroska,
  '.mk3d': matroska,
  '.webm': matroska,
  '.mp4': mov,
  '.m4v': mov,
  '.mov': mov,
  '.3gp': mov,
  '.f4v': mov,
  '.avi': avi,
  '.divx': avi,
  '.xvid': avi,
  '.ts': mpegts,
  '.m2ts': mpegts,
  '.mts': mpegts,
  '.wmv': asf,
  '.asf': asf,
  '.mpg': mpegPs,
  '.mpeg': mpegPs,
  '.vob': mpegPs,
  '.flv': demuxer('flv'),
  '.ogm': ogg,
  '.ogv': ogg,
  '.rm': rm,
  '.rmvb': rm,
};

/** The demuxer that reads a file named like `file`, or null for an extension we do not read. */
export function demuxerFor(file: string): Demuxer | null {
  return byExtension(DEMUXERS, file);
}

/** The demuxer for `file`, or a 400 naming its extension. */
export function requireDemuxer(file: string): Demuxer {
  const found = demuxerFor(file);
  if (!found) {
    throw new AppError('bad_request', `path: ${file}: ${extname(file) || 'a name without an extension'} is not a container this service reads`, {
      key: 'path',
    });
  }
  return found;
}

/**
 * ffmpeg/ffprobe arguments that read `url` with `demuxer` and nothing else: the file protocol
 * only (no http, no concat:, no subfile), and no other demuxer even for a nested open.
 */
export function inputArgs(demuxer: Demuxer, url: string): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', demuxer.format, '-f', demuxer.format, ...demuxer.options, '-i', url];
}
