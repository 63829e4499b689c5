// Seasons and episodes spelled out, in the languages releases use: "Season 1 Episode 2",
// "Saison 5 Ep 14", "Staffel 1 Folge 2", "Temporada 4 [Cap.408]", "Season 4 Episodes 1-12",
// "2nd Season 24", "Season 2 2of12", "Episode 14 Title (saison 2)", "Season 3 Part IV",
// "Season 4.16", "NCIS Season 11 01", "Сезон: 1 / Серии: 1-10", and the number-first orders of
// Russian and Turkish ("5-й сезон 09-я серия", "2.Sezon.7.Bölüm", "3.sezon.22.seria").
import { badRange, marker, range, smallNumber, type Form, type Marker } from './marker.ts';

export const SEASON_WORDS = 'seasons?|series|saison|staffel|temporada|temp|stagione|seizoen|sezon|sez|säsong|sasong|sæson|saeson|sesong|kausi|évad|evad|сезон';
export const EPISODE_WORDS =
  'episodes?|episodios?|épisodes?|eps?|folgen?|afl|aflevering|odcinek|jakso|avsnitt|afsnit|серия|серии|серий|эпизод|capitulos?|capítulos?|cap|bölüm|bolum|seriya|serija|seria|serii|ser';

const B = '(?<![\\p{L}\\p{N}])';
const TO = '(?:-|~|to|a|à|ao)';
const NUM_RANGE = `\\(?(\\d{1,3})(?:[ ._]*${TO}[ ._]*(\\d{1,3}))?\\)?(?!\\d)`;

const RE_SEASON_EPISODE = new RegExp(`${B}(?:${SEASON_WORDS})[ ._:]*-?№?(\\d{1,2})[ ._,:/\\-[(]*(?:${EPISODE_WORDS})[ ._:-]*№?${NUM_RANGE}`, 'iu');
// "5-й сезон 09-я серия", "2.Sezon.7.Bölüm", "(8.sez.21.ser.iz.23)"
const RE_NUMBER_FIRST = new RegExp(
  `${B}(\\d{1,2})(?:-?[йя])?[ ._]*(?:${SEASON_WORDS})[ ._,]*(\\d{1,3})(?:-?[йя])?[ ._]*(?:${EPISODE_WORDS})(?![\\p{L}])`,
  'iu',
);
// "2nd Season 24", "2nd Season - 01", "10º Temporada - 215 ao 220", "2nd Season - 01 ~ 12"
const RE_ORDINAL_SEASON = new RegExp(
  `${B}(\\d{1,2})(?:st|nd|rd|th|ª|º|°|e|eme|ème)[ ._-]*(?:season|saison|staffel|temporada)[ ._-]*(?:-[ ._-]*)?(\\d{1,3})(?:v\\d)?(?:[ ._]*${TO}[ ._]*(\\d{1,3}))?(?![\\d\\p{L}])`,
  'iu',
);
const RE_SEASON_OF = new RegExp(`${B}(?:${SEASON_WORDS})[ ._-]*(\\d{1,2})[ ._,-]+(\\d{1,2})[ ._]*of[ ._]*\\d{1,2}(?!\\d)`, 'iu');
const RE_SEASON_PART = new RegExp(`${B}(?:${SEASON_WORDS})[ ._-]*(\\d{1,2})[ ._-]+(?:part|pt)[ ._-]*(\\d{1,2}|[ivx]{1,6})(?![\\p{L}\\p{N}])`, 'iu');
// "Season 4.16", "NCIS Season 11 01" (a bare episode number, then nothing but the end or a bracket)
const RE_SEASON_DOT = new RegExp(`${B}(?:season|series|saison|staffel|temporada)[ ._-]*(\\d{1,2})\\.(\\d{2})(?!\\d)`, 'iu');
const RE_SEASON_NUMBER = new RegExp(`${B}(?:season|series|saison|staffel|temporada)[ ._-]*(\\d{1,2})[ ._]+(\\d{1,3})(?=[ ._]*(?:$|[[(]|-[ ._]))`, 'iu');
// Japanese "第2期 01話": the 2nd season, episode 1.
const RE_KANJI = /第(\d{1,2})期[\s._]*第?(\d{1,4})[話话集]/u;
// Spanish "Cap.408" (season 4, episode 8) and the range "Cap.408_410", usually after "Temporada 4".
const RE_CAP = /(?<![\p{L}])cap(?:itulo)?[ ._]?(\d{1,2})(\d{2})(?:[ ._-]+(\d{1,2})(\d{2}))?(?!\d)/iu;
// "Episode 14 Title (saison 2)": the episode first, the season in brackets after the title. Not
// "Episode 3 - The Fog (Season 2)", where a dash says an episode title follows.
const RE_EPISODE_FIRST = new RegExp(`^((?:${EPISODE_WORDS})[ ._]*(\\d{1,3})[ ._]*)\\p{L}[^()]*?[ ._-]*\\((?:${SEASON_WORDS})[ ._]*(\\d{1,2})\\)`, 'iu');
const RE_OUT_OF = /^[ ._]*(?:из|of)[ ._]*\d/iu;
const RE_SEASON_WORD = new RegExp(`${B}(?:${SEASON_WORDS})[ ._-]*(\\d{1,2})(?!\\d)`, 'iu');

