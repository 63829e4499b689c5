// A movie: its title, then its year. When a title holds a number that reads as a year
// ("Blade.Runner.2049.2017", "2001.A.Space.Odyssey.1968"), the year is the one in brackets, else
// the last one before the release words. A range of years ("(1978-2022)") is a collection.
import { isYear } from '../title.ts';
import { firstJunk } from '../vocabulary.ts';
import { marker, type Form } from './marker.ts';

const RE_YEAR = /(?<![\p{L}\p{N}])([([]?)((?:19|20)\d{2})[)\]]?(?![\p{L}\p{N}])/gu;
const RE_YEAR_RANGE = /(?<![\p{N}])(?:19|20)\d{2}[ ._]*-[ ._]*(?:19|20)\d{2}(?![\p{N}])/u;

export const movieYear: Form = {
  name: 'movie year',
  hint: /(?:19|20)\d\d/,
  find(s) {
    const candidates: { index: number; end: number; year: number; bracketed: boolean }[] = [];
    for (const m of s.matchAll(RE_YEAR)) {
      const year = Number(m[2]);
      if (!isYear(year) || m.index === 0) continue;
      candidates.push({ index: m.index, end: m.index + m[0].length, year, bracketed: m[1] !== '' });
    }
    // A range with no year after it: "Let.It.Fall.Los.Angeles.1982-1992.2017" is one film about a decade.
    const range = RE_YEAR_RANGE.exec(s);
    const after = range ? candidates.filter((c) => c.index > range.index + range[0].length) : [];
    if (range && after.length === 0) {
      return marker('movie', range.index, range.index, { conflict: 'a range of years: a collection, not one movie' });
    }
    if (candidates.length === 0) return null;
    let pick = candidates.length === 1 ? candidates[0] : candidates.find((c) => c.bracketed);
    if (pick === undefined) {
      const junk = firstJunk(s);
      for (const c of candidates) if (junk < 0 || c.index < junk) pick = c;
      pick ??= candidates[0]!;
    }
    // "Rustlers on Horseback (Western 1950)": the title ends where the year's bracket opens.
    const open = s.lastIndexOf('(', pick.index);
    const start = !pick.bracketed && open > 0 && !s.slice(open, pick.index).includes(')') ? open : pick.index;
    return marker('movie', start, pick.end, { year: pick.year });
  },
};
