import { describe, expect, it } from 'vitest';
import { STALE_BY_EVENT, STALE_BY_QUEUE, queryKeys, staleAfterJob, type QueryKey } from './query-keys.ts';

type Factory = (...args: string[]) => QueryKey;
interface Family {
  [name: string]: Factory | Family;
}

/** Each key the factory makes, named by its path (`library.files`), with 'x' for its arguments. */
function everyKey(family: Family, prefix = ''): [string, QueryKey][] {
  return Object.entries(family).flatMap(([name, v]) =>
    typeof v === 'function' ? [[`${prefix}${name}`, v('x')] as [string, QueryKey]] : everyKey(v, `${prefix}${name}.`),
  );
}
const KEYS = everyKey(queryKeys as unknown as Family);
const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, i) => key[i] === part);

describe('queryKeys', () => {
  it("puts each family's narrower keys under its all(), so invalidating the family reaches them", () => {
    expect(startsWith(queryKeys.library.files('/m/Alien (1979)'), queryKeys.library.all())).toBe(true);
    expect(startsWith(queryKeys.probe.file('/m/a.mkv'), queryKeys.probe.all())).toBe(true);
    expect(startsWith(queryKeys.jobs.list('scan'), queryKeys.jobs.all())).toBe(true);
    expect(startsWith(queryKeys.jobs.list(''), queryKeys.jobs.all())).toBe(true);
  });

  it('gives every family a first part of its own, so invalidating one never reaches another', () => {
    const families = new Map<string, string>();
    for (const [name, key] of KEYS) {
      const family = name.split('.')[0]!;
      expect(families.get(key[0]!) ?? family, `${name} shares '${key[0]}'`).toBe(family);
      families.set(key[0]!, family);
    }
  });

  it('keeps the keys the UI has always used (the query cache and its invalidations match by value)', () => {
    expect(Object.fromEntries(KEYS)).toEqual({
      auth: ['auth'],
      sessions: ['sessions'],
      config: ['config'],
      themeCss: ['theme-css'],
      dashboard: ['dashboard'],
      ready: ['ready'],
      systemHealth: ['system-health'],
      workers: ['workers'],
      'library.all': ['library'],
      'library.files': ['library', 'files', 'x'],
      'library.page': ['library', 'page', 'x'],
      'library.holding': ['library', 'holding', 'x'],
      'library.organize': ['library', 'organize'],
      releases: ['releases'],
      subtitles: ['subtitles'],
      duplicates: ['duplicates'],
      recycle: ['recycle'],
      transcoder: ['transcoder'],
      'probe.all': ['probe'],
      'probe.file': ['probe', 'x'],
      'jobs.all': ['jobs'],
      'jobs.list': ['jobs', 'x'],
      'jobs.one': ['jobs', 'one', 'x'],
      scanPasses: ['scan-passes'],
      history: ['history'],
      downloads: ['downloads'],
      importsPending: ['imports-pending'],
    });
  });
});

describe('what live events make stale', () => {
  it('names only keys some query uses', () => {
    const stale = [...Object.values(STALE_BY_EVENT), ...Object.values(STALE_BY_QUEUE)].flat();
    for (const key of stale)
      expect(
        KEYS.some(([, k]) => startsWith(k, key)),
        JSON.stringify(key),
      ).toBe(true);
  });

  it('refreshes the pending list, the passes and the history when a scanner job ends; a library job as a library event does, the bin (a purge) and the history (renames)', () => {
    expect(staleAfterJob('scan')).toEqual(expect.arrayContaining([queryKeys.importsPending(), queryKeys.scanPasses(), queryKeys.history()]));
    expect(staleAfterJob('library')).toEqual([...STALE_BY_EVENT.library, queryKeys.recycle(), queryKeys.history()]);
    expect(staleAfterJob('media')).toEqual([queryKeys.probe.all()]);
  });

  it('makes nothing stale for a queue this build does not know', () => {
    expect(staleAfterJob('scanner')).toEqual([]);
    expect(staleAfterJob('toString')).toEqual([]);
    expect(staleAfterJob('__proto__')).toEqual([]);
  });
});
