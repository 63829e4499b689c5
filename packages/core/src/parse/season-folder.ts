// Season folders inside a series folder, read as Jellyfin (Emby.Naming SeasonPathParser and its
// tests), Plex and Kodi read them: `Season 1`, `Season 01 (2008)`, `S01`, `Specials`, a bare `1`,
// the word in other languages (`Staffel 2`, `3. Staffel`, `1. évad`, `シーズン1`, `第二季`) and a
// series name before it (`Solar Opposites - Season 1`, as Sonarr can name them).

/** The word "season" in the languages Jellyfin reads, and their close kin. */
const SEASON_WORDS = [
  'season',
  'series',
  'saison',
  'staffel',
  'temporada',
  'stagione',
  'seizoen',
  'sezon',
  'sezona',
  'sezóna',
  'sezonul',
  'sezonas',
  'säsong',
  'sæson',
  'sesong',
  'seasong',
  'kausi',
  'tuotantokausi',
  'hooaeg',
  'évad',
  'série',
  'serie',
  'séria',
  'řada',
  'сезон',
  'σεζόν',
  'עונה',
  'シーズン',
  '시즌',
];
const WORD = `(?:${SEASON_WORDS.join('|')})`;
// What may follow the number: the year the season aired, or a season title after a dash.
const TAIL = String.raw`(?:\s*[([](?:18|19|20)\d\d[)\]]|\s+-\s+.*)?`;

const WORD_FIRST = new RegExp(String.raw`^(?:.*?[\s._-])?${WORD}[\s._-]*(\d{1,4})${TAIL}$`, 'iu');
const NUMBER_FIRST = new RegExp(String.raw`^(\d{1,4})\s*\.?\s*${WORD}${TAIL}$`, 'iu');
// `S01`, `s1`, and a trailing `S02` after the series name (`Seinfeld - S02`); never `S01E02`.
const S_NUMBER = new RegExp(String.raw`^(?:.*[\s._-])?s(\d{1,4})${TAIL}$`, 'i');
const BARE_NUMBER = /^\d{1,4}$/;
const SPECIALS = /^specials?$/i;
const CJK = /^第\s*(?:(\d{1,4})|([一二两三四五六七八九十]{1,3}))\s*[季期]$/;

const CJK_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 一 … 九十九 as Chinese writes season numbers; null for anything else. */
function cjkNumber(s: string): number | null {
  const ten = s.indexOf('十');
  if (ten < 0) return s.length === 1 ? (CJK_DIGITS[s] ?? null) : null;
  const tens = ten === 0 ? 1 : CJK_DIGITS[s.slice(0, ten)];
  const ones = ten === s.length - 1 ? 0 : CJK_DIGITS[s.slice(ten + 1)];
  return tens === undefined || ones === undefined ? null : tens * 10 + ones;
}

const ALONE = new RegExp(String.raw`^(?:${WORD}[\s._-]*(\d{1,4})|(\d{1,4})\s*\.?\s*${WORD}|s(\d{1,4}))(?:\s*[([](?:18|19|20)\d\d[)\]])?$`, 'iu');

/**
 * The season of a folder that names nothing but a season (`Season 1`, `S01`, `Staffel 2`,
 * `Specials`): in a downloads folder, where a bare `2019` or `Show S01` is no season folder but a
 * year or a release of a season pack.
 */
export function seasonFolderAlone(name: string): number | null {
  const s = name.trim();
  if (SPECIALS.test(s)) return 0;
  const m = ALONE.exec(s);
  if (m) return Number(m[1] ?? m[2] ?? m[3]);
  const cjk = CJK.exec(s);
  if (!cjk) return null;
  return cjk[1] ? Number(cjk[1]) : cjkNumber(cjk[2]!);
}

/** The season a folder inside a series folder holds (0 for specials), or null when it is no season folder. */
export function seasonOfFolder(name: string): number | null {
  const s = name.trim();
  if (BARE_NUMBER.test(s)) return Number(s);
  if (SPECIALS.test(s)) return 0;
  const m = WORD_FIRST.exec(s) ?? NUMBER_FIRST.exec(s) ?? S_NUMBER.exec(s);
  if (m) return Number(m[1]);
  const cjk = CJK.exec(s);
  if (!cjk) return null;
  return cjk[1] ? Number(cjk[1]) : cjkNumber(cjk[2]!);
}
