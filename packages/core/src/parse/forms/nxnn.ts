// 1x02 and its kin: 01x02, 1X7, 1 x 02, Castle1x01, 06х01 (Cyrillic х), [2.10], " - 6.01 - ", .02.09., the
// multi-episode forms 1x02-1x03, 1x02-x03, 1x02x03x04, 1x02.1x03, 1x02 1x03, 1x02and03, 2x01+02, 06х01-08, and
// 1xAll (the whole season).
import { firstJunk, isJunkToken } from '../vocabulary.ts';
import { badRange, marker, MAX_SPAN, range, sortedUnique, type Form } from './marker.ts';
import { withAbsolute } from './sxxeyy.ts';

// Not after a digit, nor after one digit and a dot: `1920x1080` and `5.1x2` are no episodes, `2005.8x11` is.
// "Show 1 x 02": spaced on both sides.
const RE_NX = /(?<!\d)(?<!(?:^|\D)\d\.)(\d{1,2})(?:[xх]| [xх] )(\d{1,3}(?![\dp])|all(?![a-z\d]))/i;
const RE_BRACKETED = /\[(\d{1,2})\.(\d{2,3})\]/;
const RE_DASHED = /(?<=\s-\s)(\d{1,2})\.(\d{2})(?=\s-\s|$)/;
// "Harbour.Lights.02.09.720p": a zero-padded season dotted to its episode in a dotted name; not a
// date ("2014.02.09", "02.09.2014", "02.09.14"), whose numbers have another number beside them.
const RE_DOTTED = /(?<=\p{L}\.)0([1-9])\.(\d{2})(?=$|\.)(?!\.\d+(?![\p{L}\d]))/u;
const NEXT = '(?=$|[^\\p{L}\\p{N}]|[xх]|and|&)';
const RE_MORE = new RegExp(`(?:[xх]|[ ._]*(-|\\+|and|&)[ ._]*(?:(\\d{1,2})?[xх])?|[ ._]+(\\d{1,2})[xх])(\\d{1,3})${NEXT}`, 'iuy');
// After a spaced ` - 24`, what leaves it the end of a range: the end, a bracket, a release word.
// A title word (`10x12 - 24 Hour People`) or another part (`3x09 - 107 - Title`, an absolute
// number) makes it the title's or the series' number.
const RE_AFTER_SPACED_END = /^\s*(?:$|[[(]|(\p{L}+))/u;
// "1x02-x04", "1x02-1x04", "1x02-04": the end of a range; " - 04" may be an absolute number or a title's.
const RE_RANGE_END = /^-|[xх]/i;
// "10x10.2018", "3x3 Eyes - 05": a number pair at the very start, or a spaced one, is a title's when a year or another marker follows.
const RE_LATER_NUMBER = /(?:\b(?:19|20)\d{2}\b|\s-\s\d{1,4}\b|s\d{1,2}e\d)/i;

export const nxnn: Form = {
  name: 'NxNN',
  hint: /\d[xх](?:\d|all)|\d [xх] \d|\d\.\d\d/i,
  find(s) {
    const m = RE_NX.exec(s);
    const junk = m ? firstJunk(s) : -1;
    if (m && (junk < 0 || m.index < junk)) {
      const after = m.index + m[0].length;
      // "2 x 4 (2010)", "Movie 2 x 4 (2010)": spaced, it is a title's more often than an episode's.
      if ((m.index === 0 || m[0].includes(' ')) && RE_LATER_NUMBER.test(s.slice(after))) return null;
      const season = Number(m[1]);
      if (m[2]!.toLowerCase() === 'all') return marker('season', m.index, after, { season });
      const eps = [Number(m[2])];
      let pos = after;
      let conflict: string | null = null;
      for (;;) {
        RE_MORE.lastIndex = pos;
        const more = RE_MORE.exec(s);
        if (!more) break;
        const again = more[2] ?? more[3];
        if (again !== undefined && Number(again) !== season) {
          conflict = 'episodes of two seasons';
          break;
        }
        const last = eps[eps.length - 1]!;
        const n = Number(more[4]);
        if (more[1] === '-' && more[0].includes(' -') && !/[xх]/i.test(more[0])) {
          const after = RE_AFTER_SPACED_END.exec(s.slice(RE_MORE.lastIndex));
          if (!after || (after[1] !== undefined && !isJunkToken(after[1].toLowerCase()))) break;
        }
        if (more[1] === '-') {
          const bad = badRange(last, n);
          if (bad !== null) {
            if (RE_RANGE_END.test(more[0])) conflict = bad;
            break;
          }
          eps.push(...range(last + 1, n));
        } else if (n > last && n - last <= MAX_SPAN) eps.push(n);
        else break;
        pos = RE_MORE.lastIndex;
      }
      return withAbsolute(s, marker('episode', m.index, pos, { season, episodes: sortedUnique(eps), conflict }));
    }
    const b = RE_BRACKETED.exec(s) ?? RE_DASHED.exec(s) ?? RE_DOTTED.exec(s);
    if (b) return marker('episode', b.index, b.index + b[0].length, { season: Number(b[1]), episodes: [Number(b[2])] });
    return null;
  },
};
