// One path segment made ready for the forms: separators made uniform, checksums and site tags
// removed, a leading fansub group taken off. Nothing here decides what the name means.
import { onlyJunk } from './vocabulary.ts';

/** File and folder names are at most 255 bytes on common filesystems; longer input is cut so that
 * no expression ever sees a long string. */
export const MAX_SEGMENT = 300;

export interface Prepared {
  /** The segment as the forms read it. */
  s: string;
  /** The leading `[Group]` of fansub and P2P names, when there was one. */
  group: string | null;
  /** A CRC32 checksum was taken out. */
  checksum: boolean;
}

const ENTITIES: Record<string, string> = { '&#039;': "'", '&#39;': "'", '&apos;': "'", '&amp;': '&', '&quot;': '"' };
const RE_ENTITY = /&(?:#0?39|apos|amp|quot);/g;
// CRC32 checksums of fansub releases: [A3C9BD54], (a1fc58a7); eight digits alone are more often a
// date or a catalogue number (`(30022913)`) than a checksum.
const RE_CHECKSUM = /[[(](?=[0-9a-f]{0,7}[a-f])[0-9a-f]{8}[\])]/gi;

const RE_SITE =
  /[[{]\s*(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|to|cd|sh|ws|me|mx|am|is|io|se|ag|pw|cc|co|tv|info|club|xyz|lol|nz|ru|fr|onl|li|bz|si|biz|eu)\s*[\]}]|(?:^|\s)www\.[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,4}(?=\s|$)/gi;
// What every site `RE_SITE` takes holds: `www.`, or a domain's end before a closing bracket (`.com]`).
const RE_WWW = /www\./i;
const RE_DOMAIN_HINT = /\.[a-z]{2,4}\s*[\]}]/i;
// "www.1TamilMV.phd - Title", "Crazy4TV.com - Title": a site that posted the file, before a dash.
const RE_SITE_PREFIX =
  /^\s*(?:w{2,3}[.,\s][\p{L}\p{N}-]+(?:[.\s][\p{L}\p{N}-]+)*?|[\p{L}\p{N}-]+\.(?:com|org|net|to|cd|sh|ws|me|mx|am|is|io|se|ag|pw|cc|co|tv|info|club|xyz|lol|nz|ru|fr|onl|li|bz|si))\s+-\s+/iu;
