// Anime and other absolute numbering: "[Group] Title - 05", "Title - 1071", "Title - 01-02",
// "Title - (01-04)", "Title - 01+02", "[Group] Title-09", "[Group] Title 05 [1080p]",
// "Title 05 vostfr [1080p]", "Title.10.720p", "Title 13-15 [BD]", "Title 104-105". A number ending the title stays
// the title's ("White Album 2 - 06" is the show "White Album 2"); "Title S2 - 05" is the season
// pack form's.
import { isYear } from '../title.ts';
import { firstJunk, isJunkToken, isReleaseToken, onlyJunk } from '../vocabulary.ts';
import { lastWords, marker, MAX_SPAN, range, sortedUnique, type Form, type Marker } from './marker.ts';

const NUM = '(\\d{1,4})(?:[ .]?[vV]\\d)?';
// More numbers: "-02", " ~ 12", "+02", "&03"; never one followed by words ("116 - 360 Degrees of Vision").
const MORE = '((?:[ .]*(?:[-~+&]|and)[ .]*\\(?\\d{1,4}(?:[vV]\\d)?\\)?(?![\\s.]*\\p{L}))*)';
// " - 05", ".-.05", " - (01-04)"
const RE_DASH = new RegExp(`(?:^|[\\s.])-[\\s.]+\\(?${NUM}\\)?${MORE}(?=$|[\\s.\\[(_])(?![.,]\\d)`, 'u');
// "Title-09" glued to the title, only in fansub names or before release words.
const RE_GLUED = new RegExp(`(?<=[\\p{L})!])-${NUM}${MORE}(?=$|[\\s.\\[(_])(?![.,]\\d)`, 'u');
// A number standing alone before a bracket or the end, or in round brackets ("Angel Beats (9)"); not `No.6`, `Vol.3`.
const RE_BARE = new RegExp(`(?<=[\\s.])(?<![Nn]o\\.|[Vv]ol\\.)\\(?${NUM}${MORE}\\)?(?=[\\s.]*(?:$|[\\[(]))`, 'u');
// "Title 104-105", "Title 001-003": a range of three-digit numbers ending a spaced name is a batch of
// episodes; a two-digit one ("Title 03-20") may also be a season and an episode.
const RE_WIDE_RANGE = /(?<= )(\d{3})(-\d{3})(?= *(?:$|[[(]))/;
const RE_NUMBER_TOKEN = /(?<=[\s.])(?<![Nn]o\.|[Vv]ol\.)(\d{1,4})(?:[ .]?v\d)?((?:[ .]*[-~+&][ .]*\d{1,4})*)(?=[\s.]|$)/gu;
// "Title HD 09", "Title 720p 09": a number after the release words ends the name.
const RE_END_NUMBER = /[\s.](\d{2,3})()$/u;
const RE_ENDS_WITH_NUMBER = /(?:^|[\s.])\d{1,4}(?:v\d)?[\s.]*$/i;
// A number after these words is theirs: "Season 3", "Part 2", "Vol 4".
const COUNTING_WORDS = new Set('s season series saison staffel temporada temp stagione part pt vol volume no chapter episode ep cd disc disk'.split(' '));
// Old scene numbers (`.311.`, `.0105.`) are the scene-number form's.
const RE_SCENE_NUMBER = /^(?:[1-9]\d\d|0[1-9]\d\d)$/;
const RE_ANY_YEAR = /(?:^|[^\p{L}\p{N}])(?:19|20)\d{2}(?![\p{L}\p{N}])/u;
// "One Piece Movie 9", "Tamayura Movie Part 1": a numbered film of a series, not an episode.
const MOVIE_WORDS = new Set(['movie', 'film', 'gekijouban']);

export function endsWithMovieWord(title: string): boolean {
  return MOVIE_WORDS.has(lastWords(title, 1)[0] ?? '');
}

function countedBefore(text: string): boolean {
  return COUNTING_WORDS.has(lastWords(text, 1)[0] ?? '');
}

/** "Title S2", "Title Season 2" at the end of a title. */
function endsWithSeason(title: string): boolean {
  const [a, b] = lastWords(title, 2);
  const last = b ?? a ?? '';
  return /^(?:s\d{1,2}|season\d{1,2})$/.test(last) || (b !== undefined && a === 'season' && /^\d{1,2}$/.test(b));
}
// "One_Piece_279_Chopper_Man_1": a number followed by more title words may be the episode itself.
export const RE_NUMBER_IN_TITLE = /(?:^|[\s._-])\d{2,4}[\s._]+(?!(?:[ivx]+|and|&)(?:[\s._]|$))\p{L}/iu;
// What may follow a " - 05": nothing, a bracket, another " - ", "END", or release words.
const RE_AFTER = /^(?:$|[\s._]*(?:[[(]|-[\s._]|$|(?:end|final|fin)(?![\p{L}\p{N}])))/iu;

function numbersOf(first: string, more: string | undefined): number[] | null {
  const out = [Number(first)];
  if (more) {
    for (const part of more.matchAll(/([-~+&]|and)[ .]*\(?(\d{1,4})/g)) {
      const n = Number(part[2]);
      const last = out[out.length - 1]!;
      if (part[1] === '-' || part[1] === '~') {
        if (n <= last || n - last > MAX_SPAN) return null;
        out.push(...range(last + 1, n));
      } else out.push(n);
    }
  }
  return sortedUnique(out);
}

function build(s: string, m: RegExpExecArray, start: number): Marker | null {
  const nums = numbersOf(m[1]!, m[2]);
  if (nums === null) return null;
  const title = s.slice(0, start);
  if (endsWithMovieWord(title)) return null;
  // "Nichijou_05_1080.BD", "[Grp] Title 05 1080 [BD]": a height without its `p` after the episode number.
  if (nums.length === 1 && isReleaseToken(`${m[1]}p`) && RE_ENDS_WITH_NUMBER.test(title)) {
    return marker('episode', start, start, { conflict: 'two numbers side by side, the later one may be a resolution' });
  }
  if (RE_NUMBER_IN_TITLE.test(title)) {
    return marker('episode', start, start, { conflict: 'a number inside the title that may be the episode' });
  }
  if (endsWithSeason(title)) {
    return marker('episode', start, start, { conflict: 'a season in the title, and a number that may count from the first season' });
  }
  return marker('episode', start, m.index + m[0].length, { absolute: nums, weak: true });
}

/** 4-digit numbers that read as years are years, except in the dash form of a fansub release. */
function yearLike(m: RegExpExecArray): boolean {
  return m[1]!.length === 4 && isYear(Number(m[1]));
}

function followedWell(s: string, end: number): boolean {
  const rest = s.slice(end);
  if (RE_AFTER.test(rest)) return true;
  const next = /^[\s._]*([\p{L}\p{N}-]+)/u.exec(rest);
  return next !== null && isJunkToken(next[1]!.toLowerCase());
}

/** Only sure release words end the title here: "Title (TV) - 02 [720p]", "Title HD REMASTER - 07". */
function beforeRelease(s: string, i: number): boolean {
  const release = firstJunk(s, 0, true);
  return release < 0 || i < release;
}

// Where the dash forms can match: a dash before a space, a dot, a bracket or a digit.
const RE_DASH_HINT = /-[\s.(\d]/;
const RE_DASH_DIGIT = /-\d/;

export const absolute: Form = {
  name: 'absolute number',
  hint: /\d/,
  find(s, ctx) {
    const fansub = ctx.group !== null || ctx.checksum;
    const dashed = RE_DASH_HINT.test(s);
    let m = dashed ? RE_DASH.exec(s) : null;
    if (m && m.index > 0 && beforeRelease(s, m.index) && !(yearLike(m) && !fansub) && followedWell(s, m.index + m[0].length)) {
      const start = s[m.index] === '-' ? m.index : m.index + 1;
      return build(s, m, start);
    }
    // The glued and wide-range forms need a digit right after a dash.
    const dashDigit = dashed && RE_DASH_DIGIT.test(s);
    m = dashDigit ? RE_GLUED.exec(s) : null;
    if (m && !yearLike(m) && beforeRelease(s, m.index)) {
      const end = m.index + m[0].length;
      const next = firstJunk(s, end);
      if (fansub || (next >= 0 && next <= end + 2)) return build(s, m, m.index);
    }
    m = dashDigit ? RE_WIDE_RANGE.exec(s) : null;
    if (m && beforeRelease(s, m.index)) return build(s, m, m.index);
    if (fansub) {
      m = RE_BARE.exec(s);
      if (m && beforeRelease(s, m.index) && !yearLike(m) && !countedBefore(s.slice(0, m.index))) return build(s, m, m.index);
    }
    // A number right before the first release word: "Title 05 vostfr [1080p]", "Title.10.720p";
    // not in a name with a year, where it belongs to a movie's title ("Anflug.Alpha.1.German.1971").
    const junk = RE_ANY_YEAR.test(s) ? -1 : firstJunk(s);
    if (junk > 0) {
      for (const n of s.slice(0, junk).matchAll(RE_NUMBER_TOKEN)) {
        const end = n.index + n[0].length;
        if (!/^[\s._[(]*$/.test(s.slice(end, junk)) || (RE_SCENE_NUMBER.test(n[1]!) && s[n.index - 1] === '.' && s[end] === '.')) continue;
        // "Piano no Mori 2 (TV)": a lone 2 to 9 before release words may be a season or a sequel.
        if (countedBefore(s.slice(0, n.index)) || /^[2-9]$/.test(n[1]!)) continue;
        return build(s, n, n.index);
      }
    }
    if (junk > 0) {
      m = RE_END_NUMBER.exec(s);
      if (m && m.index > junk && onlyJunk(s.slice(junk, m.index))) return { ...build(s, m, junk)!, end: s.length };
    }
    return null;
  },
};