const RE_SEASON_WORD_HINT = /season|series|saison|staffel|temp|stagione|seizoen|sez|s[äæa]e?s[oe]n|sesong|kausi|vad|сезон/i;
let hintText = '';
let hintFound = false;

/**
 * Whether `s` may hold a season word: the hint of this form and of the season pack form, asked
 * once per name (the last answer is kept) rather than once per form.
 */
export function hasSeasonWord(s: string): boolean {
  if (s !== hintText) {
    hintText = s;
    hintFound = RE_SEASON_WORD_HINT.test(s);
  }
  return hintFound;
}

function spanish(s: string): Marker | null {
  const cap = RE_CAP.exec(s);
  if (!cap) return null;
  const season = Number(cap[1]);
  let episodes = [Number(cap[2])];
  if (cap[3] !== undefined) {
    if (Number(cap[3]) !== season) return marker('episode', cap.index, cap.index, { conflict: 'episodes of two seasons' });
    // "Cap.102_104" holds episodes 2 to 4, as "S01E02-E04" does.
    const bad = badRange(episodes[0]!, Number(cap[4]));
    if (bad !== null) return marker('episode', cap.index, cap.index, { conflict: bad });
    episodes = range(episodes[0]!, Number(cap[4]));
  }
  const word = RE_SEASON_WORD.exec(s);
  if (word && word.index < cap.index && Number(word[1]) !== season) {
    return marker('episode', word.index, word.index, { conflict: 'the season and the episode code disagree' });
  }
  const start = word && word.index < cap.index ? word.index : cap.index;
  return marker('episode', start, cap.index + cap[0].length, { season, episodes });
}

const at = (m: RegExpExecArray, season: number, episodes: number[]): Marker => marker('episode', m.index, m.index + m[0].length, { season, episodes });

/** Episode `from`, or episodes `from` to `to`, of `season`; a range that cannot be one ("Episodes 12-3") is refused. */
function rangeAt(m: RegExpExecArray, season: number, from: string, to: string | undefined): Marker {
  const a = Number(from);
  const b = to === undefined ? a : Number(to);
  const bad = badRange(a, b);
  return bad === null ? at(m, season, range(a, b)) : marker('episode', m.index, m.index, { conflict: bad });
}

export const spelled: Form = {
  name: 'spelled-out season and episode',
  hint: { test: (s: string) => hasSeasonWord(s) || /第|cap/i.test(s) },
  find(s) {
    let m = RE_SEASON_EPISODE.exec(s);
    if (m) {
      // "Серии: 5 из 20": the fifth episode, or the first five of twenty? Trackers write both.
      if (m[3] === undefined && m[2] !== '1' && RE_OUT_OF.test(s.slice(m.index + m[0].length))) {
        return marker('episode', m.index, m.index, { conflict: 'one episode number out of a total may count the episodes so far' });
      }
      return rangeAt(m, Number(m[1]), m[2]!, m[3]);
    }
    m = RE_NUMBER_FIRST.exec(s);
    if (m) return at(m, Number(m[1]), [Number(m[2])]);
    m = RE_ORDINAL_SEASON.exec(s);
    if (m) return rangeAt(m, Number(m[1]), m[2]!, m[3]);
    m = RE_SEASON_OF.exec(s) ?? RE_SEASON_DOT.exec(s) ?? RE_SEASON_NUMBER.exec(s) ?? RE_KANJI.exec(s);
    if (m) return at(m, Number(m[1]), [Number(m[2])]);
    m = RE_SEASON_PART.exec(s);
    if (m) {
      const part = smallNumber(m[2]!);
      if (part !== null) return at(m, Number(m[1]), [part]);
    }
    m = RE_EPISODE_FIRST.exec(s);
    if (m) {
      const open = m.index + m[0].lastIndexOf('(');
      return marker('episode', open, m.index + m[0].length, { titleStart: m[1]!.length, season: Number(m[3]), episodes: [Number(m[2])] });
    }
    return spanish(s);
  },
};
