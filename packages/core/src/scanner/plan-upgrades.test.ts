import { describe, expect, it } from 'vitest';
import type { DriveSpace } from './choose-drive.ts';
import { buildFolderLookup, type LibraryFolder } from './folder-lookup.ts';
import { planPass, type DownloadFile, type PlanOptions, type PlanWorld } from './plan-pass.ts';
import { defaultPlanOptions } from './test-fixtures/plan-options.ts';
import { parseQuality, type Resolution } from '../parse/quality.ts';

const GIB = 1024 ** 3;
const NOW = Date.parse('2026-01-01T12:00:00Z');
const DL = '/downloads';

const opts: PlanOptions = { ...defaultPlanOptions(NOW), upgrades: 'better' };

let ino = 0;
const file = (rel: string, size = 2 * GIB): DownloadFile => ({ path: `${DL}/${rel}`, rel, size, mtimeMs: NOW - 3600_000, dev: 1, ino: ++ino });

const drive: DriveSpace = {
  name: 'disk1',
  path: '/media/disk1',
  dev: 11,
  free_bytes: 1000 * GIB,
  total_bytes: 4000 * GIB,
  roots: { movies: 'Movies', tv: 'TV' },
};
const HEAT = '/media/disk1/Movies/Heat (1995)';
const FRIENDS = '/media/disk1/TV/Friends/Season 01';
const folders: LibraryFolder[] = [
  { drive: 'disk1', section: 'movies', root: 'Movies', name: 'Heat (1995)' },
  { drive: 'disk1', section: 'tv', root: 'TV', name: 'Friends' },
];

/** The library as a plan sees it: each folder's files (all of them taken), probed pictures, other taken paths. */
function world(files: Record<string, string[]>, over: { probed?: Record<string, Resolution | null>; taken?: string[]; replace?: boolean } = {}): PlanWorld {
  const taken = new Set([...Object.entries(files).flatMap(([dir, names]) => names.map((n) => `${dir}/${n}`)), ...(over.taken ?? [])]);
  return {
    drives: [drive],
    folders: buildFolderLookup([], folders, new Set()),
    destination: (p) => (taken.has(p) ? 'taken' : 'free'),
    subfolders: (dir) => (dir === '/media/disk1/TV/Friends' ? ['Season 01'] : []),
    files: (dir) => files[dir] ?? [],
    ...(over.probed ? { probed: (path: string) => over.probed![path] } : {}),
    ...(over.replace ? { replace: () => true } : {}),
  };
}

const plan = (files: DownloadFile[], w: PlanWorld, o: Partial<PlanOptions> = {}) => planPass(files, { ...opts, ...o }, w);

describe('upgrades: a download that ranks higher replaces the held file', () => {
  it('plans a better episode as a replacement of the held file and its sidecars, by the qualities the names give', () => {
    const files = { [FRIENDS]: ['Friends - S01E05 - HDTV-720p.mkv', 'Friends - S01E05 - HDTV-720p.en.srt', 'Friends - S01E06.mkv'] };
    const r = plan([file('Friends.S01E05.1080p.BluRay.x264-GRP.mkv')], world(files));
    expect(r.skipped).toEqual([]);
    expect(r.probes).toEqual([]);
    expect(r.plans).toHaveLength(1);
    const [p] = r.plans;
    expect(p!.plan.destination).toBe(`${FRIENDS}/Friends - S01E05.mkv`);
    expect(p!.replaces).toEqual({ video: `${FRIENDS}/Friends - S01E05 - HDTV-720p.mkv`, sidecars: [`${FRIENDS}/Friends - S01E05 - HDTV-720p.en.srt`] });
    expect(p!.plan.replaces).toEqual({ path: `${FRIENDS}/Friends - S01E05 - HDTV-720p.mkv`, quality: parseQuality('Friends - S01E05 - HDTV-720p.mkv') });
    expect(p!.plan.replaces!.quality).toMatchObject({ resolution: 720, source: 'hdtv' });
  });

  it.each([
    ['equal', 'Friends - S01E05 - WEBDL-1080p.mkv', 'Friends.S01E05.1080p.WEB-DL.x264-GRP.mkv', '1080p WEB-DL', '1080p WEB-DL x264 · GRP'],
    ['worse', 'Friends - S01E05 - Bluray-1080p.mkv', 'Friends.S01E05.720p.HDTV.x264-GRP.mkv', '1080p BluRay', '720p HDTV x264 · GRP'],
    ['unknown (no source)', 'Friends - S01E05 - HDTV-720p.mkv', 'Friends.S01E05.1080p.mkv', '720p HDTV', '1080p'],
    ['unknown (nothing)', 'Friends - S01E05 - HDTV-720p.mkv', 'Friends.S01E05.mkv', '720p HDTV', 'quality unknown'],
  ])('is "exists" for a download of %s quality, naming the held file and both qualities', (_, held, download, heldWords, downloadWords) => {
    const r = plan([file(download)], world({ [FRIENDS]: [held] }));
    expect(r.plans).toEqual([]);
    expect(r.skipped).toEqual([
      {
        source: `${DL}/${download}`,
        reason: 'exists',
        detail: `the library holds this episode already: ${FRIENDS}/${held} (${heldWords}); this download: ${downloadWords}`,
      },
    ]);
  });

  it('with upgrades off, is "exists" and says so', () => {
    const r = plan([file('Friends.S01E05.1080p.BluRay.x264-GRP.mkv')], world({ [FRIENDS]: ['Friends - S01E05 - HDTV-720p.mkv'] }), { upgrades: 'off' });
    expect(r.plans).toEqual([]);
    expect(r.skipped[0]!.detail).toBe(
      `the library holds this episode already: ${FRIENDS}/Friends - S01E05 - HDTV-720p.mkv (720p HDTV); this download: 1080p BluRay x264 · GRP; not replaced: upgrades are off ([library] upgrades)`,
    );
  });
});

