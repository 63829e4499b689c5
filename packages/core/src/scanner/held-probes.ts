import { lstat } from 'node:fs/promises';
import { qualityFromHeight, type Resolution } from '../parse/quality.ts';
import type { MediaProbe } from '../media/probe.ts';

/** ffprobe's view of a file (probeFile); a file it cannot read rejects. */
export type ProbeFn = (path: string) => Promise<Pick<MediaProbe, 'streams'>>;

/**
 * The resolutions of held library videos whose names give none, for a plan, which is pure and
 * cannot wait: it reads what is known, the pass probes what it asked for and plans again.
 */
export interface HeldProbes {
  /** What the plan reads: undefined where not probed yet, null where the probe could not tell. */
  resolution(path: string): Resolution | null | undefined;
  /** Probes those paths (each once per size and modification time, whatever the pass). */
  probe(paths: readonly string[]): Promise<void>;
}

/** Entries kept between passes: a library of this many held files probed keeps its answers. */
const KEPT = 5000;

const kept = new Map<string, Resolution | null>();

/** The resolution of a probe's first video stream (cover art is none), by its height and width. */
export function probedResolution(probe: Pick<MediaProbe, 'streams'>): Resolution | null {
  const video = probe.streams.find((s) => s.type === 'video' && s.height !== null);
  return video ? qualityFromHeight(video.height, video.width) : null;
}

/**
 * One pass's answers, over a cache kept for the process by path, size and modification time: a
 * file replaced or changed since is probed anew. A probe that fails (not media, ffprobe missing,
 * a time-out) is an unknown quality, which is never an upgrade.
 */
export function heldProbes(probe: ProbeFn): HeldProbes {
  const answers = new Map<string, Resolution | null>();
  return {
    resolution: (path) => answers.get(path),
    async probe(paths) {
      for (const path of paths) {
        if (answers.has(path)) continue;
        const st = await lstat(path).catch(() => null);
        if (!st?.isFile()) {
          answers.set(path, null);
          continue;
        }
        const key = `${path}\0${st.size}\0${st.mtimeMs}`;
        let found = kept.get(key);
        if (found === undefined) {
          found = await probe(path).then(probedResolution, () => null);
          if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
          kept.set(key, found);
        }
        answers.set(path, found);
      }
    },
  };
}
