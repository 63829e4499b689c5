import type { Config, RecentEntry } from '@mo/shared';
import { parseQuality, type Quality } from '../parse/quality.ts';
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
  quality: Quality;
}

/** The listing's bounds: a downloads folder pointed at a system folder answers in under a megabyte or two (662 KB at /usr). */
export const MAX_LISTED_FILES = 5000;
/** Folders between the downloads folder and a listed file (`a.mkv`: 0, `Show/Season 1/a.mkv`: 2). */
export const MAX_LISTED_DEPTH = 8;

export interface ListedFile {
  path: string;
  bytes: number;
  modified_at: string;
  settled: boolean;
  media: DownloadMedia | null;
}

export interface DownloadListing {
  files: ListedFile[];
  /** Files were left out: more than MAX_LISTED_FILES, or deeper than MAX_LISTED_DEPTH. */
  truncated: boolean;
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
    quality: parseQuality(rel),
  };
}

const depthOf = (rel: string) => rel.split('/').length - 1;

/**
 * GET /api/downloads `files` from a scanner pass's walk (sorted by path): the first
 * MAX_LISTED_FILES within MAX_LISTED_DEPTH, each settled or not as of `nowMs`.
 */
export function downloadsListing(cfg: Config, files: readonly DownloadFile[], nowMs: number): DownloadListing {
  const videos = new Set(cfg.library.video_extensions);
  const listed: ListedFile[] = [];
  let truncated = false;
  for (const f of files) {
    if (depthOf(f.rel) > MAX_LISTED_DEPTH) {
      truncated = true;
      continue;
    }
    if (listed.length === MAX_LISTED_FILES) {
      truncated = true;
      break;
    }
    listed.push({
      path: f.path,
      bytes: f.size,
      modified_at: new Date(f.mtimeMs).toISOString(),
      settled: isSettled(f.mtimeMs, nowMs, cfg.app.settle_seconds),
      media: mediaOfDownload(f.rel, videos),
    });
  }
  return { files: listed, truncated };
}

/** state.json's `recent` entries whose source lies under the downloads folder. */
export function recentUnder(downloads: string, recent: readonly RecentEntry[]): RecentEntry[] {
  const root = downloads.replace(/\/+$/, '');
  return recent.filter((e) => e.source.startsWith(`${root}/`));
}
