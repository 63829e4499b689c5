import type { Config, RecentEntry } from '@mo/shared';
import { parseReleaseName } from '../parse/release-name.ts';
import { extensionOf, isSettled } from './download-rules.ts';
import type { DownloadFile } from './plan-pass.ts';

export interface DownloadMedia {
  kind: 'movie' | 'episode';
  title: string;
  year: number | null;
  season: number | null;
  episodes: number[] | null;
  air_date: string | null;
  country: string | null;
}

export interface DownloadListing {
  files: { path: string; bytes: number; modified_at: string; settled: boolean; media: DownloadMedia | null }[];
  recent: RecentEntry[];
}

/** What a video's name parses to; null for anything else (subtitles, partial downloads, archives). */
function mediaOfDownload(rel: string, videoExtensions: ReadonlySet<string>): DownloadMedia | null {
  if (!videoExtensions.has(extensionOf(rel))) return null;
  const p = parseReleaseName(rel);
  if (!p) return null;
  const episode = p.kind === 'episode';
  return {
    kind: p.kind,
    title: p.title,
    year: p.year,
    season: episode ? p.season : null,
    episodes: episode ? p.episodes : null,
    air_date: episode ? p.air_date : null,
    country: episode ? p.country : null,
  };
}

/** GET /api/downloads from a walk of the downloads folder and state.json's `recent`. */
export function downloadsListing(cfg: Config, files: readonly DownloadFile[], recent: readonly RecentEntry[], nowMs: number): DownloadListing {
  const videos = new Set(cfg.library.video_extensions);
  const root = cfg.paths.downloads.replace(/\/+$/, '');
  return {
    files: files.map((f) => ({
      path: f.path,
      bytes: f.size,
      modified_at: new Date(f.mtimeMs).toISOString(),
      settled: isSettled(f.mtimeMs, nowMs, cfg.app.settle_seconds),
      media: mediaOfDownload(f.rel, videos),
    })),
    recent: recent.filter((e) => e.source.startsWith(`${root}/`)),
  };
}
