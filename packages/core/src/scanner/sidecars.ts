import { stemOf } from './download-rules.ts';
import { readSubtitleTags, type SubtitleTags } from '../languages/subtitle-tags.ts';

export interface PathParts {
  /** Path below the downloads folder, `/`-separated. */
  rel: string;
}

export interface Attached<T> {
  file: T;
  /** null for an .nfo, which keeps no tags. */
  tags: SubtitleTags | null;
}

const SUBS_FOLDER = /^(?:subs|subtitles|sub)$/i;
const EPISODE_TAG = /s(\d{1,4})[ ._-]*e(\d{1,4})/i;

function split(rel: string): { dir: string; name: string } {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? { dir: '', name: rel } : { dir: rel.slice(0, slash), name: rel.slice(slash + 1) };
}

function episodeTag(name: string): string | null {
  const m = EPISODE_TAG.exec(name);
  return m ? `${Number(m[1])}x${Number(m[2])}` : null;
}

/** A sidecar naming another episode than the video (`S01E01.srt` beside `S01E02.mkv`) is not its own. */
function sameEpisode(sidecar: string, video: string): boolean {
  const a = episodeTag(sidecar);
  const b = episodeTag(video);
  return a === null || b === null || a === b;
}

/** The longest video stem the sidecar's stem starts with, followed by a separator or nothing. */
function byPrefix<T extends PathParts>(stem: string, videos: readonly T[]): { video: T; rest: string } | null {
  const lower = stem.toLowerCase();
  let best: { video: T; rest: string; length: number } | null = null;
  for (const v of videos) {
    const vs = stemOf(split(v.rel).name).toLowerCase();
    if (!lower.startsWith(vs)) continue;
    const next = lower.charAt(vs.length);
    if (next !== '' && !/[._ -]/.test(next)) continue;
    if (!best || vs.length > best.length) best = { video: v, rest: stem.slice(vs.length), length: vs.length };
  }
  return best;
}

/**
 * Which video each subtitle and .nfo belongs to. In order: a sidecar whose name starts with a
 * video's name in the same folder; one in a `Subs` folder (or `Subs/<video name>/`) beside the
 * videos; the only video of a release folder. Loose files in the downloads folder itself are
 * matched by name only, since unrelated downloads share it.
 */
export function attachSidecars<T extends PathParts>(videos: readonly T[], sidecars: readonly T[]): { attached: Map<T, Attached<T>[]>; orphans: T[] } {
  const byDir = new Map<string, T[]>();
  for (const v of videos) {
    const { dir } = split(v.rel);
    let list = byDir.get(dir);
    if (!list) byDir.set(dir, (list = []));
    list.push(v);
  }
  const attached = new Map<T, Attached<T>[]>();
  const orphans: T[] = [];
  const attach = (video: T, file: T, tags: SubtitleTags | null) => {
    let list = attached.get(video);
    if (!list) attached.set(video, (list = []));
    list.push({ file, tags });
  };

  for (const s of sidecars) {
    const { dir, name } = split(s.rel);
    const stem = stemOf(name);
    const isNfo = name.toLowerCase().endsWith('.nfo');
    const tagsOf = (text: string) => (isNfo ? null : readSubtitleTags(text).tags);

    const local = byPrefix(stem, byDir.get(dir) ?? []);
    if (local) {
      attach(local.video, s, tagsOf(local.rest));
      continue;
    }

    const segments = dir === '' ? [] : dir.split('/');
    const subsAt = segments.findIndex((d, i) => SUBS_FOLDER.test(d) && i >= segments.length - 2);
    if (subsAt >= 0) {
      const videoDir = segments.slice(0, subsAt).join('/');
      const inner = segments[subsAt + 1];
      const candidates = (byDir.get(videoDir) ?? []).filter((v) => sameEpisode(inner ?? name, split(v.rel).name));
      const named = inner === undefined ? null : candidates.find((v) => stemOf(split(v.rel).name).toLowerCase() === inner.toLowerCase());
      const prefixed = byPrefix(stem, candidates);
      const video = named ?? prefixed?.video ?? (candidates.length === 1 ? candidates[0]! : null);
      if (video) {
        attach(video, s, tagsOf(prefixed && !named ? prefixed.rest : stem));
        continue;
      }
    }

    const here = byDir.get(dir) ?? [];
    if (dir !== '' && here.length === 1 && sameEpisode(name, split(here[0]!.rel).name)) {
      attach(here[0]!, s, tagsOf(stem));
      continue;
    }
    orphans.push(s);
  }
  return { attached, orphans };
}
