import { describe, expect, it } from 'vitest';
import type { IndexItem, TranscodeStatus } from '@mo/shared';
import { queuedEntry } from './transcode-entries.ts';
import { claimable, listing, listingOf, runOrder, transcodeQueue, withStatus } from './transcoder-queue.ts';

function item(path: string, extra: Partial<IndexItem> = {}): IndexItem {
  const ext = path.slice(path.lastIndexOf('.')).toLowerCase();
  return {
    path,
    drive: 'd',
    section: 'movies',
    root: '/m/Movies',
    folder: '/m/Movies/X',
    bytes: 100,
    mtime_ms: 0,
    ext,
    type: 'video',
    title: 'X',
    year: 2000,
    season: null,
    episodes: [],
    air_date: null,
    extra: false,
    nfo: null,
    ...extra,
  };
}

const status = (s: TranscodeStatus['status'], extra: Partial<TranscodeStatus> = {}): TranscodeStatus => ({
  ...queuedEntry('2026-01-01T00:00:00.000Z'),
  status: s,
  job_id: '1',
  ...extra,
});

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

describe('withStatus and claimable', () => {
  const queue = transcodeQueue(items);
  const transcodes = { '/m/Movies/A/A.mkv': status('done'), '/m/Movies/C/C.MKV': status('failed'), '/elsewhere.mkv': status('running') };

  it('shows queued for entries nobody started, else the recorded status', () => {
    expect(withStatus(queue, transcodes).map((e) => e.status)).toEqual(['done', 'failed', 'queued', 'queued']);
  });

  it('takes the first entry nobody started; failed ones are not retried by themselves', () => {
    expect(claimable(queue, transcodes)[0]?.path).toBe('/m/TV/Lost/S01E01.m4v');
    expect(claimable(queue, {})[0]?.path).toBe('/m/Movies/A/A.mkv');
    expect(claimable([], {})).toEqual([]);
  });

  it('skips entries whose job already waits', () => {
    expect(claimable(queue, { '/m/Movies/A/A.mkv': status('queued') }).map((e) => e.path)).toEqual([
      '/m/Movies/C/C.MKV',
      '/m/TV/Lost/S01E01.m4v',
      '/m/TV/Lost/S01E02.avi',
    ]);
  });
});

describe('run order and listing', () => {
  const queue = transcodeQueue(items);
  const records = {
    '/m/TV/Lost/S01E02.avi': { ...queuedEntry('t'), priority: 5 },
    '/m/Movies/C/C.MKV': status('queued', { job_id: 'tr-c', priority: 5 }),
    '/m/Movies/A/A.mkv': status('running', { job_id: 'tr-a' }),
    '/m/TV/Lost/S01E01.m4v': { ...queuedEntry('t'), priority: -1 },
  };

  it('runs higher priorities first, whether or not their job already waits', () => {
    expect(runOrder(queue, records).map((e) => e.path)).toEqual(['/m/Movies/C/C.MKV', '/m/TV/Lost/S01E02.avi', '/m/TV/Lost/S01E01.m4v']);
  });

  it('among equal priorities, waiting jobs in the order they were queued or reprioritized, then the entries without a job by path', () => {
    const equal = {
      '/m/TV/Lost/S01E02.avi': status('queued', { job_id: 'tr-2', updated_at: '2026-01-01T00:00:01.000Z' }),
      '/m/Movies/C/C.MKV': status('queued', { job_id: 'tr-c', updated_at: '2026-01-01T00:00:02.000Z' }),
    };
    expect(runOrder(queue, equal).map((e) => e.path)).toEqual(['/m/TV/Lost/S01E02.avi', '/m/Movies/C/C.MKV', '/m/Movies/A/A.mkv', '/m/TV/Lost/S01E01.m4v']);
    const sameTime = { ...equal, '/m/TV/Lost/S01E02.avi': { ...equal['/m/TV/Lost/S01E02.avi'], updated_at: '2026-01-01T00:00:02.000Z' } };
    expect(
      runOrder(queue, sameTime)
        .map((e) => e.path)
        .slice(0, 2),
    ).toEqual(['/m/Movies/C/C.MKV', '/m/TV/Lost/S01E02.avi']);
  });

  it('lists every entry in path order with its place in line, priority, and the progress of a running one', () => {
    const progress = new Map([['tr-a', { percent: 50, speed: 2, out_time_seconds: 30, eta_seconds: 15, encoder: 'libx264' }]]);
    const listed = [...listing(queue, records, progress)];
    expect(listed.map((e) => [e.path, e.status, e.position, e.priority, e.job_id])).toEqual([
      ['/m/Movies/A/A.mkv', 'running', null, 0, 'tr-a'],
      ['/m/Movies/C/C.MKV', 'queued', 1, 5, 'tr-c'],
      ['/m/TV/Lost/S01E01.m4v', 'queued', 3, -1, null],
      ['/m/TV/Lost/S01E02.avi', 'queued', 2, 5, null],
    ]);
    expect(listed[0]!.progress).toEqual(progress.get('tr-a'));
    expect(listed.slice(1).every((e) => e.progress === null)).toBe(true);
  });

  it('makes each listed entry as it is reached, the same on each reading, and finds one entry by path', () => {
    const listed = listing(queue, records, new Map());
    expect(Array.isArray(listed)).toBe(false);
    expect([...listed]).toEqual([...listed]);
    expect(listingOf('/m/TV/Lost/S01E02.avi', queue, records)).toEqual([...listed].find((e) => e.path === '/m/TV/Lost/S01E02.avi'));
    expect(listingOf('/m/nowhere.mkv', queue, records)).toBeUndefined();
  });

  it('shows the result, output and kept original of a done entry, and the reason of a failed one', () => {
    const snap = { bytes: 5, streams: [] };
    const listed = [
      ...listing(
        queue,
        {
          '/m/Movies/A/A.mkv': status('done', { output: '/m/Movies/A/A.mp4', original: 'kept', before: snap, after: snap, seconds: 4 }),
          '/m/Movies/C/C.MKV': status('failed', { error: 'boom' }),
        },
        new Map(),
      ),
    ];
    expect(listed[0]).toMatchObject({
      status: 'done',
      output: '/m/Movies/A/A.mp4',
      original: 'kept',
      result: { before: snap, after: snap, seconds: 4 },
      position: null,
    });
    expect(listed[1]).toMatchObject({ status: 'failed', error: 'boom', result: null, output: null });
  });
});