describe('upgrades: a held file named without quality is judged by its probed picture', () => {
  const heat = [
    file('Heat.1995.1080p.BluRay.x264-GRP/Heat.1995.1080p.BluRay.x264-GRP.mkv'),
    file('Heat.1995.1080p.BluRay.x264-GRP/Heat.1995.1080p.BluRay.x264-GRP.en.srt', 50_000),
  ];
  const library = { [HEAT]: ['Heat (1995).avi', 'Heat (1995).en.srt', 'Heat (1995).nfo', 'Heat (1995).part2.mkv', 'Heat (1995).part2.en.srt'] };

  it('asks for the probe first, and is "exists" until it is answered', () => {
    const r = plan(heat, world(library));
    expect(r.probes).toEqual([`${HEAT}/Heat (1995).avi`]);
    expect(r.plans).toEqual([]);
    expect(r.skipped.map((s) => s.reason)).toEqual(['exists', 'exists']);
  });

  it('replaces a file of another container whose picture is 720p; the sidecars of its stem go with it and their paths are free for the new ones', () => {
    const r = plan(heat, world(library, { probed: { [`${HEAT}/Heat (1995).avi`]: 720 } }));
    expect(r.skipped).toEqual([]);
    expect(r.probes).toEqual([]);
    const [p] = r.plans;
    expect(p!.plan.destination).toBe(`${HEAT}/Heat (1995).mkv`);
    expect(p!.sidecars.map((s) => s.destination)).toEqual([`${HEAT}/Heat (1995).en.srt`]);
    // The part 2 and its subtitle are another video's.
    expect(p!.replaces).toEqual({ video: `${HEAT}/Heat (1995).avi`, sidecars: [`${HEAT}/Heat (1995).en.srt`, `${HEAT}/Heat (1995).nfo`] });
    expect(p!.plan.replaces!.quality).toMatchObject({ resolution: 720, source: null });
  });

  it('replaces the file under the very name the download gets', () => {
    const r = plan(heat.slice(0, 1), world({ [HEAT]: ['Heat (1995).mkv'] }, { probed: { [`${HEAT}/Heat (1995).mkv`]: 480 } }));
    expect(r.plans[0]!.plan.destination).toBe(`${HEAT}/Heat (1995).mkv`);
    expect(r.plans[0]!.replaces).toEqual({ video: `${HEAT}/Heat (1995).mkv`, sidecars: [] });
  });

  it('is "exists" when the picture is as good, or could not be probed', () => {
    for (const probed of [1080, null] as const) {
      const r = plan(heat.slice(0, 1), world(library, { probed: { [`${HEAT}/Heat (1995).avi`]: probed } }));
      expect(r.plans).toEqual([]);
      expect(r.probes).toEqual([]);
      expect(r.skipped[0]!.detail).toBe(
        `the library holds this movie already: ${HEAT}/Heat (1995).avi (${probed === null ? 'quality unknown' : '1080p, probed'}); this download: 1080p BluRay x264 · GRP`,
      );
    }
  });

  it('probes nothing for a download whose own quality is unknown', () => {
    const r = plan([file('Heat.1995.mkv')], world(library));
    expect(r.probes).toEqual([]);
    expect(r.skipped[0]!.reason).toBe('exists');
  });

  it('frees no other taken path: a destination taken by something else than the held file stays "exists"', () => {
    const r = plan(heat.slice(0, 1), world(library, { probed: { [`${HEAT}/Heat (1995).avi`]: 720 }, taken: [`${HEAT}/Heat (1995).mkv`] }));
    expect(r.plans).toEqual([]);
    expect(r.skipped[0]!.detail).toMatch(/; not replaced: \/media\/disk1\/Movies\/Heat \(1995\)\/Heat \(1995\)\.mkv is taken$/);
  });

  it('a sidecar whose name something else than the held sidecars takes stays behind', () => {
    const r = plan(heat, world({ [HEAT]: ['Heat (1995).avi'] }, { probed: { [`${HEAT}/Heat (1995).avi`]: 720 }, taken: [`${HEAT}/Heat (1995).en.srt`] }));
    expect(r.plans[0]!.replaces).toEqual({ video: `${HEAT}/Heat (1995).avi`, sidecars: [] });
    expect(r.plans[0]!.sidecars).toEqual([]);
    expect(r.skipped.map((s) => [s.source.endsWith('.srt'), s.reason])).toEqual([[true, 'exists']]);
  });

  it('two better downloads of one movie in a pass: the bigger replaces the held file, the other is "exists"', () => {
    const r = plan(
      [file('Heat.1995.1080p.BluRay.x264-GRP.mkv', 8 * GIB), file('Heat.1995.1080p.WEB-DL.x264-GRP.mp4', 4 * GIB)],
      world(library, { probed: { [`${HEAT}/Heat (1995).avi`]: 720 } }),
    );
    expect(r.plans.map((p) => p.video.rel)).toEqual(['Heat.1995.1080p.BluRay.x264-GRP.mkv']);
    expect(r.skipped).toEqual([expect.objectContaining({ source: `${DL}/Heat.1995.1080p.WEB-DL.x264-GRP.mp4`, reason: 'exists' })]);
    expect(r.skipped[0]!.detail).toMatch(/not replaced: another download of this pass replaces it$/);
  });
});

