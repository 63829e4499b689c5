// Episode numbers from the name of a file in a series folder, in the forms Jellyfin (Emby.Naming
// EpisodePathParser and its expressions), Kodi (advancedsettings `tvshowmatching` defaults) and Plex
// document for libraries: `S01E02`, `Season 1 Episode 2`, `1x02`, multi-episode `S01E01-E02`,
// `S01E01E02`, `S01E01-02`, `1x01-1x02`, daily `Show - 2024-03-14`, and inside a series folder the
// forms without a season: `E05`, `Episode 5`, `01 - Pilot`, `01-02 - Title`, absolute numbers
// (`105`, `Show - 105`, `[Group] Show - 105 [1080p]`).

export interface EpisodeNumbers {
  /** Null when the name gives none (`E05`, `01 - Pilot`, absolute numbers): the season folder tells. */
  season: number | null;
  /** Every episode the file holds; [] for a daily show. */
  episodes: number[];
  /** `YYYY-MM-DD` for a daily show, else null. */
  air_date: string | null;
}

/** A range wider than this is a misread (`S01E01-2024` ends in a year, not at episode 2024). */
const MAX_RANGE = 50;

const S_E = /(?<![a-z])s(?:eason)?[ ._-]?(\d{1,4})[ ._x-]*e(?:p(?:isode)?)?[ ._-]?(\d{1,4})(?!\d)/i;
// After `S01E01`: `E02`, `-E02`, ` - E02`, `-S01E02` (each a further episode; after a dash, up to
// it), or a bare `-02` that is not a resolution (`-720p`).
const S_E_MORE = /(?<sep>[ ._]?-[ ._]?|[ ._]?)(?:s(?<season>\d{1,4}))?e(?<ep>\d{1,4})(?!\d)|-(?<bare>\d{1,4})(?![\dpi])/iy;
const N_X = /(?<![\da-z])(\d{1,2})x(\d{1,3})(?!\d)/i;
// After `1x01`: `x02`, `-x02`, `-e02`, `-1x02`, ` - 1x02`, or a bare `-02`.
const N_X_MORE = /(?:(?:-| - )(?<season>\d{1,2})x|-?[xe])(?<ep>\d{1,3})(?!\d)|-(?<bare>\d{1,3})(?![\dpi])/iy;
const DATE = /(?<!\d)((?:19|20)\d\d)([-. _])(\d\d)\2(\d\d)(?!\d)/;
// `E05`, `Ep. 5`, `Episode 5-6`; the number must end there, so the hash in `[E3F1A2B4]` is none.
const EPISODE_ONLY = /(?<![a-z])(?:episode|ep\.?|e)[ ._-]?(\d{1,4})(?:-(?:episode|ep|e)?(\d{1,4}))?(?=$|[\s._()[\]-])/i;
/** Release-group tags before the name: `[SubsPlease] `. */
const GROUP_TAGS = /^(?:\s*\[[^\]]*\])+\s*/;
/** The series' year after its title in the file name: `Show (2010) - 05`. */
const YEAR_TAG = /^\s*[([](?:18|19|20)\d\d[)\]]/;
const LEADING_SEPARATORS = /^[\s._-]+/;
// A number first, then a title after a dash, a tag or nothing: `01 - Pilot`, `07 - 12 Monkeys`,
// `01-02 - Title`, `105`. A plain space after it is a title (`30 Rock`), not an episode.
const LEADING_NUMBER = /^(\d{1,4})(?:-(\d{1,4}))?(?:v\d{1,2})?(?=$|\s*-\s*|\s*[[(]|[._](?!\d))/;
// `Title - 05`, `Title - 05 [1080p]`, `Title - 05 - Episode`: the first ` - ` followed by a number
// alone. `Show - 3 Days Later` is a title.
const AFTER_DASH = /^(?:(?! - ).)+? - (\d{1,4})(?:-(\d{1,4}))?(?:v\d{1,2})?(?=$|\s*[[(]|\s+-\s|[._](?!\d))/;
const ALNUM = /[\p{L}\p{N}]/u;

function isYear(n: number, digits: string): boolean {
  return digits.length === 4 && n >= 1900 && n <= 2099;
}

/**
 * Adds `n` to the episodes: as the end of a range after a dash (`E01-E03` holds 1, 2 and 3), else
 * on its own (`E01E03`). False when it cannot be a further episode (backwards, or too far).
 */
function push(out: number[], n: number, range: boolean): boolean {
  const last = out[out.length - 1]!;
  if (range) {
    if (n <= last || n - last > MAX_RANGE) return false;
    for (let e = last + 1; e <= n; e++) out.push(e);
  } else if (!out.includes(n)) out.push(n);
  return true;
}

function seasonEpisode(base: string): EpisodeNumbers | null {
  const m = S_E.exec(base);
  if (!m) return null;
  const season = Number(m[1]);
  const episodes = [Number(m[2])];
  S_E_MORE.lastIndex = m.index + m[0].length;
  for (let more = S_E_MORE.exec(base); more; more = S_E_MORE.exec(base)) {
    const g = more.groups!;
    if (g.season !== undefined && Number(g.season) !== season) break;
    const n = Number(g.bare ?? g.ep);
    if (!push(episodes, n, g.bare !== undefined || g.sep!.includes('-'))) break;
  }
  return { season, episodes, air_date: null };
}

function crossEpisode(base: string): EpisodeNumbers | null {
  const m = N_X.exec(base);
  if (!m) return null;
  const season = Number(m[1]);
  const episodes = [Number(m[2])];
  N_X_MORE.lastIndex = m.index + m[0].length;
  for (let more = N_X_MORE.exec(base); more; more = N_X_MORE.exec(base)) {
    const g = more.groups!;
    if (g.season !== undefined && Number(g.season) !== season) break;
    if (!push(episodes, Number(g.bare ?? g.ep), more[0].startsWith('-') || more[0].startsWith(' '))) break;
  }
  return { season, episodes, air_date: null };
}

function airDate(base: string): EpisodeNumbers | null {
  const m = DATE.exec(base);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[3]), Number(m[4])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return { season: null, episodes: [], air_date: `${m[1]}-${m[3]}-${m[4]}` };
}

function numbered(m: RegExpExecArray | null): EpisodeNumbers | null {
  if (!m) return null;
  const first = Number(m[1]);
  if (isYear(first, m[1]!)) return null;
  const episodes = [first];
  if (m[2] !== undefined && !push(episodes, Number(m[2]), true)) return null;
  return { season: null, episodes, air_date: null };
}

/**
 * What follows the series title at the start of a name (`Show (2010) - 05` → ` - 05`), matched
 * on letters and digits alone so `Marvel's Agents of S.H.I.E.L.D.` fits `Marvels Agents of SHIELD`;
 * the name itself when it does not start with the title.
 */
function afterSeriesTitle(name: string, series: string): string {
  let i = 0;
  for (const c of series.toLowerCase()) {
    if (!ALNUM.test(c)) continue;
    while (i < name.length && !ALNUM.test(name[i]!)) i++;
    if (name[i]?.toLowerCase() !== c) return name;
    i++;
  }
  if (i === 0 || (i < name.length && ALNUM.test(name[i]!))) return name;
  return name.slice(i).replace(YEAR_TAG, '');
}

/**
 * The episode a file's name (without its extension) holds, or null when no library form fits.
 * `series` is the title of the series folder the file lies in; null for a file straight in the TV
 * folder, where only forms that carry their season (or an air date) are trusted.
 */
export function episodeOfFile(base: string, series: string | null): EpisodeNumbers | null {
  const found = seasonEpisode(base) ?? crossEpisode(base) ?? airDate(base);
  if (found || series === null) return found;
  // A number first is the episode even when the title that follows holds another (`07 - 12 Monkeys`).
  const untagged = base.replace(GROUP_TAGS, '');
  const rest = afterSeriesTitle(untagged, series).replace(LEADING_SEPARATORS, '');
  return numbered(LEADING_NUMBER.exec(rest)) ?? numbered(EPISODE_ONLY.exec(base)) ?? numbered(AFTER_DASH.exec(untagged));
}
