import { describe, expect, it } from 'vitest';
import { chosenCounts, chosenPaths, groupRenames, groupState, libraryRoots, readApplyAnswer, readCount, toggleGroup, type Rename } from './organize-rows.ts';

const roots = libraryRoots({ drives: [{ path: '/m/disk1/' }], library: { movie_folders: ['Movies'], tv_folders: ['TV'] } });
const isVideo = (p: string) => /\.(mkv|avi)$/.test(p);
const r = (from: string, to: string, kind: Rename['kind'] = 'movie'): Rename => ({ from, to, kind, reason: 'r' });

const RENAMES: Rename[] = [
  r('/m/disk1/Movies/Heat.1995.1080p/heat.mkv', '/m/disk1/Movies/Heat.1995.1080p/Heat (1995).mkv'),
  r('/m/disk1/Movies/Heat.1995.1080p/heat.en.srt', '/m/disk1/Movies/Heat.1995.1080p/Heat (1995).en.srt'),
  r('/m/disk1/Movies/Heat.1995.1080p/heat.nfo', '/m/disk1/Movies/Heat.1995.1080p/Heat (1995).nfo'),
  r('/m/disk1/Movies/Heat.1995.1080p', '/m/disk1/Movies/Heat (1995)', 'folder'),
  r('/m/disk1/TV/The Office/Season 1/the.office.s01e02.mkv', '/m/disk1/TV/The Office/Season 1/The Office - S01E02.mkv', 'episode'),
  r('/m/disk1/TV/The Office/the.office.s02e01.mkv', '/m/disk1/TV/The Office/The Office - S02E01.mkv', 'episode'),
];

describe('libraryRoots', () => {
  it('joins each drive to its movie and TV folders, whatever slashes the config has', () => {
    expect(roots).toEqual([
      { path: '/m/disk1/Movies', holds: 'movie' },
      { path: '/m/disk1/TV', holds: 'series' },
    ]);
  });
});

describe('groupRenames', () => {
  it('groups by the movie or series folder, season folders included, sidecars riding with their video and the folder its own line', () => {
    const groups = groupRenames(RENAMES, roots, isVideo);
    expect(groups.map((g) => [g.folder, g.holds, g.lines.map((l) => [l.rename.from.split('/').pop(), l.sidecars.length])])).toEqual([
      [
        '/m/disk1/Movies/Heat.1995.1080p',
        'movie',
        [
          ['heat.mkv', 2],
          ['Heat.1995.1080p', 0],
        ],
      ],
      [
        '/m/disk1/TV/The Office',
        'series',
        [
          ['the.office.s01e02.mkv', 0],
          ['the.office.s02e01.mkv', 0],
        ],
      ],
    ]);
  });

  it('keeps a path outside every library folder (the config changed since the scan) with its own folder', () => {
    const [g] = groupRenames([r('/elsewhere/Alien/alien.mkv', '/elsewhere/Alien/Alien (1979).mkv')], roots, isVideo);
    expect(g!.folder).toBe('/elsewhere/Alien');
  });
});

describe('what Apply sends', () => {
  const groups = groupRenames(RENAMES, roots, isVideo);
  it('sends no paths (all) while everything is ticked', () => {
    expect(chosenPaths(groups, new Set())).toBeUndefined();
    expect(chosenCounts(groups, new Set())).toEqual({ files: 5, folders: 1 });
  });

  it("sends the ticked lines with their sidecars, leaving an unticked video's sidecars out too", () => {
    const off = new Set(['/m/disk1/TV/The Office/the.office.s02e01.mkv', '/m/disk1/Movies/Heat.1995.1080p/heat.mkv']);
    expect(chosenPaths(groups, off)).toEqual(['/m/disk1/Movies/Heat.1995.1080p', '/m/disk1/TV/The Office/Season 1/the.office.s01e02.mkv']);
    expect(chosenCounts(groups, off)).toEqual({ files: 1, folders: 1 });
  });

  it('ticks and unticks a whole group from its box, partly ticked reading as some', () => {
    const office = groups[1]!;
    const none = toggleGroup(office, new Set());
    expect(groupState(office, none)).toBe('none');
    expect(chosenPaths(groups, none)).toEqual(RENAMES.slice(0, 4).map((x) => x.from));
    const some = new Set([...none].slice(1));
    expect(groupState(office, some)).toBe('some');
    expect(groupState(office, toggleGroup(office, some))).toBe('all');
  });
});

describe('readApplyAnswer', () => {
  it('tells the dry run, a finished job and a queued one apart', () => {
    expect(readApplyAnswer({ dry_run: true, renames: [RENAMES[0]] })).toEqual({ kind: 'dry_run', renames: [RENAMES[0]] });
    expect(readApplyAnswer({ renamed: [{ from: '/a', to: '/b' }], skipped: [{ from: '/c', reason: 'taken' }] })).toEqual({
      kind: 'done',
      result: { renamed: [{ from: '/a', to: '/b' }], skipped: [{ from: '/c', reason: 'taken' }] },
    });
    expect(readApplyAnswer({ job: { queue: 'library', id: '7', state: 'waiting' }, status_url: '/api/jobs/library/7' })).toEqual({
      kind: 'queued',
      job: { queue: 'library', id: '7' },
    });
    expect(readApplyAnswer(null)).toEqual({ kind: 'unknown' });
  });

  it("reads the job's {done, total} progress, and nothing else", () => {
    expect(readCount({ done: 3, total: 42 })).toEqual({ done: 3, total: 42 });
    expect(readCount({ percent: 5 })).toBeNull();
  });
});
