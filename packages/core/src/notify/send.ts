import type { NotifyTarget } from '@mo/shared';
import { noticeMessage, testMessage } from './message.ts';
import {
  answerProblem,
  chatRequest,
  importFolders,
  isChatKind,
  kodiScanRequest,
  mediaUpdatedRequest,
  plexRefreshRequest,
  plexSectionFor,
  plexSectionsRequest,
  mediaServerTestRequest,
  targetSecrets,
  webhookRequest,
  type Notice,
  type NotifyRequest,
} from './requests.ts';

export const NOTIFY_TIMEOUT_MS = 10_000;

/**
 * The most of an answer read: a target (or whatever answers at its URL) could stream without end,
 * and only a status line, an error's first words or Plex's list of sections is ever looked at.
 */
export const ANSWER_LIMIT_BYTES = 1024 * 1024;

/** The answer's text up to `limit` bytes, the rest left unread; null when it went on past that. */
async function cappedText(res: Response, limit: number): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  } catch {
    return '';
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Carries no URL or header: what a target answered may be logged and shown, its token never. */
export class NotifyError extends Error {}

/**
 * The header whose value fetch would refuse (a control character such as a pasted line break, or
 * a character beyond Latin-1), or null. fetch's own error quotes the value, which here is a token.
 */
export function invalidHeader(headers: Record<string, string>): string | null {
  const httpSpace = (c: number) => c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20;
  for (const [name, value] of Object.entries(headers)) {
    // fetch strips HTTP whitespace at either end (a trailing line break passes) and refuses the rest.
    let start = 0;
    let end = value.length;
    while (start < end && httpSpace(value.charCodeAt(start))) start++;
    while (end > start && httpSpace(value.charCodeAt(end - 1))) end--;
    for (let i = start; i < end; i++) {
      const c = value.charCodeAt(i);
      if ((c < 0x20 && c !== 0x09) || c === 0x7f || c > 0xff) return name;
    }
  }
  return null;
}

async function perform(target: NotifyTarget, req: NotifyRequest, timeoutMs: number, kodiResult?: string): Promise<string> {
  const what = `${req.method} ${publicPath(target, req.url)}`;
  const invalid = invalidHeader(req.headers);
  if (invalid !== null)
    throw new NotifyError(
      `${what}: the ${invalid} header is not a valid HTTP header value (a line break or another character HTTP does not allow in the target's api_key, token, secret or URL password); nothing was sent`,
    );
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    // Only a network error's code: other messages of fetch may quote a header, hence a token.
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (e.cause?.code ?? 'the request failed');
    throw new NotifyError(`${what}: ${why}`);
  }
  const body = await cappedText(res, ANSWER_LIMIT_BYTES);
  if (body === null)
    throw new NotifyError(`${what}: answered HTTP ${res.status} with more than ${ANSWER_LIMIT_BYTES / 1024 / 1024} MiB; nothing more was read`);
  const problem = answerProblem(target.kind, res.status, body, { secrets: targetSecrets(target), kodiResult });
  if (problem) throw new NotifyError(`${what}: ${problem}`);
  return body;
}

/** The path of a request as an error names it: a Discord webhook's token and an ntfy topic are secrets. */
function publicPath(target: NotifyTarget, url: string): string {
  const path = new URL(url).pathname;
  return target.kind === 'discord' ? path.replace(/\/[^/]+\/?$/, '/***') : path;
}

/** Tells one target about a pass's imports; throws a NotifyError saying which request failed and how. */
export async function notifyTarget(target: NotifyTarget, notice: Notice, timeoutMs = NOTIFY_TIMEOUT_MS): Promise<void> {
  if (isChatKind(target.kind)) {
    await perform(target, chatRequest({ ...target, kind: target.kind }, noticeMessage(notice, new Date().toISOString())), timeoutMs);
    return;
  }
  switch (target.kind) {
    case 'jellyfin':
    case 'emby':
      await perform(target, mediaUpdatedRequest(target, notice), timeoutMs);
      return;
    case 'kodi':
      await perform(target, kodiScanRequest(target, notice.imports), timeoutMs);
      return;
    case 'webhook':
      await perform(target, webhookRequest(target, notice), timeoutMs);
      return;
    case 'plex': {
      const text = await perform(target, plexSectionsRequest(target), timeoutMs);
      let sections: unknown;
      try {
        sections = JSON.parse(text);
      } catch {
        throw new NotifyError('GET /library/sections: answered something other than JSON');
      }
      const folders = importFolders(notice.imports);
      const missing = folders.filter((f) => plexSectionFor(sections, f) === null);
      if (missing.length > 0) throw new NotifyError(`no Plex library section holds ${missing.join(', ')}`);
      for (const folder of folders) await perform(target, plexRefreshRequest(target, plexSectionFor(sections, folder)!, folder), timeoutMs);
    }
  }
}

/**
 * Checks one target by hand (the Settings page's Test button): a chat service gets a test message;
 * a media server or webhook a request that needs its key but changes nothing (see
 * mediaServerTestRequest). Throws a NotifyError saying what the target answered.
 */
export async function testTarget(target: NotifyTarget, timeoutMs = NOTIFY_TIMEOUT_MS): Promise<void> {
  if (isChatKind(target.kind)) {
    await perform(target, chatRequest({ ...target, kind: target.kind }, testMessage(target.name, new Date().toISOString())), timeoutMs);
    return;
  }
  const text = await perform(target, mediaServerTestRequest(target), timeoutMs, 'pong');
  if (target.kind !== 'plex') return;
  try {
    JSON.parse(text);
  } catch {
    throw new NotifyError('GET /library/sections: answered something other than JSON');
  }
}
