// Movie editions as Radarr and Plex name them: from Plex's `{edition-…}` tag or the edition words
// of a release name.

const EDITIONS: readonly (readonly [string, string])[] = [
  ["director'?s?[ ._-]?cut", "Director's Cut"],
  ['final[ ._-]?cut', 'Final Cut'],
  ['ultimate[ ._-]?cut', 'Ultimate Cut'],
  ['ultimate[ ._-]?edition', 'Ultimate Edition'],
  ["collector'?s[ ._-]?edition", "Collector's Edition"],
  ['special[ ._-]?edition', 'Special Edition'],
  ['\\d{1,3}(?:st|nd|rd|th)[ ._-]?anniversary(?:[ ._-]?edition)?', ''],
  ['anniversary[ ._-]?edition', 'Anniversary Edition'],
  ['extended(?:[ ._-]?(?:cut|edition|version))?', 'Extended'],
  ['theatrical(?:[ ._-]?(?:cut|edition|version))?', 'Theatrical'],
  ['unrated', 'Unrated'],
  ['uncut', 'Uncut'],
  ['remaster(?:ed)?', 'Remastered'],
  ['imax(?:[ ._-]?edition)?', 'IMAX'],
  ['criterion(?:[ ._-]?collection)?', 'Criterion'],
  ['redux', 'Redux'],
  ['open[ ._-]?matte', 'Open Matte'],
];
const RE_EDITION = new RegExp(`(?<![a-z0-9])(?:${EDITIONS.map(([re]) => `(${re})`).join('|')})(?![a-z0-9])`, 'i');

// Every edition has one of these words: most names have none, and skip the long expression.
const RE_EDITION_HINT = /cut|edition|extended|theatrical|unrated|uncut|remaster|imax|criterion|redux|matte|anniversary/i;

/** The first edition named in `s`, or null. */
export function findEdition(s: string): string | null {
  if (!RE_EDITION_HINT.test(s)) return null;
  const m = RE_EDITION.exec(s);
  if (!m) return null;
  for (let i = 0; i < EDITIONS.length; i++) {
    const g = m[i + 1];
    if (g === undefined) continue;
    const label = EDITIONS[i]![1];
    if (label !== '') return label;
    const n = /^(\d{1,3}(?:st|nd|rd|th))/i.exec(g);
    return `${n ? n[1]!.toLowerCase() : ''} Anniversary Edition`.trim();
  }
  return null;
}

// Plex and Radarr tags inside names: {edition-Final Cut}, {imdb-tt…}, {tmdb-…}, [imdbid-…], [tvdbid-…].
const RE_TAGS = /\{(?:edition-([^}]*)|[a-z]+(?:id)?-[^}]*)\}|\[(?:imdb|tmdb|tvdb)(?:id)?-[^\]]*\]/gi;

const RE_DB_TAG = /db(?:id)?-/i;

/** The name without its id and edition tags, and the edition such a tag named. */
export function takeTags(s: string): { s: string; edition: string | null } {
  if (!s.includes('{') && !(s.includes('-') && RE_DB_TAG.test(s))) return { s, edition: null };
  let edition: string | null = null;
  const out = s.replace(RE_TAGS, (_m, ed: string | undefined) => {
    if (ed !== undefined && ed.trim() !== '') edition = ed.trim();
    return ' ';
  });
  return { s: out, edition };
}
