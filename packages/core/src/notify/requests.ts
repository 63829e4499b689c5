import { posix } from 'node:path';
import type { NotifyTarget } from '@mo/shared';
import { plainText, truncate, type ChatMessage } from './message.ts';

// What each kind of media server is told after an import, as plain request descriptions: the
// sender only performs them, so every header, path and body is decided (and tested) here.

export interface NotifyImport {
  source: string;
  destination: string;
}

/**
 * What a notify job carries: the pass that imported the files, and where they went; with `undone`,
 * the import an undo took back, whose `destination`s are gone from the library.
 */
export interface Notice {
  pass: string;
  imports: NotifyImport[];
  undone?: number;
}

export interface NotifyRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** `base` with `path` appended to its own path; credentials in it are never sent in the URL. */
function endpoint(base: string, path: string, query?: Record<string, string>): string {
  const url = new URL(base);
  url.username = '';
  url.password = '';
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  if (query) url.search = new URLSearchParams(query).toString();
  return url.toString();
}

function jsonPost(url: string, body: unknown, headers: Record<string, string> = {}): NotifyRequest {
  return { method: 'POST', url, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** The folders the imported files landed in, each once, in import order. */
export function importFolders(imports: readonly NotifyImport[]): string[] {
  return [...new Set(imports.map((i) => posix.dirname(i.destination)))];
}

/** The deepest folder holding every one of `folders`. */
export function commonFolder(folders: readonly string[]): string {
  const split = folders.map((f) => f.split('/').filter(Boolean));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((parts) => parts[n] === first[n])) n++;
  return `/${first.slice(0, n).join('/')}`;
}

/**
 * Jellyfin and Emby: one "media updated" call naming every new file. Jellyfin takes its key in the
 * Authorization scheme, the one form every version reads (X-Emby-Token is legacy authorization,
 * off by default since Jellyfin 12.0, jellyfin/jellyfin#15559); Emby reads X-Emby-Token.
 */
export function mediaUpdatedRequest(target: NotifyTarget, notice: Notice): NotifyRequest {
  const auth: Record<string, string> =
    target.kind === 'jellyfin' ? { Authorization: `MediaBrowser Token="${target.api_key ?? ''}"` } : { 'X-Emby-Token': target.api_key ?? '' };
  const UpdateType = notice.undone === undefined ? 'Created' : 'Deleted';
  return jsonPost(endpoint(target.url, '/Library/Media/Updated'), { Updates: notice.imports.map((i) => ({ Path: i.destination, UpdateType })) }, auth);
}

const plexHeaders = (target: NotifyTarget) => ({ 'X-Plex-Token': target.token ?? '', Accept: 'application/json' });

export function plexSectionsRequest(target: NotifyTarget): NotifyRequest {
  return { method: 'GET', url: endpoint(target.url, '/library/sections'), headers: plexHeaders(target) };
}

const inside = (path: string, folder: string) => {
  const f = folder.replace(/\/+$/, '');
  return path === f || path.startsWith(`${f}/`);
};

/**
 * The key of the Plex library section one of whose locations holds `folder` (the deepest such
 * location, should sections nest), or null. `answer` is /library/sections as JSON.
 */
export function plexSectionFor(answer: unknown, folder: string): string | null {
  const dirs = (answer as { MediaContainer?: { Directory?: unknown } } | null)?.MediaContainer?.Directory;
  if (!Array.isArray(dirs)) return null;
  let best: { key: string; depth: number } | null = null;
  for (const dir of dirs as { key?: unknown; Location?: unknown }[]) {
    if (typeof dir?.key !== 'string' || !Array.isArray(dir.Location)) continue;
    for (const loc of dir.Location as { path?: unknown }[]) {
      if (typeof loc?.path !== 'string' || !inside(folder, loc.path)) continue;
      if (!best || loc.path.length > best.depth) best = { key: dir.key, depth: loc.path.length };
    }
  }
  return best?.key ?? null;
}

/** A partial scan of one folder of one section. */
export function plexRefreshRequest(target: NotifyTarget, sectionKey: string, folder: string): NotifyRequest {
  return {
    method: 'GET',
    url: endpoint(target.url, `/library/sections/${encodeURIComponent(sectionKey)}/refresh`, { path: folder }),
    headers: plexHeaders(target),
  };
}

/**
 * Kodi scans one directory per call and ignores a second call while a scan runs, so it is asked once,
 * for the folder holding every import. Its web server's user and password, when set, come from the
 * URL (`http://kodi:pass@host:8080`), sent as Basic authentication.
 */
/** Basic authentication from the user and password of a target's URL (`http://user:pass@host`), if any. */
function urlBasicAuth(target: NotifyTarget): Record<string, string> {
  const url = new URL(target.url);
  if (!url.username && !url.password) return {};
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

export function kodiScanRequest(target: NotifyTarget, imports: readonly NotifyImport[]): NotifyRequest {
  const headers = urlBasicAuth(target);
  const directory = `${commonFolder(importFolders(imports)).replace(/\/$/, '')}/`;
  return jsonPost(endpoint(target.url, '/jsonrpc'), { jsonrpc: '2.0', method: 'VideoLibrary.Scan', params: { directory }, id: 1 }, headers);
}

export const WEBHOOK_SECRET_HEADER = 'X-MO-Secret';

export function webhookRequest(target: NotifyTarget, notice: Notice): NotifyRequest {
  const url = new URL(target.url);
  url.username = '';
  url.password = '';
  const body =
    notice.undone === undefined
      ? { event: 'imported', pass: notice.pass, imports: notice.imports }
      : { event: 'undone', pass: notice.pass, import: notice.undone, imports: notice.imports };
  return jsonPost(url.toString(), body, target.secret ? { [WEBHOOK_SECRET_HEADER]: target.secret } : {});
}

// Discord's limits on what a webhook message may carry (characters); over one, it answers 400.
export const DISCORD_TITLE_MAX = 256;
export const DISCORD_DESCRIPTION_MAX = 4096;
const DISCORD_COLOR = { imported: 0x2e7d32, undone: 0xf9a825, test: 0x1565c0 } as const;

/**
 * Discord renders Markdown in an embed: a name's `*`, `_`, `|` or `[x](y)` would turn into
 * formatting, spoilers or links, and `<@…>`/`@everyone` into mentions. Each such character is
 * escaped with a backslash (Discord then shows it as typed).
 */
export function discordEscape(text: string): string {
  return text.replace(/[\\*_~`|>#<\-[\]():@]/g, '\\$&');
}

/**
 * A Discord webhook: one embed, no `content`. `allowed_mentions` with nothing to parse means no
 * name can ping anyone, whatever escaping leaves. The webhook URL is used as given (its token is
 * part of the path); Discord answers 204.
 */
export function discordRequest(target: NotifyTarget, message: ChatMessage): NotifyRequest {
  const url = new URL(target.url);
  url.username = '';
  url.password = '';
  const more = message.more > 0 ? [`…and ${message.more} more`] : [];
  const description = truncate([...message.lines.map(discordEscape), ...more].join('\n'), DISCORD_DESCRIPTION_MAX);
  const embed = { title: truncate(message.title, DISCORD_TITLE_MAX), description, color: DISCORD_COLOR[message.event], timestamp: message.at };
  return jsonPost(url.toString(), { allowed_mentions: { parse: [] }, embeds: [embed] });
}

const NTFY_TAGS = { imported: ['inbox_tray'], undone: ['rewind'], test: ['white_check_mark'] } as const;

/**
 * ntfy: the target's URL is its topic URL (`https://ntfy.sh/<topic>`); the message is published
 * as JSON to the server's root, the form that carries any title (a header would have to be ASCII,
 * and "Amélie (2001)" is not). An access token goes as Bearer, a user and password in the URL as
 * Basic.
 */
export function ntfyRequest(target: NotifyTarget, message: ChatMessage): NotifyRequest {
  const url = new URL(target.url);
  const parts = url.pathname.split('/');
  if (parts.at(-1) === '') parts.pop();
  const topic = decodeURIComponent(parts.pop() ?? '');
  const root = new URL(endpoint(target.url, ''));
  root.pathname = `${parts.join('/')}/`;
  root.search = '';
  const auth = target.token ? { Authorization: `Bearer ${target.token}` } : urlBasicAuth(target);
  return jsonPost(root.toString(), { topic, title: message.title, message: plainText(message), tags: NTFY_TAGS[message.event], priority: 3 }, auth);
}

/**
 * Gotify: POST /message with the application's token in X-Gotify-Key (a header, not `?token=`,
 * which proxies and the server itself write to their logs).
 */
export function gotifyRequest(target: NotifyTarget, message: ChatMessage): NotifyRequest {
  return jsonPost(endpoint(target.url, '/message'), { title: message.title, message: plainText(message), priority: 5 }, { 'X-Gotify-Key': target.token ?? '' });
}

const APPRISE_TYPE = { imported: 'success', undone: 'info', test: 'info' } as const;

/**
 * Apprise API: with a configuration key (`token`), POST /notify/<key> tells the services saved
 * under it; without, POST /notify tells the server's default ones (APPRISE_STATELESS_URLS). The
 * Apprise URLs themselves, full of other services' secrets, are never kept here.
 */
export function appriseRequest(target: NotifyTarget, message: ChatMessage): NotifyRequest {
  const path = target.token ? `/notify/${encodeURIComponent(target.token)}` : '/notify';
  return jsonPost(
    endpoint(target.url, path),
    { title: message.title, body: plainText(message), type: APPRISE_TYPE[message.event], format: 'text' },
    urlBasicAuth(target),
  );
}

export const CHAT_KINDS = ['discord', 'ntfy', 'gotify', 'apprise'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];
export const isChatKind = (kind: NotifyTarget['kind']): kind is ChatKind => (CHAT_KINDS as readonly string[]).includes(kind);

export function chatRequest(target: NotifyTarget & { kind: ChatKind }, message: ChatMessage): NotifyRequest {
  switch (target.kind) {
    case 'discord':
      return discordRequest(target, message);
    case 'ntfy':
      return ntfyRequest(target, message);
    case 'gotify':
      return gotifyRequest(target, message);
    case 'apprise':
      return appriseRequest(target, message);
  }
}

/**
 * What a test of a media server or webhook asks: something each answers only to the right key,
 * and that changes nothing (no library scan, no import announced to a webhook's receiver).
 */
export function mediaServerTestRequest(target: NotifyTarget): NotifyRequest {
  switch (target.kind) {
    case 'jellyfin':
    case 'emby': {
      const { headers } = mediaUpdatedRequest(target, { pass: '', imports: [] });
      const { 'Content-Type': _json, ...auth } = headers;
      return { method: 'GET', url: endpoint(target.url, '/System/Info'), headers: auth };
    }
    case 'plex':
      return plexSectionsRequest(target);
    case 'kodi':
      return { ...kodiScanRequest(target, []), body: JSON.stringify({ jsonrpc: '2.0', method: 'JSONRPC.Ping', id: 1 }) };
    default: {
      const url = new URL(target.url);
      url.username = '';
      url.password = '';
      return jsonPost(url.toString(), { event: 'test', target: target.name }, target.secret ? { [WEBHOOK_SECRET_HEADER]: target.secret } : {});
    }
  }
}

/**
 * The strings of a target that must never appear in what is logged or shown: its secrets, the
 * password of its URL, and the parts of the URL that work as one (a Discord webhook's token, an
 * ntfy topic, which anyone who knows it can read).
 */
export function targetSecrets(target: NotifyTarget): string[] {
  const url = new URL(target.url);
  const path = url.pathname
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  const inPath = target.kind === 'discord' || target.kind === 'ntfy' ? path.slice(-1) : [];
  const all = [target.api_key, target.token, target.secret, decodeURIComponent(url.password), ...inPath];
  return all.filter((s): s is string => typeof s === 'string' && s.length >= 4);
}

export const EXCERPT_CHARS = 200;

/**
 * A short piece of what a target answered, as a person can read it in a message: tags and control
 * characters gone, spaces folded, the target's secrets (which some servers echo back) masked.
 */
export function answerExcerpt(body: string, secrets: readonly string[]): string {
  let text = body.slice(0, 20_000).replace(/<[^>]*>/g, ' ');
  for (const s of secrets) text = text.split(s).join('***');
  return truncate(
    text
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    EXCERPT_CHARS,
  );
}

/**
 * Why an answer means the target was not told, or null. Redirects count as failures: none is
 * followed, so a target cannot send the request (and its token) elsewhere. Kodi answers JSON-RPC
 * errors with status 200.
 */
export function answerProblem(
  kind: NotifyTarget['kind'],
  status: number,
  body: string,
  opts: { secrets?: readonly string[]; kodiResult?: string } = {},
): string | null {
  if (status >= 300 && status < 400) return `answered with a redirect (HTTP ${status}), which is not followed`;
  if (status < 200 || status >= 300) {
    const excerpt = answerExcerpt(body, opts.secrets ?? []);
    return excerpt ? `answered HTTP ${status}: ${excerpt}` : `answered HTTP ${status}`;
  }
  if (kind !== 'kodi') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'answered something other than JSON-RPC';
  }
  const error = (parsed as { error?: { message?: unknown } } | null)?.error;
  if (error) return `answered a JSON-RPC error: ${typeof error.message === 'string' ? answerExcerpt(error.message, opts.secrets ?? []) : 'unknown'}`;
  const expected = opts.kodiResult ?? 'OK';
  return (parsed as { result?: unknown } | null)?.result === expected ? null : `did not answer "${expected}"`;
}
