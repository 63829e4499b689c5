import { lstat } from 'node:fs/promises';
import type { z } from 'zod';
import { SETTLEABLE_REASONS, type Config, type pendingImportSchema } from '@mo/shared';
import type { HistoryStore } from '../history/history-log.ts';
import { importedLookup, type SeenFile } from '../history/imported.ts';
import { fileType } from './download-rules.ts';
import { listPassFiles } from './pass-file.ts';
import type { PassesStore } from './pass-list.ts';
import type { ScanResult } from './run-pass.ts';

export type PendingImport = z.infer<typeof pendingImportSchema>;

const settleable = new Set<string>(SETTLEABLE_REASONS);

function settleableVideos(pass: Pick<ScanResult, 'skipped'>, videoExtensions: readonly string[]) {
  const types = { videoExtensions: new Set(videoExtensions), subtitleExtensions: new Set<string>() };
  return pass.skipped.filter((s) => settleable.has(s.reason) && fileType(s.source, types) === 'video');
}

/**
 * The videos a pass skipped for a reason a person can settle (`Import as…`), as they are now: gone
 * or imported since (the history knows a link or copy), they are left out. Sidecars go with their
 * video and a subtitle without one has nothing to be imported as, so only videos are listed.
 */
export function pendingOf(
  pass: Pick<ScanResult, 'skipped'>,
  videoExtensions: readonly string[],
  now: (path: string) => SeenFile | null,
  imported: (file: SeenFile) => boolean,
): PendingImport[] {
  const out: PendingImport[] = [];
  for (const s of settleableVideos(pass, videoExtensions)) {
    const file = now(s.source);
    if (!file || imported(file)) continue;
    out.push({ path: s.source, bytes: file.size, reason: s.reason as PendingImport['reason'], detail: s.detail ?? null, candidates: s.candidates ?? [] });
  }
  return out;
}

/** The newest whole pass whose file can be read (a pass of chosen downloads saw only those), or null before the first. */
async function latestPass(passes: PassesStore): Promise<ScanResult | null> {
  for (const { name } of await listPassFiles(passes.dir)) {
    const result = await passes.read(name.slice(0, -'.json'.length));
    if (result && !result.chosen) return result;
  }
  return null;
}

/** GET /api/imports/pending: from the latest pass file, each file looked at now. */
export async function readPendingImports(
  cfg: Config,
  stores: { passes: PassesStore; history: HistoryStore },
): Promise<{ items: PendingImport[]; scanned_at: string | null }> {
  const pass = await latestPass(stores.passes);
  if (!pass) return { items: [], scanned_at: null };
  const seen = new Map<string, SeenFile | null>();
  await Promise.all(
    settleableVideos(pass, cfg.library.video_extensions).map(async (s) => {
      const st = await lstat(s.source).catch(() => null);
      seen.set(s.source, st?.isFile() ? { path: s.source, size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino } : null);
    }),
  );
  const imported = importedLookup(await stores.history.read());
  return {
    items: pendingOf(
      pass,
      cfg.library.video_extensions,
      (p) => seen.get(p) ?? null,
      (f) => imported(f) !== null,
    ),
    scanned_at: pass.finished_at,
  };
}
