import type { Schemas } from '@mo/api-client';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  let v = n;
  let u = 0;
  while (v >= 1000 && u < UNITS.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 2 : 1)} ${UNITS[u]}`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h ${two(m)}m` : m > 0 ? `${m}m ${two(s % 60)}s` : `${s}s`;
}

export function episodeCode(season: number | null, episodes: readonly number[] | number | null): string {
  const eps = episodes === null ? [] : Array.isArray(episodes) ? episodes : [episodes as number];
  const s = season === null ? '' : `S${String(season).padStart(2, '0')}`;
  return s + eps.map((e) => `E${String(e).padStart(2, '0')}`).join('');
}

/** What a progress bar shows: the fields a transcode's worker reports, worked out for other jobs. */
export type Progress = Pick<NonNullable<Schemas['TranscodeProgress']>, 'percent' | 'speed' | 'eta_seconds'>;

/** ffmpeg's progress (percent done, speed as a multiple of real time) read as percent, speed and ETA. */
export function readProgress(p: unknown): Progress | null {
  if (typeof p === 'number') return { percent: p, speed: null, eta_seconds: null };
  if (typeof p !== 'object' || p === null) return null;
  const o = p as Record<string, unknown>;
  const percent = typeof o.percent === 'number' ? o.percent : null;
  const speed = typeof o.speed === 'number' && o.speed > 0 ? o.speed : null;
  const done = typeof o.out_time_seconds === 'number' ? o.out_time_seconds : null;
  // A transcode's worker reports its own ETA; other jobs' is worked out from percent and speed.
  let eta: number | null = typeof o.eta_seconds === 'number' && o.eta_seconds >= 0 ? o.eta_seconds : null;
  if (eta === null && percent !== null && percent > 0 && speed !== null && done !== null) {
    const total = done / (percent / 100);
    eta = (total - done) / speed;
  }
  return { percent, speed, eta_seconds: eta };
}

/** What a scanner pass or a library scan reports as its progress, in words; null for anything else. */
export function progressNote(p: unknown): string | null {
  if (typeof p !== 'object' || p === null) return null;
  const o = p as Record<string, unknown>;
  if (typeof o.moved === 'number' && typeof o.planned === 'number') return `${o.moved} of ${o.planned} moved`;
  if (typeof o.files === 'number') return `${o.files.toLocaleString('en')} files`;
  return null;
}

/** A path cut where it stops mattering: `head` is what a phone leaves out, `tail` what it shows. */
export interface PathParts {
  head: string;
  tail: string;
}

/**
 * The part of `path` worth reading on a narrow screen: below the deepest root it lies in (a drive,
 * the downloads folder), the rest from there; elsewhere, the file name. head + tail is always the
 * whole path, so revealing the head shows it exactly as stored.
 */
export function splitPath(path: string, roots: readonly string[]): PathParts {
  const sep = path.includes('/') ? '/' : '\\';
  let best = '';
  for (const raw of roots) {
    const root = raw.endsWith(sep) ? raw.slice(0, -1) : raw;
    // A root of "/" (or "") would keep the whole path: only a folder below it shortens anything.
    if (root.length > best.length && path.startsWith(root + sep) && path.length > root.length + 1) best = root;
  }
  if (best) return { head: path.slice(0, best.length + 1), tail: path.slice(best.length + 1) };
  const cut = path.lastIndexOf(sep, path.length - 2);
  return cut <= 0 ? { head: '', tail: path } : { head: path.slice(0, cut + 1), tail: path.slice(cut + 1) };
}
