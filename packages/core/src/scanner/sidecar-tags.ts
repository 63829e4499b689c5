// A subtitle's language and flags are all that survive the rename: Plex, Jellyfin, Emby and Kodi
// read them from `<video stem>.<language>[.forced][.sdh].<ext>`.

const LANGUAGES: Record<string, string> = {
  english: 'en', eng: 'en', french: 'fr', fre: 'fr', fra: 'fr', francais: 'fr', german: 'de', ger: 'de',
  deu: 'de', deutsch: 'de', spanish: 'es', spa: 'es', espanol: 'es', italian: 'it', ita: 'it',
  portuguese: 'pt', por: 'pt', brazilian: 'pt-br', russian: 'ru', rus: 'ru', japanese: 'ja', jpn: 'ja',
  chinese: 'zh', chi: 'zh', zho: 'zh', korean: 'ko', kor: 'ko', dutch: 'nl', dut: 'nl', nld: 'nl',
  swedish: 'sv', swe: 'sv', norwegian: 'no', nor: 'no', danish: 'da', dan: 'da', finnish: 'fi',
  fin: 'fi', polish: 'pl', pol: 'pl', turkish: 'tr', tur: 'tr', arabic: 'ar', ara: 'ar', hebrew: 'he',
  heb: 'he', hindi: 'hi', hin: 'hi', czech: 'cs', cze: 'cs', ces: 'cs', greek: 'el', gre: 'el',
  ell: 'el', hungarian: 'hu', hun: 'hu', romanian: 'ro', ron: 'ro', rum: 'ro', ukrainian: 'uk',
  ukr: 'uk', vietnamese: 'vi', vie: 'vi', thai: 'th', tha: 'th', indonesian: 'id', ind: 'id',
  croatian: 'hr', hrv: 'hr', serbian: 'sr', srp: 'sr', bulgarian: 'bg', bul: 'bg',
};
// Two-letter codes (and regional forms) kept as they are. `hi` is left out: in subtitle names it
// nearly always means "hearing impaired", not Hindi.
const CODES = new Set([
  'en', 'fr', 'de', 'es', 'it', 'pt', 'ru', 'ja', 'zh', 'ko', 'nl', 'sv', 'no', 'nb', 'nn', 'da',
  'fi', 'pl', 'tr', 'ar', 'he', 'cs', 'el', 'hu', 'ro', 'uk', 'vi', 'th', 'id', 'hr', 'sr', 'bg',
  'pt-br', 'en-us', 'en-gb', 'es-419', 'es-mx', 'fr-ca', 'zh-cn', 'zh-tw', 'zh-hans', 'zh-hant', 'und',
]);
const FORCED = new Set(['forced', 'foreign']);
const SDH = new Set(['sdh', 'cc', 'hi']);

export interface SidecarTags {
  language: string | null;
  forced: boolean;
  sdh: boolean;
}

function languageOf(token: string): string | null {
  return CODES.has(token) ? token : Object.hasOwn(LANGUAGES, token) ? (LANGUAGES[token] ?? null) : null;
}

function isTag(token: string): boolean {
  return FORCED.has(token) || SDH.has(token) || token === 'default' || languageOf(token) !== null;
}

/**
 * The tags at the end of a sidecar's name without its extension: `Movie.2010.en.forced`,
 * `2_English`, `English (SDH)`. Only trailing tags count, so a title word is never taken for one.
 */
export function sidecarTags(stem: string): SidecarTags {
  const tokens = stem.toLowerCase().split(/[\s._()[\]]+/).filter(Boolean);
  const tags: SidecarTags = { language: null, forced: false, sdh: false };
  for (let i = tokens.length - 1; i >= 0 && tokens.length - i <= 4; i--) {
    let token = tokens[i]!;
    // RARBG-style `2_English` was split above; `2-english` and `3-sdh` were not.
    token = token.replace(/^\d+-/, '');
    if (!isTag(token)) break;
    if (FORCED.has(token)) tags.forced = true;
    else if (SDH.has(token)) tags.sdh = true;
    else tags.language ??= languageOf(token);
  }
  return tags;
}

/** `.en.forced.sdh`, or '' when there is nothing to keep. */
export function tagSuffix(tags: SidecarTags): string {
  return `${tags.language ? `.${tags.language}` : ''}${tags.forced ? '.forced' : ''}${tags.sdh ? '.sdh' : ''}`;
}
