import { boundedName } from '../parse/name-bound.ts';

// Extras beside a movie or an episode: trailers, featurettes, deleted scenes, samples, … They lie
// in the library but are not the movie or episode itself. The rules are Jellyfin's (Emby.Naming
// ExtraRules, jellyfin.org "Movies" / "TV Shows"), which take Plex's local-extras names: a folder of
// a known name, a file named just `trailer` or `sample`, or a known suffix. A title that merely
// contains such a word (`Trailer Park Boys`, `The Other Guys`, `Scenes from a Marriage`) is none.

/** Extras folders, compared case-insensitively: Jellyfin's and Plex's names, singular or plural. */
const EXTRAS_FOLDERS = new Set([
  'extras',
  'extra',
  'behind the scenes',
  'deleted scenes',
  'deleted scene',
  'featurettes',
  'featurette',
  'interviews',
  'interview',
  'scenes',
  'scene',
  'shorts',
  'short',
  'trailers',
  'trailer',
  'clips',
  'clip',
  'other',
  'others',
  'samples',
  'sample',
  'backdrops',
  'theme-music',
  'bonus',
]);

/**
 * File-name suffixes, checked once trailing digits are gone (`-trailer2`). `trailer` and `sample`
 * may follow any separator; the other words only a dash, so `The Other` or `A Short` stay titles.
 */
const EXTRAS_SUFFIXES = [
  '-trailer',
  '.trailer',
  '_trailer',
  ' trailer',
  '-sample',
  '.sample',
  '_sample',
  ' sample',
  '-scene',
  '-clip',
  '-interview',
  '-behindthescenes',
  '-deleted',
  '-deletedscene',
  '-featurette',
  '-short',
  '-other',
  '-extra',
];
/** A file named only this (and maybe a number: `Trailer 2`). */
const EXTRAS_NAMES = /^(?:trailer|sample)(?:[\s._-]*\d+)?$/i;
/** Scene samples name the word first: `sample-group-title.mkv`. */
const SAMPLE_PREFIX = /^sample[-._]/i;
const TRAILING_DIGITS = /\d+$/;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

export function isExtrasFolder(name: string): boolean {
  return EXTRAS_FOLDERS.has(name.toLowerCase());
}

/**
 * Whether a video's name (without its extension) marks it as an extra. `title` is the movie's or
 * series' title from its folder: a file named exactly that is the main video (`Free Sample/Free
 * Sample.mkv`), whatever word it ends in.
 */
export function isExtraFile(base: string, title: string | null): boolean {
  const lower = boundedName(base).toLowerCase();
  const trimmed = lower.replace(TRAILING_DIGITS, '');
  const extra = EXTRAS_NAMES.test(lower) || SAMPLE_PREFIX.test(lower) || EXTRAS_SUFFIXES.some((s) => trimmed.endsWith(s));
  return extra && (title === null || lower.replace(NOT_ALNUM, '') !== boundedName(title).toLowerCase().replace(NOT_ALNUM, ''));
}
