export interface FfmpegProgress {
  /** 0–100 of the source's duration; null when the duration is unknown. */
  percent: number | null;
  /** Times real time, e.g. 2.5 for "2.5x". */
  speed: number | null;
  out_time_seconds: number;
  done: boolean;
}

/**
 * A line handler for `ffmpeg -progress pipe:1`: it prints `key=value` lines in blocks that end
 * with `progress=continue|end`; each finished block becomes one report.
 */
export function progressReader(durationSeconds: number | null, onProgress: (p: FfmpegProgress) => void): (line: string) => void {
  let outTimeUs = 0;
  let speed: number | null = null;
  return (line) => {
    const eq = line.indexOf('=');
    if (eq < 0) return;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key === 'out_time_us') {
      // "N/A" until the first packet is written.
      const us = Number(value);
      if (Number.isFinite(us) && us >= 0) outTimeUs = us;
    } else if (key === 'speed') {
      const x = Number.parseFloat(value);
      speed = Number.isFinite(x) ? x : null;
    } else if (key === 'progress') {
      const seconds = outTimeUs / 1e6;
      const done = value === 'end';
      const percent = durationSeconds && durationSeconds > 0 ? Math.min(100, done ? 100 : (seconds / durationSeconds) * 100) : null;
      onProgress({ percent: percent === null ? null : Math.round(percent * 10) / 10, speed, out_time_seconds: seconds, done });
    }
  };
}

/**
 * Seconds left at the current speed: the media still to encode over how many seconds of it are
 * encoded per second. Unknown until ffmpeg has reported both.
 */
export function etaSeconds(p: Pick<FfmpegProgress, 'percent' | 'speed' | 'out_time_seconds'>): number | null {
  if (p.percent === null || p.speed === null || p.percent <= 0 || p.speed <= 0) return null;
  const total = p.out_time_seconds / (p.percent / 100);
  return Math.max(0, Math.round((total - p.out_time_seconds) / p.speed));
}
