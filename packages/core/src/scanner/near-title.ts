// A download whose title is near a library folder's without being it: `Show Name - Tem 1` beside
// `Show Name`, `the Series` beside `the Series 2`. A new folder beside a near one is how a library
// ends up with a show split over two folders, so the scanner either files the download into the
// near folder, where what is left over is a marker the parser knows (a season or part marker, a
// language, quality or edition word, a year the folder lacks), or refuses it as ambiguous, where it
// is anything else (a number, a word: `Show Name 2` may well be another show).
import { isStrongJunkToken } from '../parse/vocabulary.ts';
import { isYear } from '../parse/title.ts';

export interface Nearness {
  /** The words of the longer title outside the shorter one, in order. */
  leftover: string[];
  /** Whether some of them stand before the shorter title (`The Real Hustle` for `Hustle`). */
  before: boolean;
  /** Which title has them: the download's (`Show Name Tem 1` for `Show Name`) or the folder's. */
  longer: 'name' | 'folder';
}

/** `needle` as a run of whole words inside `hay`, or -1. */
function runAt(hay: readonly string[], needle: readonly string[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Whether two title keys (library/title-match.ts `titleKey`, already normalised) are near: one is a
 * run of whole words of the other. Equal keys are not near (they match), and a one-letter title is
 * near nothing, so that `A` does not reach every title with an article in it.
 */
export function nearness(nameKey: string, folderKey: string): Nearness | null {
  if (nameKey === folderKey || nameKey === '' || folderKey === '') return null;
  const a = nameKey.split(' ');
  const b = folderKey.split(' ');
  const [long, short, longer] = a.length > b.length ? [a, b, 'name' as const] : [b, a, 'folder' as const];
  if (long.length === short.length || short.join('').length < 2) return null;
  const at = runAt(long, short);
  if (at < 0) return null;
  return { leftover: [...long.slice(0, at), ...long.slice(at + short.length)], before: at > 0, longer };
}

const SEASON_WORD = /^(?:s|season|series|saison|staffel|temporada|tem|temp|stagione|seizoen|sezon|sezona|kausi)$/;
const PART_WORD = /^(?:part|pt)$/;
const ORDINAL_SEASON = /^(\d{1,2})(?:st|nd|rd|th)$/;

/**
 * The season a leftover names (`tem 1`, `season 2`, `s2`, `2nd season`), `undefined` for a part
 * marker (`part 2`), or null when the leftover is no such marker.
 */
function seasonMarker(words: readonly string[]): number | null | undefined {
  if (words.length === 1) {
    const glued = /^s(\d{1,2})$/.exec(words[0]!);
    return glued ? Number(glued[1]) : null;
  }
  if (words.length !== 2 || (!/^\d{1,2}$/.test(words[1]!) && !ORDINAL_SEASON.test(words[0]!))) return null;
  if (SEASON_WORD.test(words[0]!)) return Number(words[1]);
  if (PART_WORD.test(words[0]!)) return undefined;
  const ordinal = ORDINAL_SEASON.exec(words[0]!);
  return ordinal && words[1] === 'season' ? Number(ordinal[1]) : null;
}

/**
 * Whether what is left over is a marker the parser knows, and agrees with the download's season:
 * then the near folder is the download's show. Only after the folder's title (words before it the
 * parser took for the title: `The Real Hustle` is no `Hustle`), and only words that never name
 * anything (`1080p`, `x264`, not `Real`, `Final`, `English` or `Ultimate`, which title shows too);
 * a year counts where the folder lacks one.
 */
export function leftoverIsMarker(n: Nearness, season: number | null, folderYear: number | null): boolean {
  if (n.longer !== 'name' || n.before || n.leftover.length === 0) return false;
  const rest = n.leftover.filter((w) => !isStrongJunkToken(w) && !(folderYear === null && /^\d{4}$/.test(w) && isYear(Number(w))));
  if (rest.length === 0) return true;
  const marked = seasonMarker(rest);
  if (marked === undefined) return true;
  return marked !== null && (season === null || season === marked);
}
