import { describe, expect, it } from 'vitest';
import type { IndexItem, TranscodeStatus } from '@mo/shared';
import { firstQueued, transcodeQueue, withStatus } from './transcoder-queue.ts';

function item(path: string, extra: Partial<IndexItem> = {}): IndexItem {
  const ext = path.slice(path.lastIndexOf('.')).toLowerCase();
  return {
    path, drive: 'd', section: 'movies', root: '/m/Movies', folder: '/m/Movies/X', bytes: 100, mtime_ms: 0, ext,
    type: 'video', title: 'X', year: 2000, season: null, episodes: [], air_date: null, extra: false, nfo: null, ...extra,
  };
}

const status = (s: TranscodeStatus['status']): TranscodeStatus => ({ status: s, job_id: '1', updated_at: '2026-01-01T00:00:00.000Z', output: null, error: null });

const items = [
  item('/m/TV/Lost/S01E02.avi', { section: 'tv', title: 'Lost', bytes: 7 }),
  item('/m/Movies/B/B.mp4'),
  item('/m/Movies/A/A.mkv', { title: 'A' }),
  item('/m/Movies/A/A.en.srt', { type: 'subtitle' }),
  item('/m/Movies/C/C.MKV'),
  item('/m/TV/Lost/S01E01.m4v', { section: 'tv', title: 'Lost' }),
];

describe('transcodeQueue', () => {
  it('lists indexed video that is not .mp4, by path, with what the index knows', () => {
    expect(transcodeQueue(items)).toEqual([
      { path: '/m/Movies/A/A.mkv', ext: '.mkv', bytes: 100, kind: 'movie', title: 'A' },
      { path: '/m/Movies/C/C.MKV', ext: '.mkv', bytes: 100, kind: 'movie', title: 'X' },
      { path: '/m/TV/Lost/S01E01.m4v', ext: '.m4v', bytes: 100, kind: 'episode', title: 'Lost' },
      { path: '/m/TV/Lost/S01E02.avi', ext: '.avi', bytes: 7, kind: 'episode', title: 'Lost' },
    ]);
  });

  it('does not depend on the order of the walk', () => {
    expect(transcodeQueue([...items].reverse())).toEqual(transcodeQueue(items));
  });
});

describe('withStatus and firstQueued', () => {
  const queue = transcodeQueue(items);
  const transcodes = { '/m/Movies/A/A.mkv': status('done'), '/m/Movies/C/C.MKV': status('failed'), '/elsewhere.mkv': status('running') };

  it('shows queued for entries nobody started, else the recorded status', () => {
    expect(withStatus(queue, transcodes).map((e) => e.status)).toEqual(['done', 'failed', 'queued', 'queued']);
  });

  it('takes the first entry nobody started; failed ones are not retried by themselves', () => {
    expect(firstQueued(queue, transcodes)?.path).toBe('/m/TV/Lost/S01E01.m4v');
    expect(firstQueued(queue, {})?.path).toBe('/m/Movies/A/A.mkv');
    expect(firstQueued([], {})).toBeNull();
  });
});
