// A whole season: "Show.S01.1080p", "Show Season 2", "Staffel 3", "Show.S01D02" (a disc of the
// season). Several seasons ("S01-S03", "Season 1-3") are not one season and are refused.
import { firstJunk } from '../vocabulary.ts';
import { marker, MAX_SPAN, range, type Form } from './marker.ts';
import { hasSeasonWord, SEASON_WORDS } from './spelled.ts';

const RE_S = /(?<![\p{L}\p{N}])s(\d{1,2})(?:[ ._-]?(?:d|dvd|disc|disk|cd)\d{1,2})?(?![\p{L}\p{N}])/iu;
// "Season 2", and the ordinal "1ª Temporada", "2nd Season".
const RE_WORD = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(?:${SEASON_WORDS})[ ._]*-?(\\d{1,2})(?!\\d)|(\\d{1,2})(?:st|nd|rd|th|ª|º|°)[ ._-]*(?:${SEASON_WORDS})(?![\\p{L}]))`,
  'iu',
);
// "S01-S03", "S01-03", "Seasons 1-3", "Season 1 to 3"; not "S2 - 37", an episode of season 2.
const RE_SEVERAL = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:s(\\d{1,2})(?:-s?|[ ._]*(?:-|to|&)[ ._]*s)(\\d{1,2})|(?:${SEASON_WORDS})[ ._-]*(\\d{1,2})(?:-|[ ._]*(?:to|&)[ ._]*)(\\d{1,2}))(?![\\p{L}\\p{N}])`,
  'iu',
);
// "S05.Drunk.Santa.Part1": one part of the season, or the part of an episode's title? Sources disagree.
const RE_PART = /(?<![\p{L}\p{N}])(?:part|pt)[ ._-]?(\d{1,2}|[ivx]{1,6})(?![\p{L}\p{N}])/iu;
// "Fruits Basket S2 (2019) - 11", "Title Season 2 - 09": fansub names number episodes within the
// season they name; "(51)" after it is the absolute number.
const RE_NUMBER_AFTER =
  /^[ ._]*(?:\(((?:19|20)\d{2})\)[ ._]*)?[ ._]-[ ._]+(\d{1,3})(?:[ ._]?[vV]\d)?(?:[ ._]*[~-][ ._]*(\d{1,3}))?(?:[ ._]*\((\d{1,3})\))?(?=$|[ ._[(])/;
// "Show S01 (01 - 12)": the episodes of the season in the pack.
const RE_RANGE_AFTER = /^[ ._]*\((\d{1,3})[ ._]*-[ ._]*(\d{1,3})\)/;

export const seasonPack: Form = {
  name: 'season pack',
  hint: { test: (s: string) => hasSeasonWord(s) || /s\d/i.test(s) },
  find(s) {
    const several = RE_SEVERAL.exec(s);
    if (several) {
      const a = Number(several[1] ?? several[3]);
      const b = Number(several[2] ?? several[4]);
      if (b > a) return marker('season', several.index, several.index, { conflict: 'several seasons' });
    }
    const a = RE_S.exec(s);
    const b = RE_WORD.exec(s);
    const m = a && b ? (a.index <= b.index ? a : b) : (a ?? b);
    if (!m) return null;
    // "Movie.1080p.S01…": a season after the release words is not this name's; words that only
    // may be release words ("Starhunter.ReduX.S02", "Show.COMPLETE.S02") are the title's here.
    const junk = firstJunk(s, 0, true);
    if (junk >= 0 && junk < m.index) return null;
    const end = m.index + m[0].length;
    const rest = s.slice(end);
    const season = Number(m[1] ?? m[2]);
    const numbered = RE_NUMBER_AFTER.exec(rest);
    if (numbered) {
      const first = Number(numbered[2]);
      const last = numbered[3] === undefined ? first : Number(numbered[3]);
      if (last < first || last - first > MAX_SPAN) return null;
      return marker('episode', m.index, end + numbered[0].length, {
        season,
        episodes: range(first, last),
        absolute: numbered[4] === undefined ? [] : [Number(numbered[4])],
        year: numbered[1] === undefined ? null : Number(numbered[1]),
      });
    }
    if (RE_PART.test(rest)) return marker('season', m.index, m.index, { conflict: 'a season pack, or a part of one of its episodes' });
    const r = RE_RANGE_AFTER.exec(rest);
    if (r && Number(r[2]) > Number(r[1]) && Number(r[2]) - Number(r[1]) <= MAX_SPAN) {
      return marker('episode', m.index, end + r[0].length, { season, episodes: range(Number(r[1]), Number(r[2])) });
    }
    return marker('season', m.index, end, { season });
  },
};
