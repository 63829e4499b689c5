import { posix } from 'node:path';
import type { NotifyTarget } from '@mo/shared';

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
export function kodiScanRequest(target: NotifyTarget, imports: readonly NotifyImport[]): NotifyRequest {
  const url = new URL(target.url);
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
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

/**
 * Why an answer means the target was not told, or null. Redirects count as failures: none is
 * followed, so a target cannot send the request (and its token) elsewhere. Kodi answers JSON-RPC
 * errors with status 200.
 */
export function answerProblem(kind: NotifyTarget['kind'], status: number, body: string): string | null {
  if (status >= 300 && status < 400) return `answered with a redirect (HTTP ${status}), which is not followed`;
  if (status < 200 || status >= 300) return `answered HTTP ${status}`;
  if (kind !== 'kodi') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'answered something other than JSON-RPC';
  }
  const error = (parsed as { error?: { message?: unknown } } | null)?.error;
  if (error) return `answered a JSON-RPC error: ${typeof error.message === 'string' ? error.message : 'unknown'}`;
  return (parsed as { result?: unknown } | null)?.result === 'OK' ? null : 'did not answer "OK"';
}
