// The file types `library.video_extensions` and `library.subtitle_extensions` may name when set at run
// time. The scanner moves every file of a listed type out of the downloads, so a list that took any
// extension would let a stolen session have it place `.pth`, `.so` or `.desktop` files (code that
// other programs load) into the library. The TOML file may list others: its owner wrote it.
import { KNOWN_SUBTITLE_EXTENSIONS, KNOWN_VIDEO_EXTENSIONS } from '@mo/shared';

export type ExtensionList = 'video_extensions' | 'subtitle_extensions';

const TABLES: Record<ExtensionList, { known: ReadonlySet<string>; what: string }> = {
  video_extensions: { known: KNOWN_VIDEO_EXTENSIONS, what: 'video' },
  subtitle_extensions: { known: KNOWN_SUBTITLE_EXTENSIONS, what: 'subtitle' },
};

export interface ExtensionProblem {
  index: number;
  message: string;
}

/**
 * The first entry of a runtime list that is neither a known type of its kind nor one the TOML file's
 * own list for that key already names; null when every entry is allowed. `.nfo` is never listed:
 * the scanner and the library read it as metadata, which a listing would override.
 */
export function extensionProblem(list: ExtensionList, extensions: readonly string[], fileList: readonly string[]): ExtensionProblem | null {
  const { known, what } = TABLES[list];
  for (const [index, ext] of extensions.entries()) {
    if (ext === '.nfo') return { index, message: '.nfo is always read as metadata and cannot be listed' };
    if (!known.has(ext) && !fileList.includes(ext)) {
      return { index, message: `${ext} is not a known ${what} type (known: ${[...known].join(' ')})` };
    }
  }
  return null;
}
