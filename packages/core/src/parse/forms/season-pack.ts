// A whole season: "Show.S01.1080p", "Show Season 2", "Staffel 3", "Show.S01D02" (a disc of the
// season). Several seasons ("S01-S03", "Season 1-3") are not one season and are refused.
import { firstJunk } from '../vocabulary.ts';
import { marker, MAX_SPAN, range, type Form } from './marker.ts';
import { SEASON_WORDS } from './spelled.ts';

const RE_S = /(?<![\p{L}\p{N}])s(\d{1,2})(?:[ ._-]?(?:d|dvd|disc|disk|cd)\d{1,2})?(?![\p{L}\p{N}])/iu;
const RE_WORD = new RegExp(`(?<![\\p{L}\\p{N}])(?:${SEASON_WORDS})[ ._-]*(\\d{1,2})(?!\\d)`, 'iu');
const RE_SEVERAL = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:s(\\d{1,2})[ ._]*(?:-|to|&)[ ._]*s?(\\d{1,2})|(?:${SEASON_WORDS})[ ._-]*(\\d{1,2})[ ._]*(?:-|to|&)[ ._]*(\\d{1,2}))(?![\\p{L}\\p{N}])`,
  'iu',
);
// "S05.Drunk.Santa.Part1": one part of the season, or the part of an episode's title? Sources disagree.
const RE_PART = /(?<![\p{L}\p{N}])(?:part|pt)[ ._-]?(\d{1,2}|[ivx]{1,6})(?![\p{L}\p{N}])/iu;
// "Show S2 - 05": the 5th of season 2, or of the whole series (anime)? Not guessed.
const RE_NUMBER_AFTER = /^[ ._]*(?:\((?:19|20)\d{2}\)[ ._]*)?-[ ._]*\d{1,4}(?![\d.])/;
// "Show S01 (01 - 12)": the episodes of the season in the pack.
const RE_RANGE_AFTER = /^[ ._]*\((\d{1,3})[ ._]*-[ ._]*(\d{1,3})\)/;

export const seasonPack: Form = {
  name: 'season pack',
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
    const junk = firstJunk(s);
    // "Movie.1080p.S01…": a season after the release words is not this name's.
    if (junk >= 0 && junk < m.index) return null;
    const end = m.index + m[0].length;
    const rest = s.slice(end);
    if (RE_NUMBER_AFTER.test(rest)) return marker('season', m.index, m.index, { conflict: 'a season and a number that may count from the first season' });
    if (RE_PART.test(rest)) return marker('season', m.index, m.index, { conflict: 'a season pack, or a part of one of its episodes' });
    const season = Number(m[1]);
    const r = RE_RANGE_AFTER.exec(rest);
    if (r && Number(r[2]) > Number(r[1]) && Number(r[2]) - Number(r[1]) <= MAX_SPAN) {
      return marker('episode', m.index, end + r[0].length, { season, episodes: range(Number(r[1]), Number(r[2])) });
    }
    return marker('season', m.index, end, { season });
  },
};
