import type { NotifyTarget } from '@mo/shared';
import {
  answerProblem,
  importFolders,
  kodiScanRequest,
  mediaUpdatedRequest,
  plexRefreshRequest,
  plexSectionFor,
  plexSectionsRequest,
  webhookRequest,
  type Notice,
  type NotifyRequest,
} from './requests.ts';

export const NOTIFY_TIMEOUT_MS = 10_000;

/** Carries no URL or header: what a target answered may be logged and shown, its token never. */
export class NotifyError extends Error {}

async function perform(kind: NotifyTarget['kind'], req: NotifyRequest, timeoutMs: number): Promise<string> {
  const what = `${req.method} ${new URL(req.url).pathname}`;
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
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (e.cause?.code ?? e.message);
    throw new NotifyError(`${what}: ${why}`);
  }
  const body = await res.text().catch(() => '');
  const problem = answerProblem(kind, res.status, body);
  if (problem) throw new NotifyError(`${what}: ${problem}`);
  return body;
}

/** Tells one target about a pass's imports; throws a NotifyError saying which request failed and how. */
export async function notifyTarget(target: NotifyTarget, notice: Notice, timeoutMs = NOTIFY_TIMEOUT_MS): Promise<void> {
  switch (target.kind) {
    case 'jellyfin':
    case 'emby':
      await perform(target.kind, mediaUpdatedRequest(target, notice), timeoutMs);
      return;
    case 'kodi':
      await perform(target.kind, kodiScanRequest(target, notice.imports), timeoutMs);
      return;
    case 'webhook':
      await perform(target.kind, webhookRequest(target, notice), timeoutMs);
      return;
    case 'plex': {
      const text = await perform(target.kind, plexSectionsRequest(target), timeoutMs);
      let sections: unknown;
      try {
        sections = JSON.parse(text);
      } catch {
        throw new NotifyError('GET /library/sections: answered something other than JSON');
      }
      const folders = importFolders(notice.imports);
      const missing = folders.filter((f) => plexSectionFor(sections, f) === null);
      if (missing.length > 0) throw new NotifyError(`no Plex library section holds ${missing.join(', ')}`);
      for (const folder of folders) await perform(target.kind, plexRefreshRequest(target, plexSectionFor(sections, folder)!, folder), timeoutMs);
    }
  }
}
