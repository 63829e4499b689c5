import type { NfoInfo } from '@mo/shared';

// A .nfo comes from a download as much as from Kodi, so it is read in one pass over its text
// with plain index searches: no regular expression whose backtracking a crafted file can make
// quadratic or worse (spaces around a title once blocked a worker for minutes). It is not an XML
// parser on purpose: Kodi accepts an .nfo that is XML followed by a URL line, which no XML parser
// takes, and these few tags are all the reports need.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&(amp|lt|gt|quot|apos);/g;

function decodeXml(s: string): string {
  return s.replace(ENTITY, (_, e: string) => ENTITIES[e]!);
}

/** Whether `text` has `word` (lower-case ASCII) at `at`, ignoring ASCII case as the `i` flag does. */
function hasAt(text: string, at: number, word: string): boolean {
  if (at < 0 || text.length - at < word.length) return false;
  for (let k = 0; k < word.length; k++) {
    let c = text.charCodeAt(at + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== word.charCodeAt(k)) return false;
  }
  return true;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/**
 * The text of the first `<tag>` (no attributes, any case) whose text runs straight to its
 * `</tag>`, trimmed; null when there is none. Every `<` of the file is looked at once.
 */
function tagText(text: string, tag: string): string | null {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  for (let at = text.indexOf('<'); at >= 0;) {
    if (!hasAt(text, at, open)) {
      at = text.indexOf('<', at + 1);
      continue;
    }
    const start = at + open.length;
    const end = text.indexOf('<', start);
    if (end < 0) return null;
    if (hasAt(text, end, close)) return text.slice(start, end).trim();
    at = end;
  }
  return null;
}

/** The last `type="…"` (or `'…'`) of the attributes of a `<uniqueid …>` tag that names an id kind. */
function idType(attrs: string): string | null {
  let found: string | null = null;
  for (let at = 0; at < attrs.length; at++) {
    if (!hasAt(attrs, at, 'type') || isWordChar(attrs[at - 1])) continue;
    let i = at + 4;
    while (isSpace(attrs[i])) i++;
    if (attrs[i] !== '=') continue;
    i++;
    while (isSpace(attrs[i])) i++;
    const quote = attrs[i];
    if (quote !== '"' && quote !== "'") continue;
    let j = i + 1;
    while (j < attrs.length && /[A-Za-z0-9_-]/.test(attrs[j]!)) j++;
    if (j > i + 1 && (attrs[j] === '"' || attrs[j] === "'")) found = attrs.slice(i + 1, j);
  }
  return found;
}

/** Every `<uniqueid type="kind">id</uniqueid>`, the first of each kind. */
function uniqueIds(text: string): Record<string, string> {
  const ids: Record<string, string> = {};
  for (let at = text.indexOf('<'); at >= 0;) {
    if (!hasAt(text, at, '<uniqueid') || isWordChar(text[at + 9])) {
      at = text.indexOf('<', at + 1);
      continue;
    }
    const gt = text.indexOf('>', at);
    if (gt < 0) break;
    const end = text.indexOf('<', gt + 1);
    if (end < 0) break;
    const type = idType(text.slice(at + 9, gt));
    if (type !== null && hasAt(text, end, '</uniqueid>')) {
      const id = text.slice(gt + 1, end).trim();
      const kind = type.toLowerCase();
      if (id !== '' && !(kind in ids)) ids[kind] = decodeXml(id);
    }
    at = end;
  }
  return ids;
}

const ROOTS = [
  ['tvshow', 'tvshow'],
  ['episodedetails', 'episode'],
  ['movie', 'movie'],
] as const;

/** The first `<tvshow`, `<episodedetails` or `<movie` followed by a blank or `>`. */
function rootKind(text: string): NfoInfo['kind'] | null {
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    for (const [tag, kind] of ROOTS) {
      const after = text[at + 1 + tag.length];
      if (hasAt(text, at + 1, tag) && (after === '>' || isSpace(after))) return kind;
    }
  }
  return null;
}

/** The few facts a Kodi .nfo holds that the reports use; null for anything that is not Kodi XML. */
export function parseNfo(text: string): NfoInfo | null {
  const kind = rootKind(text);
  if (!kind) return null;
  const str = (tag: string) => {
    const t = tagText(text, tag);
    return t ? decodeXml(t) : null;
  };
  const num = (tag: string) => {
    const t = tagText(text, tag);
    return t !== null && /^\d+$/.test(t) ? Number(t) : null;
  };
  const date = str('aired') ?? str('premiered');
  const ids = uniqueIds(text);
  return {
    kind,
    title: str('title'),
    season: kind === 'episode' ? num('season') : null,
    episode: kind === 'episode' ? num('episode') : null,
    aired: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    ...(Object.keys(ids).length > 0 ? { ids } : {}),
  };
}
