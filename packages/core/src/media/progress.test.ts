import { describe, expect, it } from 'vitest';
import { progressReader, type FfmpegProgress } from './progress.ts';

const block = (outTimeUs: string, speed: string, progress: string) => [
  'frame=10',
  'fps=0.00',
  `out_time_us=${outTimeUs}`,
  `out_time_ms=${outTimeUs}`,
  'out_time=00:00:01.000000',
  `speed=${speed}`,
  `progress=${progress}`,
];

describe('progressReader', () => {
  it('turns each -progress block into percent and speed', () => {
    const seen: FfmpegProgress[] = [];
    const feed = progressReader(40, (p) => seen.push(p));
    for (const line of [...block('N/A', 'N/A', 'continue'), ...block('10000000', '2.5x', 'continue'), ...block('39990000', '3.01x', 'end')]) feed(line);
    expect(seen).toEqual([
      { percent: 0, speed: null, out_time_seconds: 0, done: false },
      { percent: 25, speed: 2.5, out_time_seconds: 10, done: false },
      { percent: 100, speed: 3.01, out_time_seconds: 39.99, done: true },
    ]);
  });

  it('gives no percent without a duration, and never more than 100', () => {
    const seen: FfmpegProgress[] = [];
    progressReader(null, (p) => seen.push(p))('progress=continue');
    const over = progressReader(1, (p) => seen.push(p));
    for (const line of block('5000000', '1x', 'continue')) over(line);
    expect(seen.map((p) => p.percent)).toEqual([null, 100]);
  });
});
