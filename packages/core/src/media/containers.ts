import { extname } from 'node:path';

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

const MUXERS: Record<string, Muxer> = {
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

/** The muxer that writes a file like `file` again, or null for an extension we do not remux. */
export function muxerFor(file: string): Muxer | null {
  return MUXERS[extname(file).toLowerCase()] ?? null;
}

export const MP4_MUXER = mp4;
