// S01E02 and its kin: s1e2, S01 E02, S01.E02, S01Ep02, [S01] [E02], S012E01, S2016E01, and the
// multi-episode forms S01E02E03, S01E02-E03, S01E02-03, S01E02-S01E03, S01E02and03, S01E02&3&4,
// S01E21.22. Also S01.07 (season, then a two-digit episode), S0615 and SO2E04.
import { isYear } from '../title.ts';
import { badRange, marker, MAX_SPAN, range, sortedUnique, type Form, type Marker } from './marker.ts';

// `Sn4 Ep14`, `S01EP(01-09)`, `S01xE03`, Spanish and Portuguese `T02E22`, `DieS01E06` glued to a
// title in camel case, and `SO2E04` with the letter O typed for the zero.
const RE_SXE =
  /(?:(?<![\p{L}\p{N}])(?:sn?o?|t(?=\d\d))|(?<=\p{Ll})S(?=\d\d[Ee]\d))(\d{1,4})(?:[ ._-]{0,3}|\]\s*\[|x)(?:e|ep|eps|episode)[ ._(]?(\d{1,5})(?:v\d)?(?!\d)/iu;
// [S 1 - Ep 002], (S4-24), [S2-07]
const RE_BRACKETED = /[[(]s ?(\d{1,2})(?:[ ._-]+ep? ?|-)(\d{1,3})[\])]/i;
// S0615: season and episode run together; 01e02, 01E06 without the S.
const RE_GLUED = /(?<![\p{L}\p{N}])(?:s(\d{2})(\d{2})|(\d{1,2})e(\d{2,3}))(?![\p{L}\p{N}])/iu;
// S01.07, s02.09: a season, then a two-digit episode and nothing more.
const RE_SEASON_DOT = /(?<![\p{L}\p{N}])s(\d{1,2})[ .](\d{2})(?=[ ._-]|$)/iu;

// What may follow the first episode: more `E` numbers, with or without a repeated season.
const RE_MORE = /([ ._]*)(-|to|and|&|\+|à)?([ ._]*)(?:s(\d{1,4})[ ._]?)?e(p[ ._]?)?(\d{1,5})(?!\d)/iy;
const RE_RANGE = /(?:-|[ ._]?to[ ._]?)(\d{1,5})(?![\p{L}\p{N}!])/iuy;
const RE_LIST = /(?:and|&|\+)(\d{1,5})(?!\d)/iy;
const RE_NEXT = /\.(\d{2})(?=[ ._-]|$)/y;
// Absolute numbers beside an S01E02 (anime): "S02E03 - 012", "s16e03-05 313-315".
const RE_ABS_AFTER = /[ ._]*(?:-[ ._]*)?(\d{3})(?:-(\d{3}))?(?=[ ._-]|$)/y;
const RE_ABS_BEFORE = /[ ._]-[ ._](\d{3})(?:-(\d{3}))?[ ._]*-?[ ._]*$/;
// "165.Naruto Shippuuden.s08e014", "165-166.07-GHOST.s08e014-015": a count before the title. A
// lone number dotted to a dotted title stays the title's ("100.Code.S01E01").
const RE_ABS_LEADING = /^(\d{3})(?:-(\d{3}))?\.(?=[\p{L}\p{N}])/u;

const RE_HINT_S = /[st]n? ?\d/i;
const RE_HINT_E = /\de\d/i;

function absoluteRange(from: string, to: string | undefined): number[] {
  const a = Number(from);
  const b = to === undefined ? a : Number(to);
  return b >= a && b - a <= MAX_SPAN ? range(a, b) : [a];
}

function episodesAfter(s: string, season: number, first: number, from: number): { episodes: number[]; end: number; conflict: string | null } {
  const eps = [first];
  let pos = from;
  for (;;) {
    const last = eps[eps.length - 1]!;
    RE_MORE.lastIndex = pos;
    const more = RE_MORE.exec(s);
    const connector = more?.[2]?.toLowerCase() ?? '';
    // "S05E53 - Ep.129": after a spaced dash, an "Ep" number is another count (absolute), not a range.
    const spacedEp = more !== null && connector === '-' && (more[1] !== '' || more[3] !== '') && more[5] !== undefined && more[4] === undefined;
    if (more && !spacedEp) {
      if (more[4] !== undefined && Number(more[4]) !== season) {
        return { episodes: eps, end: pos, conflict: 'episodes of two seasons' };
      }
      const n = Number(more[6]);
      if (connector === '-' || connector === 'to' || connector === 'à') {
        const bad = badRange(last, n);
        if (bad !== null) return { episodes: eps, end: pos, conflict: bad };
        eps.push(...range(last + 1, n));
      } else if (n !== last) eps.push(n);
      else break;
      pos = RE_MORE.lastIndex;
      continue;
    }
    RE_RANGE.lastIndex = pos;
    const r = RE_RANGE.exec(s);
    // "S01E05-2024": a year after the dash is the air year, not the end of a range.
    if (r && !(r[1]!.length === 4 && isYear(Number(r[1])))) {
      const bad = badRange(last, Number(r[1]));
      if (bad !== null) return { episodes: eps, end: pos, conflict: bad };
      eps.push(...range(last + 1, Number(r[1])));
      pos = RE_RANGE.lastIndex;
      continue;
    }
    RE_LIST.lastIndex = pos;
    const l = RE_LIST.exec(s);
    if (l && Number(l[1]) > last) {
      eps.push(Number(l[1]));
      pos = RE_LIST.lastIndex;
      continue;
    }
    RE_NEXT.lastIndex = pos;
    const next = RE_NEXT.exec(s);
    if (next && Number(next[1]) === last + 1) {
      eps.push(last + 1);
      pos = RE_NEXT.lastIndex;
      continue;
    }
    break;
  }
  return { episodes: sortedUnique(eps), end: pos, conflict: null };
}

export function withAbsolute(s: string, m: Marker): Marker {
  RE_ABS_AFTER.lastIndex = m.end;
  const after = RE_ABS_AFTER.exec(s);
  if (after) return { ...m, absolute: absoluteRange(after[1]!, after[2]), end: RE_ABS_AFTER.lastIndex };
  const title = s.slice(0, m.start);
  const before = RE_ABS_BEFORE.exec(title);
  if (before && before.index > 0) return { ...m, absolute: absoluteRange(before[1]!, before[2]), start: before.index };
  const leading = RE_ABS_LEADING.exec(title);
  if (leading && (leading[2] !== undefined || / /.test(title))) {
    return { ...m, absolute: absoluteRange(leading[1]!, leading[2]), titleStart: leading[0].length };
  }
  return m;
}

export const sxxeyy: Form = {
  name: 'SxxEyy',
  // Two expressions: as one alternation V8 tries both at every position, a third slower.
  hint: { test: (s: string) => RE_HINT_S.test(s) || RE_HINT_E.test(s) },
  find(s) {
    const m = RE_SXE.exec(s);
    if (m) {
      const season = Number(m[1]);
      const { episodes, end, conflict } = episodesAfter(s, season, Number(m[2]), m.index + m[0].length);
      return withAbsolute(s, marker('episode', m.index, end, { season, episodes, conflict, year: season >= 1000 && isYear(season) ? season : null }));
    }
    const b = RE_BRACKETED.exec(s);
    if (b) {
      // "Show 87 (S4-24)", "Show - 07 [S2-07]": the number before the bracket counts from the first season.
      const before = /[ ._]+(?:-[ ._]+)?(\d{2,4})[ ._]*$/.exec(s.slice(0, b.index));
      const found = marker('episode', b.index, b.index + b[0].length, { season: Number(b[1]), episodes: [Number(b[2])] });
      return before && before.index > 0 ? { ...found, start: before.index, absolute: [Number(before[1])] } : found;
    }
    const g = RE_GLUED.exec(s);
    if (g) {
      // `S2014`: season 20 episode 14, or the season a show numbers by its year (Sonarr's reading)?
      const conflict = g[1] !== undefined && isYear(Number(g[1] + g[2])) ? 'S and four digits that may be a season numbered by its year' : null;
      return marker('episode', g.index, g.index + g[0].length, { season: Number(g[1] ?? g[3]), episodes: [Number(g[2] ?? g[4])], conflict });
    }
    const d = RE_SEASON_DOT.exec(s);
    if (d) return marker('episode', d.index, d.index + d[0].length, { season: Number(d[1]), episodes: [Number(d[2])] });
    return null;
  },
};