// A star or a note may decorate a group's bracket: `【Group】★【Title】`.
const RE_LEADING_GROUP = /^\s*[[【]([^\]】]{1,60})[\]】][\s._★☆♪-]*/;
// `[Title][07]`, `[Title][24(END)]`, `[Title][2019][17]` (the series year first) and `[Title] 02 [BIG]`
const RE_BRACKETED_NUMBER = /^(?:\[((?:19|20)\d{2})\]\s*)?(?:\[(\d{1,4})(?:v\d)?(?:\s*\(?(?:end|fin|final)\)?)?\]|\s*(\d{1,4})(?:v\d)?(?=\s*[[(]|$))/i;

const RE_WIDE = /[（）‒–—]/;

// "Harbour.Lights-03_07.avi": in a name separated by dots or dashes, a lone underscore between two
// numbers joins a season and its episode, as `x` does.
const RE_JOINED_PAIR = /(?<=^|[\p{L}\p{N}][.-])(\d{1,2})_(\d{2})(?=$|[.-])/u;

/** Characters that only separate words in some names: `_` always, `+` in names that have no spaces. */
function uniformSeparators(s: string): string {
  const under = s.indexOf('_');
  let out = s;
  if (under >= 0) {
    const pair = s.indexOf('_', under + 1) < 0 && !s.includes(' ') ? RE_JOINED_PAIR.exec(s) : null;
    out = pair ? `${s.slice(0, pair.index)}${pair[1]}x${pair[2]}${s.slice(pair.index + pair[0].length)}` : s.replace(/_/g, ' ');
  }
  const plus = out.indexOf('+');
  if (plus >= 0 && out.indexOf('+', plus + 1) >= 0 && !out.includes(' ')) out = out.replace(/\+/g, ' ');
  return RE_WIDE.test(out) ? out.replace(/（/g, '(').replace(/）/g, ')').replace(/[‒–—]/g, '-') : out;
}

// "EvoBot.[Group] Title - 01v2 [CRC]", "37 [Group] Title - 37 [CRC]": an uploader's tag or a
// count before the group of a fansub release.
const RE_PREFIX = /^[\p{L}\p{N}]{1,20}[ ._]*(?=[[【])/u;

/** A fansub name (it has a checksum) keeps no word before its `[Group]` when a title follows the group. */
function withoutPrefixBeforeGroup(s: string): string {
  const prefix = RE_PREFIX.exec(s);
  if (!prefix) return s;
  const rest = s.slice(prefix[0].length);
  const g = RE_LEADING_GROUP.exec(rest);
  if (!g || onlyJunk(g[1]!) || !/^\p{L}/u.test(rest.slice(g[0].length))) return s;
  return rest;
}

export function prepare(input: string): Prepared {
  let s = input.length > MAX_SEGMENT ? input.slice(0, MAX_SEGMENT) : input;
  if (s.includes('&')) s = s.replace(RE_ENTITY, (e) => ENTITIES[e] ?? e);
  s = uniformSeparators(s);
  let checksum = false;
  if (s.includes('[') || s.includes('(')) {
    const before = s.length;
    s = s.replace(RE_CHECKSUM, ' ');
    checksum = s.length !== before;
  }
  if (RE_WWW.test(s) || ((s.includes(']') || s.includes('}')) && RE_DOMAIN_HINT.test(s))) s = s.replace(RE_SITE, ' ');
  const site = s.includes(' - ') ? RE_SITE_PREFIX.exec(s) : null;
  if (site) s = s.slice(site[0].length);
  s = s.trim();

  if (checksum && s[0] !== '[') s = withoutPrefixBeforeGroup(s);
  let group: string | null = null;
  // `[Group] Title - 01`, and the stacked groups of some releases: `[Jumonji-Giri]_[Shinsen-Subs][ASF]_Title`,
  // `[Group][Region][中文标题][Title][08]`.
  for (let i = 0; i < 5 && (s[0] === '[' || s[0] === '【'); i++) {
    const g = RE_LEADING_GROUP.exec(s);
    if (!g) break;
    const rest = s.slice(g[0].length);
    // A name made only of brackets keeps its title in the one before the number: `[Group][Title][01][1080p]`.
    const num = RE_BRACKETED_NUMBER.exec(rest);
    // A bare number after the first bracket is the episode of a group's release: `[TardRaws] 0`.
    if (num && !/^\d+$/.test(g[1]!.trim()) && (num[2] !== undefined || group !== null)) {
      const year = num[1] === undefined ? '' : ` (${num[1]})`;
      s = `${g[1]!.trim()}${year} - ${num[2] ?? num[3]} ${rest.slice(num[0].length)}`;
      break;
    }
    // `[720p] Title`: a bracket of release words is no fansub group.
    if (!onlyJunk(g[1]!)) group ??= g[1]!.trim();
    if (rest.trim() === '') break;
    s = rest;
  }
  return { s: s.trim(), group, checksum };
}

// "gNWDXow11s7E0X7GTDrZ": upload tools rename files to runs of random letters and digits, in which
// accidental markers ("s7E0") read as episodes. Such a run mixes both cases and digits, and some
// run of its letters begins in lower case and goes on in capitals; a camel-cased name
// ("BreakingBadS01E01", "Movie2019x264") begins each word with a capital.
const RE_ONE_RUN = /^(?=\D*\d)[A-Za-z0-9]{12,}$/;
const RE_LOWER_THEN_UPPER = /(?:^|\d)[a-z]+[A-Z]/;

/** Whether a file name (without its extension) is random characters that say nothing about the media. */
export function isObfuscated(base: string): boolean {
  return base.length <= MAX_SEGMENT && RE_ONE_RUN.test(base) && RE_LOWER_THEN_UPPER.test(base);
}