describe('upgrades: a multi-episode file is replaced only by a download of all its episodes', () => {
  const held = { [FRIENDS]: ['Friends - S01E01-E02 - HDTV-720p.mkv'] };

  it('is "exists" for a download of one of its episodes', () => {
    const r = plan([file('Friends.S01E01.1080p.BluRay.x264-GRP.mkv')], world(held));
    expect(r.skipped[0]!.detail).toBe(
      `the library holds this episode already: ${FRIENDS}/Friends - S01E01-E02 - HDTV-720p.mkv (720p HDTV); this download: 1080p BluRay x264 · GRP; not replaced: that file holds episode 2 as well, which this download lacks`,
    );
  });

  it('replaces it with a download of both', () => {
    const r = plan([file('Friends.S01E01E02.1080p.BluRay.x264-GRP.mkv')], world(held));
    expect(r.plans[0]!.replaces).toEqual({ video: `${FRIENDS}/Friends - S01E01-E02 - HDTV-720p.mkv`, sidecars: [] });
  });

  it('replaces nothing where several files hold the download’s episodes', () => {
    const r = plan(
      [file('Friends.S01E01E02.1080p.BluRay.x264-GRP.mkv')],
      world({ [FRIENDS]: ['Friends - S01E01 - HDTV-720p.mkv', 'Friends - S01E02 - HDTV-720p.mkv'] }),
    );
    expect(r.plans).toEqual([]);
    expect(r.skipped[0]!.detail).toMatch(
      /\(720p HDTV\), .*S01E02 - HDTV-720p\.mkv \(720p HDTV\); this download: .*; not replaced: 2 library files hold it, and a download replaces one file only$/,
    );
  });
});

describe("replace: the owner's word (a manual import)", () => {
  it('replaces the held file whatever the qualities', () => {
    const r = plan([file('Friends.S01E05.480p.HDTV.x264-GRP.mkv')], world({ [FRIENDS]: ['Friends - S01E05 - Bluray-1080p.mkv'] }, { replace: true }));
    expect(r.plans[0]!.replaces).toEqual({ video: `${FRIENDS}/Friends - S01E05 - Bluray-1080p.mkv`, sidecars: [] });
    expect(r.probes).toEqual([]);
  });

  it('whatever upgrades says, and with a quality unknown on both sides, without a probe', () => {
    const r = plan([file('Heat.1995.mkv')], world({ [HEAT]: ['Heat (1995).avi'] }, { replace: true }), { upgrades: 'off' });
    expect(r.plans[0]!.replaces).toEqual({ video: `${HEAT}/Heat (1995).avi`, sidecars: [] });
    expect(r.probes).toEqual([]);
  });

  it('never takes episodes the download lacks out of the library', () => {
    const r = plan([file('Friends.S01E01.mkv')], world({ [FRIENDS]: ['Friends - S01E01-E02.mkv'] }, { replace: true }));
    expect(r.plans).toEqual([]);
    expect(r.skipped[0]!.detail).toMatch(/not replaced: that file holds episode 2 as well/);
  });
});
