// An episode number without a season: "Episode 5", "Ep 05", "Ep.24", "E05", "E02-03", "E10 - E17",
// "Eps.01-02", "#01", "第01話"; and "Episode 1.22" (season 1, episode 22). A season folder around
// the file may give the season; otherwise these numbers stay without one.
import { isYear } from '../title.ts';
import { endsWithMovieWord, RE_NUMBER_IN_TITLE } from './absolute.ts';
import { badRange, marker, range, SMALL_NUMBER, smallNumber, type Form, type Marker } from './marker.ts';

const WORDS = 'episodes?|episodios?|épisodes?|eps?|folge|capitulos?|capítulos?|cap|odcinek|jakso|avsnitt|afsnit|серия|bölüm';
// "episode-25-1080p": a resolution after the dash is no end of a range.
const RE_WORD = new RegExp(
  `(?<![\\p{L}\\p{N}])(${WORDS})[ ._-]*[#(]?(\\d{1,4})(?:[ ._]?v\\d)?(?:[ ._]*(?:-|~|to|&|and|\\+)[ ._]*(?:e|ep)?(\\d{1,4})(?![pi](?!\\p{L})))?\\)?(?!\\d|\\.\\d)`,
  'iu',
);
const RE_NUMBER_BEFORE = /[ ._]-[ ._](\d{2,4})[ ._]*-[ ._]*$/;
// "(08.seriya)", "08 серия", "(05 сер.)": the number first.
const RE_NUMBER_WORD = /(?<![\p{L}\p{N}])(\d{1,3})[ ._-]*(?:seriya|serija|серия|сер\.|bölüm)(?![\p{L}])/iu;
const RE_LATER_YEAR = /(?<![\p{L}\p{N}])((?:19|20)\d{2})(?![\p{L}\p{N}])/u;
const RE_SEASON_DOT_EPISODE = /(?<![\p{L}\p{N}])episode[ ._]?(\d{1,2})\.(\d{2})(?!\d)/iu;
const RE_E = /(?<![\p{L}\p{N}])e(\d{2,4})(?:v\d)?(?:[ ._]*-[ ._]*e?(\d{2,4}))?(?![\p{L}\p{N}])/iu;
const RE_HASH = /(?<![\p{L}\p{N}])#(\d{1,4})(?:v\d)?(?:-(\d{1,4}))?(?!\d)/u;
const RE_KANJI = /第(\d{1,4})[話话集]/u;
// "Part 3", "Part.1.and.Part.2", "Pt.VI", "Part3", "part 1 to part 3", "part 1 to 4"
const RE_PART = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:part|pt)[ ._-]?(${SMALL_NUMBER})(?:[ ._-]+(and|&|to)[ ._-]+(?:(?:part|pt)[ ._-]?)?(${SMALL_NUMBER}))?(?![\\p{L}\\p{N}])`,
  'iu',
);
// "Episode VIII"
const RE_WORD_ROMAN = /(?<![\p{L}\p{N}])(?:episode|ep)[ ._-]+([ivx]{1,6})(?![\p{L}\p{N}])/iu;
// "1of8", "3.of.3", "[20 of 25]"
const RE_OF = /(?<![\p{L}\p{N}])(\d{1,2})[ ._]*of[ ._]*(\d{1,2})(?![\p{L}\p{N}])/iu;

/** "Star Wars Episode 4 Un Nouvel espoir 1977": a spelled "Episode" before a year is part of a movie title. */
function movieYearAfter(s: string, from: number): boolean {
  const year = RE_LATER_YEAR.exec(s.slice(from));
  return year !== null && isYear(Number(year[1]));
}

/** The numbers `m` found, one or a range from `from` to `to`: a range that cannot be one ("E05-E02") is refused. */
function numbered(m: RegExpExecArray, from: string, to: string | undefined): Marker {
  const a = Number(from);
  // "Ep 05 - 2019": a year after the dash is no end of a range.
  const b = to === undefined || (to.length === 4 && isYear(Number(to))) ? a : Number(to);
  const bad = badRange(a, b);
  if (bad !== null) return marker('episode', m.index, m.index, { conflict: bad });
  return marker('episode', m.index, m.index + m[0].length, { absolute: range(a, b), weak: true });
}

export const episodeOnly: Form = {
  name: 'episode without a season',
  hint: /(?:^|[^a-z])(?:ep|e\d)|[ée]pisod|#\d|第|seri|сер|bölüm|cap|odcinek|jakso|avsnitt|afsnit|folge/i,
  find(s) {
    let m = RE_SEASON_DOT_EPISODE.exec(s);
    if (m) return marker('episode', m.index, m.index + m[0].length, { season: Number(m[1]), episodes: [Number(m[2])] });
    m = RE_WORD.exec(s);
    if (m) {
      const end = m.index + m[0].length;
      if (/^episod/i.test(m[1]!) && movieYearAfter(s, end)) return null;
      // "Show Name 123 - 001 - Ep 1 name": the absolute number said before the episode word.
      const before = RE_NUMBER_BEFORE.exec(s.slice(0, m.index));
      if (before && before.index > 0) return marker('episode', before.index, end, { absolute: [Number(before[1])], weak: true });
      return numbered(m, m[2]!, m[3]);
    }
    const roman = RE_WORD_ROMAN.exec(s);
    const romanNumber = roman ? smallNumber(roman[1]!) : null;
    if (roman && romanNumber !== null) {
      const end = roman.index + roman[0].length;
      return movieYearAfter(s, end) ? null : marker('episode', roman.index, end, { absolute: [romanNumber], weak: true });
    }
    m = RE_E.exec(s) ?? RE_HASH.exec(s) ?? RE_NUMBER_WORD.exec(s);
    if (m) return numbered(m, m[1]!, m[2]);
    m = RE_KANJI.exec(s);
    if (m) return marker('episode', m.index, m.index + m[0].length, { absolute: [Number(m[1])], weak: true });
    return null;
  },
};

function part(s: string, m: RegExpExecArray, absolute: number[]): Marker | null {
  const title = s.slice(0, m.index);
  if (endsWithMovieWord(title)) return null;
  if (RE_NUMBER_IN_TITLE.test(title)) return marker('episode', m.index, m.index, { conflict: 'a number inside the title that may be the episode' });
  return marker('episode', m.index, m.index + m[0].length, { absolute, weak: true });
}

/** "Part 3" and "1 of 8": episodes of a miniseries, but only where no year makes the name a movie ("Part 2 (2011)"). */
export const partOf: Form = {
  name: 'part or n of m',
  hint: /pt|part|of/i,
  find(s) {
    const p = RE_PART.exec(s);
    if (p) {
      const a = smallNumber(p[1]!);
      const b = p[3] === undefined ? null : smallNumber(p[3]);
      if (a !== null) {
        return part(s, p, b === null || b <= a ? [a] : p[2]!.toLowerCase() === 'to' ? range(a, b) : [a, b]);
      }
    }
    const o = RE_OF.exec(s);
    if (o && Number(o[1]) <= Number(o[2]) && Number(o[1]) > 0) return part(s, o, [Number(o[1])]);
    return null;
  },
};
