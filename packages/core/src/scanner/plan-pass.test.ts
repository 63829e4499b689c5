import { describe, expect, it } from 'vitest';
import type { DriveSpace } from './choose-drive.ts';
import { buildFolderLookup, type LibraryFolder } from './folder-lookup.ts';
import { planPass, type DownloadFile, type PlanOptions, type PlanWorld } from './plan-pass.ts';
import { defaultPlanOptions } from './test-fixtures/plan-options.ts';
import { recogniseMedia } from './recognise.ts';
import { UNKNOWN_QUALITY } from '../parse/quality.ts';
import { TemplateError } from './template.ts';

const GIB = 1024 ** 3;
const NOW = Date.parse('2026-01-01T12:00:00Z');
const OLD = NOW - 3600_000;
const MB = 1024 * 1024;
const DL = '/downloads';
const DL_DEV = 1;

const opts: PlanOptions = defaultPlanOptions(NOW);

let ino = 0;
function file(rel: string, size = 700 * MB, mtimeMs = OLD): DownloadFile {
  return { path: `${DL}/${rel}`, rel, size, mtimeMs, dev: DL_DEV, ino: ++ino };
}

function drive(name: string, free = 1000 * GIB, over: Partial<DriveSpace> = {}): DriveSpace {
  return {
    name,
    path: `/media/${name}`,
    dev: 10 + Number(name.replace(/\D/g, '') || 0),
    free_bytes: free,
    total_bytes: 4000 * GIB,
    roots: { movies: 'Movies', tv: 'TV' },
    ...over,
  };
}

function world(
  over: {
    drives?: DriveSpace[];
    folders?: LibraryFolder[];
    taken?: string[];
    same?: string[];
    subfolders?: Record<string, string[]>;
    files?: Record<string, string[]>;
  } = {},
): PlanWorld {
  const taken = new Set(over.taken ?? []);
  const same = new Set(over.same ?? []);
  return {
    drives: over.drives ?? [drive('disk1')],
    folders: buildFolderLookup([], over.folders ?? [], new Set()),
    destination: (p) => (same.has(p) ? 'same' : taken.has(p) ? 'taken' : 'free'),
    subfolders: (dir) => over.subfolders?.[dir] ?? [],
    files: (dir) => over.files?.[dir] ?? [],
  };
}

function run(files: DownloadFile[], w: PlanWorld = world(), o: Partial<PlanOptions> = {}) {
  const r = planPass(files, { ...opts, ...o }, w);
  return {
    ...r,
    destinations: Object.fromEntries(r.plans.map((p) => [p.plan.source.slice(DL.length + 1), p.plan.destination])),
    reasons: Object.fromEntries(r.skipped.map((s) => [s.source.slice(DL.length + 1), s.reason])),
  };
}

describe('planPass: every file gets a plan or a reason', () => {
  it('plans a movie and an episode onto the drive under the default templates', () => {
    const r = run([file('The.Matrix.1999.1080p.BluRay.x264-GRP/The.Matrix.1999.1080p.BluRay.x264-GRP.mkv'), file('Show.Name.S01E02.720p.HDTV.x264-GRP.mkv')]);
    expect(r.destinations).toEqual({
      'Show.Name.S01E02.720p.HDTV.x264-GRP.mkv': '/media/disk1/TV/Show Name/Season 01/Show Name - S01E02.mkv',
      'The.Matrix.1999.1080p.BluRay.x264-GRP/The.Matrix.1999.1080p.BluRay.x264-GRP.mkv': '/media/disk1/Movies/The Matrix (1999)/The Matrix (1999).mkv',
    });
    expect(r.skipped).toEqual([]);
  });

  it('fills the plan as CONTRACT.md says, nulls where a field does not apply', () => {
    const [movie, episode, daily] = run([
      file('a/Heat.1995.mkv'),
      file('b/Other.Series.S02E05E06.mkv'),
      file('c/The.Daily.Show.2024.03.14.Guest.720p.WEB.h264.mkv'),
    ]).plans.map((p) => p.plan);
    expect(movie).toEqual({
      source: `${DL}/a/Heat.1995.mkv`,
      destination: '/media/disk1/Movies/Heat (1995)/Heat (1995).mkv',
      kind: 'movie',
      title: 'Heat',
      year: 1995,
      season: null,
      episodes: null,
      air_date: null,
      drive: 'disk1',
      sidecars: [],
      quality: UNKNOWN_QUALITY,
    });
    expect(episode).toMatchObject({
      kind: 'episode',
      title: 'Other Series',
      season: 2,
      episodes: [5, 6],
      air_date: null,
      destination: '/media/disk1/TV/Other Series/Season 02/Other Series - S02E05-E06.mkv',
    });
    expect(daily).toMatchObject({
      kind: 'episode',
      title: 'The Daily Show',
      season: null,
      episodes: null,
      air_date: '2024-03-14',
      destination: '/media/disk1/TV/The Daily Show/Season 2024/The Daily Show - 2024-03-14.mkv',
      quality: { ...UNKNOWN_QUALITY, resolution: 720, source: 'web-dl', codec: 'x264' },
    });
  });

  it('skips partial downloads, whatever their name says', () => {
    const r = run([
      file('Movie.2010.mkv.part'),
      file('Movie.2011.mkv.!qB'),
      file('Movie.2012.mkv.crdownload'),
      file('x.tmp'),
      file('_UNPACK_Movie.2013/Movie.2013.mkv'),
      file('_FAILED_Movie.2014/Movie.2014.mkv'),
      file('Movie.2015.mkv.unwanted'),
      file('Rel/Movie.2016.mkv'),
      file('Rel/Movie.2016.mkv.aria2'),
    ]);
    expect(r.plans).toEqual([]);
    expect(new Set(Object.values(r.reasons))).toEqual(new Set(['partial']));
    expect(Object.keys(r.reasons)).toHaveLength(9);
  });

  it('skips samples by folder, by name and by size', () => {
    const r = run([
      file('Movie.2010/Sample/movie.2010.mkv'),
      file('Movie.2011/movie.2011-sample.mkv'),
      file('Movie.2012/Movie.2012.mkv', 50 * MB),
      file('Movie.2013/Movie.2013.mkv', 50 * MB + 1),
    ]);
    expect(r.reasons).toEqual({
      'Movie.2010/Sample/movie.2010.mkv': 'sample',
      'Movie.2011/movie.2011-sample.mkv': 'sample',
      'Movie.2012/Movie.2012.mkv': 'sample',
    });
    expect(Object.keys(r.destinations)).toEqual(['Movie.2013/Movie.2013.mkv']);
  });

  it('sample_max_bytes 0 turns the size rule off', () => {
    expect(run([file('Movie.2012/Movie.2012.mkv', 10)], world(), { sampleMaxBytes: 0 }).plans).toHaveLength(1);
  });

  it('waits for files written within settle_seconds, and for the whole group', () => {
    const r = run([
      file('A.2010/A.2010.mkv', 700 * MB, NOW - 119_000),
      file('B.2011/B.2011.mkv'),
      file('B.2011/B.2011.en.srt', 10, NOW - 5_000),
      file('C.2012/C.2012.mkv', 700 * MB, NOW - 120_000),
    ]);
    expect(r.reasons).toEqual({ 'A.2010/A.2010.mkv': 'settling', 'B.2011/B.2011.mkv': 'settling', 'B.2011/B.2011.en.srt': 'settling' });
    expect(Object.keys(r.destinations)).toEqual(['C.2012/C.2012.mkv']);
  });

  it('calls a still-growing sample "settling" only when its name does not already say sample', () => {
    expect(run([file('M.2010/Sample/m.mkv', 10 * MB, NOW)]).reasons).toEqual({ 'M.2010/Sample/m.mkv': 'sample' });
    expect(run([file('M.2010/M.2010.mkv', 10 * MB, NOW)]).reasons).toEqual({ 'M.2010/M.2010.mkv': 'settling' });
  });

  it('skips what it cannot recognise: no name, a movie without a year, anime without a season, extras, other files', () => {
    const r = run([
      file('random.mkv'),
      file('Inception.1080p.BluRay.mkv'),
      file('[SubsPlease] Frieren - 05 (1080p) [ABCD].mkv'),
      file('Movie.2010/Featurettes/Making Of.mkv'),
      file('Movie.2010/Movie.2010.mkv'),
      file('Movie.2010/readme.txt'),
      file('Movie.2010/movie.2010.rar'),
      file('orphan.en.srt'),
    ]);
    expect(r.reasons).toEqual({
      'random.mkv': 'unrecognized',
      'Inception.1080p.BluRay.mkv': 'unrecognized',
      '[SubsPlease] Frieren - 05 (1080p) [ABCD].mkv': 'unrecognized',
      'Movie.2010/Featurettes/Making Of.mkv': 'unrecognized',
      'Movie.2010/readme.txt': 'unrecognized',
      'Movie.2010/movie.2010.rar': 'unrecognized',
      'orphan.en.srt': 'unrecognized',
    });
    expect(Object.keys(r.destinations)).toEqual(['Movie.2010/Movie.2010.mkv']);
  });

  it('never plans over a file that exists, and lets the bigger of two copies win', () => {
    const r = run(
      [file('Heat.1995.720p.mkv', 2 * GIB), file('Heat.1995.1080p.mkv', 8 * GIB), file('Alien.1979.mkv')],
      world({ taken: ['/media/disk1/Movies/Alien (1979)/Alien (1979).mkv'] }),
    );
    expect(r.destinations).toEqual({ 'Heat.1995.1080p.mkv': '/media/disk1/Movies/Heat (1995)/Heat (1995).mkv' });
    expect(r.reasons).toEqual({ 'Heat.1995.720p.mkv': 'exists', 'Alien.1979.mkv': 'exists' });
  });

  it('treats names differing only in case as the same destination (SMB, exFAT)', () => {
    const r = run([file('a/Heat.1995.mkv', GIB), file('b/HEAT.1995.mkv', 2 * GIB)], world({ drives: [drive('disk1')] }), {
      movieTemplate: '{title} ({year})/{title}{ext}',
    });
    expect(Object.keys(r.destinations)).toEqual(['b/HEAT.1995.mkv']);
    expect(r.reasons).toEqual({ 'a/Heat.1995.mkv': 'exists' });
  });

  it('plans a move cut short between link and unlink, so that it gets finished', () => {
    const r = run([file('Heat.1995.mkv')], world({ same: ['/media/disk1/Movies/Heat (1995)/Heat (1995).mkv'] }));
    expect(r.plans).toHaveLength(1);
  });

  it('skips with no_drive what no drive has room for, and keeps the file with its sidecars', () => {
    const r = run([file('Big.2010/Big.2010.mkv', 100 * GIB), file('Big.2010/Big.2010.en.srt', 10)], world({ drives: [drive('disk1', 50 * GIB)] }));
    expect(r.reasons).toEqual({ 'Big.2010/Big.2010.mkv': 'no_drive', 'Big.2010/Big.2010.en.srt': 'no_drive' });
  });

  it('no_drive when no drive has the library folder', () => {
    const r = run([file('Show.S01E01.mkv')], world({ drives: [drive('disk1', 1000 * GIB, { roots: { movies: 'Movies' } })] }));
    expect(r.reasons).toEqual({ 'Show.S01E01.mkv': 'no_drive' });
  });
});

describe('planPass: drives', () => {
  it('spreads a pass over the drives as their free space runs down', () => {
    const drives = [drive('disk1', 100 * GIB), drive('disk2', 95 * GIB)];
    const r = run([file('Alpha.2001.mkv', 20 * GIB), file('Beta.2002.mkv', 20 * GIB), file('Gamma.2003.mkv', 20 * GIB)], world({ drives }));
    expect(r.plans.map((p) => p.plan.drive)).toEqual(['disk1', 'disk2', 'disk1']);
  });

  it('puts a new series’ later episodes beside its first, even when another drive is freer by then', () => {
    const drives = [drive('disk1', 100 * GIB), drive('disk2', 99 * GIB)];
    const r = run([file('New.Show.S01E01.mkv', 5 * GIB), file('New.Show.S01E02.mkv', 4 * GIB)], world({ drives }));
    expect(r.plans.map((p) => p.plan.drive)).toEqual(['disk1', 'disk1']);
  });

  it('joins an existing series folder under its own name and library folder', () => {
    const drives = [drive('disk1', 500 * GIB), drive('disk2', 100 * GIB, { roots: { tv: 'TV' } })];
    const folders = [{ drive: 'disk2', section: 'tv' as const, root: 'TV Shows', name: 'Doctor Who (2005)' }];
    const r = run([file('Doctor.Who.2005.S13E01.1080p.mkv')], world({ drives, folders }));
    expect(r.plans[0]!.plan).toMatchObject({ drive: 'disk2', destination: '/media/disk2/TV Shows/Doctor Who (2005)/Season 13/Doctor Who (2005) - S13E01.mkv' });
  });

  it('moves within the downloads’ own device need no free space', () => {
    const r = run([file('Alpha.2001.mkv', 20 * GIB)], world({ drives: [drive('disk1', 0, { dev: DL_DEV })] }));
    expect(r.plans).toHaveLength(1);
  });
});

describe('planPass: the library names the series', () => {
  const tvFolder = (d: string, name: string, root = 'TV'): LibraryFolder => ({ drive: d, section: 'tv', root, name });

  it('joins the folder the library already has, however it spells the title', () => {
    const drives = [drive('disk1', 900 * GIB, { roots: { movies: 'Movies', tv: 'TV Shows' } }), drive('disk2', 100 * GIB)];
    const folders = [
      tvFolder('disk2', 'The Office (US)'),
      tvFolder('disk2', 'Doctor Who (2005)'),
      tvFolder('disk2', 'Law & Order'),
      { drive: 'disk2', section: 'movies' as const, root: 'Movies', name: 'Amélie (2001)' },
    ];
    const r = run(
      [file('The.Office.US.S09E01.720p.mkv'), file('Doctor.Who.2005.S13E01.1080p.mkv'), file('Law.and.Order.S01E01.mkv'), file('Amelie.2001.1080p.mkv')],
      world({ drives, folders }),
    );
    expect(r.destinations).toEqual({
      'The.Office.US.S09E01.720p.mkv': '/media/disk2/TV/The Office (US)/Season 09/The Office (US) - S09E01.mkv',
      'Doctor.Who.2005.S13E01.1080p.mkv': '/media/disk2/TV/Doctor Who (2005)/Season 13/Doctor Who (2005) - S13E01.mkv',
      // Named for the folder it joins, as Sonarr and Radarr name a file for the series or movie.
      'Law.and.Order.S01E01.mkv': '/media/disk2/TV/Law & Order/Season 01/Law & Order - S01E01.mkv',
      'Amelie.2001.1080p.mkv': '/media/disk2/Movies/Amélie (2001)/Amélie (2001).mkv',
    });
  });

  it('lets the library say whether a name in capitals ends in a word or a country code (THIS.IS.US, THE.OFFICE.US)', () => {
    const names = [file('THIS.IS.US.S01E02.720p.WEB.mkv'), file('THE.OFFICE.US.S02E01.720p.WEB.mkv', 600 * MB)];
    const r = run(names, world({ folders: [tvFolder('disk1', 'This Is Us'), tvFolder('disk1', 'The Office (US)')] }));
    expect(r.destinations).toEqual({
      'THIS.IS.US.S01E02.720p.WEB.mkv': '/media/disk1/TV/This Is Us/Season 01/This Is Us - S01E02.mkv',
      'THE.OFFICE.US.S02E01.720p.WEB.mkv': '/media/disk1/TV/The Office (US)/Season 02/The Office (US) - S02E01.mkv',
    });
    // With neither in the library, the name is kept as it is, not split into a country.
    expect(run(names.slice(0, 1)).destinations).toEqual({ 'THIS.IS.US.S01E02.720p.WEB.mkv': '/media/disk1/TV/THIS IS US/Season 01/THIS IS US - S01E02.mkv' });
    // A folder of each reading: no guess.
    const both = run(names.slice(1), world({ folders: [tvFolder('disk1', 'THE OFFICE US'), tvFolder('disk1', 'The Office (US)')] }));
    expect(both.reasons).toEqual({ 'THE.OFFICE.US.S02E01.720p.WEB.mkv': 'ambiguous' });
  });

  it('names the file for the folder it joins: its spelling and year, without its id tags', () => {
    const folders = [
      tvFolder('disk1', 'Doctor Who (2005) [tvdbid-78804]'),
      tvFolder('disk1', "Marvel's Agents of S.H.I.E.L.D"),
      tvFolder('disk1', 'The Office (2005) (US)'),
      tvFolder('disk1', 'This Is Us'),
      tvFolder('disk1', 'Shameless [UK] (2004)'),
      { drive: 'disk1', section: 'movies' as const, root: 'Movies', name: 'Heat (1995) [imdbid-tt0113277]' },
    ];
    const r = run(
      [
        file('doctor.who.2005.s13e02.720p.mkv'),
        file('Marvels.Agents.of.S.H.I.E.L.D.S01E01.mkv'),
        file('heat.1995.1080p.bluray.mkv'),
        file('The.Office.US.S02E01.mkv'),
        file('This.Is.Us.S01E01.mkv'),
        file('Shameless.UK.S03E01.mkv'),
      ],
      world({ folders }),
    );
    expect(r.destinations).toEqual({
      'doctor.who.2005.s13e02.720p.mkv': '/media/disk1/TV/Doctor Who (2005) [tvdbid-78804]/Season 13/Doctor Who (2005) - S13E02.mkv',
      'Marvels.Agents.of.S.H.I.E.L.D.S01E01.mkv': "/media/disk1/TV/Marvel's Agents of S.H.I.E.L.D/Season 01/Marvel's Agents of S.H.I.E.L.D - S01E01.mkv",
      'heat.1995.1080p.bluray.mkv': '/media/disk1/Movies/Heat (1995) [imdbid-tt0113277]/Heat (1995).mkv',
      'The.Office.US.S02E01.mkv': '/media/disk1/TV/The Office (2005) (US)/Season 02/The Office (US) - S02E01.mkv',
      'This.Is.Us.S01E01.mkv': '/media/disk1/TV/This Is Us/Season 01/This Is Us - S01E01.mkv',
      'Shameless.UK.S03E01.mkv': '/media/disk1/TV/Shameless [UK] (2004)/Season 03/Shameless [UK] (2004) - S03E01.mkv',
    });
    // A new folder is named for the download, in title case where the download is all in lower case.
    expect(run([file('doctor.who.2005.s13e02.720p.mkv')]).destinations).toEqual({
      'doctor.who.2005.s13e02.720p.mkv': '/media/disk1/TV/Doctor Who (2005)/Season 13/Doctor Who (2005) - S13E02.mkv',
    });
  });

  it('joins a folder named as its release was, and names the file for its title (README "Library names the index reads")', () => {
    const movie = (name: string): LibraryFolder => ({ drive: 'disk1', section: 'movies', root: 'Movies', name });
    const folders = [
      movie('Heat.1995.1080p.BluRay.x264-GRP'),
      movie('[GRP] Crouching Tiger Hidden Dragon (2000) [2160p]'),
      tvFolder('disk1', 'Severance S01 2160p WEB-DL'),
    ];
    const r = run(
      [file('Heat.1995.720p.WEB.mkv'), file('Crouching.Tiger.Hidden.Dragon.2000.1080p.mkv'), file('Severance.S02E03.1080p.mkv')],
      world({ folders }),
    );
    expect(r.destinations).toEqual({
      'Heat.1995.720p.WEB.mkv': '/media/disk1/Movies/Heat.1995.1080p.BluRay.x264-GRP/Heat (1995).mkv',
      'Crouching.Tiger.Hidden.Dragon.2000.1080p.mkv':
        '/media/disk1/Movies/[GRP] Crouching Tiger Hidden Dragon (2000) [2160p]/Crouching Tiger Hidden Dragon (2000).mkv',
      'Severance.S02E03.1080p.mkv': '/media/disk1/TV/Severance S01 2160p WEB-DL/Season 02/Severance - S02E03.mkv',
    });
  });

  it('names a new folder of a remade series with its country, as Sonarr does, and keeps remakes apart', () => {
    const r = run([file('The.Office.US.S01E01.mkv'), file('The.Office.UK.S01E01.mkv', 600 * MB)], world({ folders: [tvFolder('disk1', 'The Office (UK)')] }));
    expect(r.destinations).toEqual({
      'The.Office.US.S01E01.mkv': '/media/disk1/TV/The Office (US)/Season 01/The Office (US) - S01E01.mkv',
      'The.Office.UK.S01E01.mkv': '/media/disk1/TV/The Office (UK)/Season 01/The Office (UK) - S01E01.mkv',
    });
  });

  it('joins the season folder the series already has, however it is spelled, and is "exists" for an episode in it', () => {
    const folders = [tvFolder('disk1', 'Severance'), tvFolder('disk1', 'Loki'), tvFolder('disk1', 'Fargo')];
    const subfolders = {
      '/media/disk1/TV/Severance': ['Season 1', 'Season 2'],
      '/media/disk1/TV/Loki': ['S01', 'Specials'],
      '/media/disk1/TV/Fargo': ['Season 01', 'Season 1'],
    };
    const taken = ['/media/disk1/TV/Severance/Season 1/Severance - S01E01.mkv'];
    const r = run(
      [
        file('Severance.S01E01.mkv'),
        file('Severance.S01E02.mkv'),
        file('Severance.S03E01.mkv'),
        file('Loki.S01E02.mkv'),
        file('Loki.S00E01.mkv'),
        file('Fargo.S01E03.mkv'),
      ],
      world({ folders, subfolders, taken }),
    );
    expect(r.destinations).toEqual({
      'Severance.S01E02.mkv': '/media/disk1/TV/Severance/Season 1/Severance - S01E02.mkv',
      'Severance.S03E01.mkv': '/media/disk1/TV/Severance/Season 03/Severance - S03E01.mkv',
      'Loki.S01E02.mkv': '/media/disk1/TV/Loki/S01/Loki - S01E02.mkv',
      'Loki.S00E01.mkv': '/media/disk1/TV/Loki/Specials/Loki - S00E01.mkv',
      'Fargo.S01E03.mkv': '/media/disk1/TV/Fargo/Season 01/Fargo - S01E03.mkv',
    });
    expect(r.reasons).toEqual({ 'Severance.S01E01.mkv': 'exists' });
  });

  it('is "exists" for an episode the season folder holds under another name, and plans the others', () => {
    const folders = [tvFolder('disk1', 'Law & Order'), tvFolder('disk1', 'Friends'), tvFolder('disk1', 'The Daily Show')];
    const files = {
      '/media/disk1/TV/Law & Order/Season 01': ['Law & Order - S01E01 - Pilot.mkv', 'Law & Order - S01E01 - Pilot.en.srt', 'Law & Order - S01E04.mkv'],
      // A sample named for S01E03 does not hold it.
      '/media/disk1/TV/Friends/Season 01': ['Friends - S01E01-E02.mkv', 'Friends - S01E03 - sample.mkv'],
      '/media/disk1/TV/The Daily Show/Season 2024': ['The Daily Show - 2024-01-15 - Some Guest.mkv'],
    };
    // S01E04 under the very name it would get: a move cut short, which the destination's check settles.
    const same = ['/media/disk1/TV/Law & Order/Season 01/Law & Order - S01E04.mkv'];
    const r = run(
      [
        file('Law.and.Order.S01E01.720p.mkv'),
        file('Law.and.Order.S01E01.720p.en.srt', 10),
        file('Law.and.Order.S01E02.mkv'),
        file('Law.and.Order.S01E04.mkv'),
        file('Friends.S01E02.mkv'),
        file('Friends.S01E03.mkv'),
        file('The.Daily.Show.2024.01.15.Guest.mkv'),
        file('The.Daily.Show.2024.01.16.Guest.mkv'),
      ],
      world({ folders, files, same }),
    );
    expect(Object.keys(r.destinations).sort()).toEqual([
      'Friends.S01E03.mkv',
      'Law.and.Order.S01E02.mkv',
      'Law.and.Order.S01E04.mkv',
      'The.Daily.Show.2024.01.16.Guest.mkv',
    ]);
    expect(r.skipped).toEqual([
      {
        source: '/downloads/Friends.S01E02.mkv',
        reason: 'exists',
        detail:
          'the library holds this episode already: /media/disk1/TV/Friends/Season 01/Friends - S01E01-E02.mkv (quality unknown); this download: quality unknown',
      },
      {
        source: '/downloads/Law.and.Order.S01E01.720p.en.srt',
        reason: 'exists',
        detail:
          'the library holds this episode already: /media/disk1/TV/Law & Order/Season 01/Law & Order - S01E01 - Pilot.mkv (quality unknown); this download: 720p',
      },
      {
        source: '/downloads/Law.and.Order.S01E01.720p.mkv',
        reason: 'exists',
        detail:
          'the library holds this episode already: /media/disk1/TV/Law & Order/Season 01/Law & Order - S01E01 - Pilot.mkv (quality unknown); this download: 720p',
      },
      {
        source: '/downloads/The.Daily.Show.2024.01.15.Guest.mkv',
        reason: 'exists',
        detail:
          'the library holds this episode already: /media/disk1/TV/The Daily Show/Season 2024/The Daily Show - 2024-01-15 - Some Guest.mkv (quality unknown); this download: quality unknown',
      },
    ]);
  });

  it('names both qualities in an "exists" detail, as the name of each file states it', () => {
    const files = { '/media/disk1/TV/Friends/Season 01': ['Friends - S01E05 - Bluray-1080p.mkv'] };
    const r = run([file('Friends.S01E05.720p.WEB-DL.x264.PROPER-GRP.mkv')], world({ folders: [tvFolder('disk1', 'Friends')], files }));
    expect(r.skipped).toEqual([
      {
        source: '/downloads/Friends.S01E05.720p.WEB-DL.x264.PROPER-GRP.mkv',
        reason: 'exists',
        detail:
          'the library holds this episode already: /media/disk1/TV/Friends/Season 01/Friends - S01E05 - Bluray-1080p.mkv (1080p BluRay); this download: 720p WEB-DL x264 · PROPER · GRP',
      },
    ]);
  });

  it('is "exists" for a movie its folder holds in another container, as a transcode leaves it', () => {
    const folders = [{ drive: 'disk1', section: 'movies' as const, root: 'Movies', name: 'Heat (1995)' }];
    const files = { '/media/disk1/Movies/Heat (1995)': ['Heat (1995).mp4', 'Heat (1995).en.srt'] };
    const r = run([file('Heat.1995.2160p.UHD.mkv'), file('Alien.1979.mkv')], world({ folders, files }));
    expect(r.skipped).toEqual([
      {
        source: '/downloads/Heat.1995.2160p.UHD.mkv',
        reason: 'exists',
        detail: 'the library holds this movie already: /media/disk1/Movies/Heat (1995)/Heat (1995).mp4 (quality unknown); this download: 2160p',
      },
    ]);
    expect(Object.keys(r.destinations)).toEqual(['Alien.1979.mkv']);
  });

  it('names a new folder of a series with the year its name gives, so that a remake of that name finds its own', () => {
    const r = run([file('Battlestar.Galactica.2003.S01E01.mkv'), file('Battlestar.Galactica.1978.S01E01.mkv', 600 * MB)], world());
    expect(r.destinations).toEqual({
      'Battlestar.Galactica.2003.S01E01.mkv': '/media/disk1/TV/Battlestar Galactica (2003)/Season 01/Battlestar Galactica (2003) - S01E01.mkv',
      'Battlestar.Galactica.1978.S01E01.mkv': '/media/disk1/TV/Battlestar Galactica (1978)/Season 01/Battlestar Galactica (1978) - S01E01.mkv',
    });
  });

  it("takes a year after the episode marker as the series' only where a folder of that year is, or none of the title: another year may be the same series", () => {
    const young = 'Young.Sheldon.S07E14.2024.1080p.WEB.h264-ETHEL.mkv';
    // Its S07 aired in 2024: a second folder "Young Sheldon (2024)" beside it would split the series.
    const beside = run([file(young)], world({ folders: [tvFolder('disk1', 'Young Sheldon (2017)')] }));
    expect(beside.plans).toEqual([]);
    expect(beside.skipped).toEqual([
      {
        source: `${DL}/${young}`,
        reason: 'ambiguous',
        detail: 'the year 2024 after the episode number may be an air year; library folders of the title: /media/disk1/TV/Young Sheldon (2017)',
        // `Import as…` offers the folder as the library spells it.
        candidates: [
          {
            kind: 'episode',
            title: 'Young Sheldon',
            year: 2017,
            season: 7,
            episodes: [14],
            absolute_episodes: [],
            air_date: null,
            folder: '/media/disk1/TV/Young Sheldon (2017)',
            destination: '/media/disk1/TV/Young Sheldon (2017)/Season 07/Young Sheldon (2017) - S07E14.mkv',
            // What the download's name says, whichever reading is picked.
            quality: { resolution: 1080, source: 'web-dl', codec: 'x264', proper: false, repack: false, group: 'ETHEL' },
          },
        ],
      },
    ]);
    expect(run([file(young)], world({ folders: [tvFolder('disk1', 'Young Sheldon')] })).destinations).toEqual({
      // Named for the yearless folder it joins: the 2024 may be the air year.
      [young]: '/media/disk1/TV/Young Sheldon/Season 07/Young Sheldon - S07E14.mkv',
    });
    // None of the title: named with the year, so that another series of the title stays apart.
    expect(run([file(young)], world()).destinations).toEqual({ [young]: '/media/disk1/TV/Young Sheldon (2024)/Season 07/Young Sheldon (2024) - S07E14.mkv' });
    const who = world({ folders: [tvFolder('disk1', 'Doctor Who (1963)'), tvFolder('disk1', 'Doctor Who (2005)')] });
    expect(run([file('Doctor.Who.S01E01.2005.720p.HDTV.x264.mkv')], who).destinations).toEqual({
      'Doctor.Who.S01E01.2005.720p.HDTV.x264.mkv': '/media/disk1/TV/Doctor Who (2005)/Season 01/Doctor Who (2005) - S01E01.mkv',
    });
    const later = run([file('Doctor.Who.S13E01.2021.1080p.WEB.mkv')], who);
    expect(later.plans).toEqual([]);
    expect(later.reasons).toEqual({ 'Doctor.Who.S13E01.2021.1080p.WEB.mkv': 'ambiguous' });
  });

  it('skips as ambiguous a name two shows of the library fit, with the folders and its sidecars', () => {
    const drives = [drive('disk1'), drive('disk2', 1000 * GIB, { roots: { tv: 'TV Shows' } })];
    const folders = [tvFolder('disk1', 'Doctor Who (1963)'), tvFolder('disk2', 'Doctor Who (2005)', 'TV Shows')];
    const r = run([file('Doctor.Who.S01E01/Doctor.Who.S01E01.mkv'), file('Doctor.Who.S01E01/Doctor.Who.S01E01.en.srt', 10)], world({ drives, folders }));
    expect(r.plans).toEqual([]);
    const detail = 'library folders that fit: /media/disk1/TV/Doctor Who (1963), /media/disk2/TV Shows/Doctor Who (2005)';
    const reading = { kind: 'episode', season: 1, episodes: [1], absolute_episodes: [], air_date: null, quality: UNKNOWN_QUALITY };
    expect(r.skipped).toEqual([
      { source: `${DL}/Doctor.Who.S01E01/Doctor.Who.S01E01.en.srt`, reason: 'ambiguous', detail },
      {
        source: `${DL}/Doctor.Who.S01E01/Doctor.Who.S01E01.mkv`,
        reason: 'ambiguous',
        detail,
        // One candidate a folder, on its own drive: the sidecar follows whichever is picked.
        candidates: [
          {
            ...reading,
            title: 'Doctor Who',
            year: 1963,
            folder: '/media/disk1/TV/Doctor Who (1963)',
            destination: '/media/disk1/TV/Doctor Who (1963)/Season 01/Doctor Who (1963) - S01E01.mkv',
          },
          {
            ...reading,
            title: 'Doctor Who',
            year: 2005,
            folder: '/media/disk2/TV Shows/Doctor Who (2005)',
            destination: '/media/disk2/TV Shows/Doctor Who (2005)/Season 01/Doctor Who (2005) - S01E01.mkv',
          },
        ],
      },
    ]);
  });

  it("says why a name was not recognised, in the parser's words where the parser refused it", () => {
    const refusal = recogniseMedia('Inception.1080p.BluRay.mkv');
    expect(refusal.ok).toBe(false);
    const r = run([
      file('Inception.1080p.BluRay.mkv'),
      file('Movie.2010/Featurettes/Making Of.mkv'),
      file('Movie.2010/Movie.2010.mkv'),
      file('notes.txt'),
      file('orphan.en.srt', 10),
    ]);
    expect(r.skipped.map((s) => [s.source.slice(DL.length + 1), s.reason, s.detail])).toEqual([
      ['Inception.1080p.BluRay.mkv', 'unrecognized', refusal.ok ? null : refusal.detail],
      ['Movie.2010/Featurettes/Making Of.mkv', 'unrecognized', 'in an extras folder'],
      ['notes.txt', 'unrecognized', 'not a video, subtitle or .nfo file'],
      ['orphan.en.srt', 'unrecognized', 'no video it belongs to'],
    ]);
  });

  it('gives no detail where the reason says it all', () => {
    const r = run([file('Movie.2010.mkv.part'), file('Heat.1995.mkv')], world({ taken: ['/media/disk1/Movies/Heat (1995)/Heat (1995).mkv'] }));
    expect(r.skipped).toEqual([
      { source: `${DL}/Heat.1995.mkv`, reason: 'exists' },
      { source: `${DL}/Movie.2010.mkv.part`, reason: 'partial' },
    ]);
  });
});

describe('planPass: sidecars travel with their video', () => {
  it('renames subtitles and the .nfo after the video, keeping language and forced/sdh tags', () => {
    const r = run([
      file('Movie.2010.1080p-GRP/Movie.2010.1080p-GRP.mkv'),
      file('Movie.2010.1080p-GRP/Movie.2010.1080p-GRP.en.srt', 100),
      file('Movie.2010.1080p-GRP/Movie.2010.1080p-GRP.en.forced.srt', 100),
      file('Movie.2010.1080p-GRP/Subs/3_English.SDH.srt', 100),
      file('Movie.2010.1080p-GRP/Movie.2010.1080p-GRP.nfo', 100),
      file('Movie.2010.1080p-GRP/Movie.2010.1080p-GRP.idx', 100),
      file('Movie.2010.1080p-GRP/Movie.2010.1080p-GRP.sub', 100),
    ]);
    expect(r.skipped).toEqual([]);
    const dir = '/media/disk1/Movies/Movie (2010)';
    expect(r.plans[0]!.plan.sidecars.map((s) => s.destination).sort()).toEqual(
      [
        `${dir}/Movie (2010).en.srt`,
        `${dir}/Movie (2010).en.forced.srt`,
        `${dir}/Movie (2010).en.sdh.srt`,
        `${dir}/Movie (2010).nfo`,
        `${dir}/Movie (2010).idx`,
        `${dir}/Movie (2010).sub`,
      ].sort(),
    );
  });

  it('episode subtitles of a season pack follow their own episode', () => {
    const r = run([
      file('Show.S01.1080p/Show.S01E01.1080p.mkv'),
      file('Show.S01.1080p/Show.S01E02.1080p.mkv'),
      file('Show.S01.1080p/Subs/Show.S01E01.1080p/2_English.srt', 10),
      file('Show.S01.1080p/Subs/Show.S01E02.1080p/2_English.srt', 10),
    ]);
    expect(r.plans.map((p) => p.plan.sidecars.map((s) => s.destination))).toEqual([
      ['/media/disk1/TV/Show/Season 01/Show - S01E01.en.srt'],
      ['/media/disk1/TV/Show/Season 01/Show - S01E02.en.srt'],
    ]);
  });

  it('a second subtitle of one language is numbered, as Radarr names it; a second .nfo stays behind as "exists"', () => {
    const r = run([
      file('M.2010/M.2010.mkv'),
      file('M.2010/Subs/2_English.srt', 10),
      file('M.2010/Subs/3_English.srt', 10),
      file('M.2010/Subs/4_English.srt', 10),
      file('M.2010/M.2010.nfo', 10),
      file('M.2010/Subs/M.2010.nfo', 10),
    ]);
    const dir = '/media/disk1/Movies/M (2010)';
    expect(r.plans[0]!.plan.sidecars.map((s) => s.destination)).toEqual([
      `${dir}/M (2010).en.srt`,
      `${dir}/M (2010).1.en.srt`,
      `${dir}/M (2010).2.en.srt`,
      `${dir}/M (2010).nfo`,
    ]);
    expect(r.reasons).toEqual({ 'M.2010/Subs/M.2010.nfo': 'exists' });
  });

  it('a numbered subtitle whose name the library holds stays behind as "exists"', () => {
    const r = run(
      [file('M.2010/M.2010.mkv'), file('M.2010/Subs/2_English.srt', 10), file('M.2010/Subs/3_English.srt', 10)],
      world({ taken: ['/media/disk1/Movies/M (2010)/M (2010).1.en.srt'] }),
    );
    expect(r.plans[0]!.plan.sidecars.map((s) => s.destination)).toEqual(['/media/disk1/Movies/M (2010)/M (2010).en.srt']);
    expect(r.reasons).toEqual({ 'M.2010/Subs/3_English.srt': 'exists' });
  });

  it('a sidecar whose destination is taken stays behind; the video still moves', () => {
    const r = run([file('M.2010/M.2010.mkv'), file('M.2010/M.2010.en.srt', 10)], world({ taken: ['/media/disk1/Movies/M (2010)/M (2010).en.srt'] }));
    expect(r.plans).toHaveLength(1);
    expect(r.reasons).toEqual({ 'M.2010/M.2010.en.srt': 'exists' });
  });

  it('sidecars share the fate of a skipped video', () => {
    const r = run([file('M.2010/M.2010.mkv', 700 * MB, NOW), file('M.2010/M.2010.en.srt', 10)]);
    expect(r.reasons).toEqual({ 'M.2010/M.2010.mkv': 'settling', 'M.2010/M.2010.en.srt': 'settling' });
  });
});

describe('planPass: templates', () => {
  it('refuses a broken template before planning anything, naming the key', () => {
    expect(() => run([file('Heat.1995.mkv')], world(), { movieTemplate: '{title}{extension}' })).toThrow(TemplateError);
    expect(() => run([], world(), { episodeTemplate: '{series}{ext}' })).toThrow('library.episode_template: must contain {episode}');
  });

  it('follows custom templates', () => {
    const r = run([file('Show.S01E01.mkv'), file('Heat.1995.mkv')], world(), {
      movieTemplate: '{title} [{year}]{ext}',
      episodeTemplate: '{series}/{series} {season}x{episode:00}{ext}',
    });
    expect(Object.values(r.destinations).sort()).toEqual(['/media/disk1/Movies/Heat [1995].mkv', '/media/disk1/TV/Show/Show 1x01.mkv']);
  });
});

describe('planPass: downloads the history holds as imported (hardlink and copy modes)', () => {
  const imported = (paths: string[]): PlanWorld => ({ ...world(), imported: (f) => paths.includes(f.rel) });

  it('skips an imported video and its sidecars as `imported`, before any other rule, never as `exists`', () => {
    const files = [file('Heat.1995/Heat.1995.mkv'), file('Heat.1995/Heat.1995.en.srt', 100), file('Heat.1995/Heat.1995.nfo', 100)];
    const r = run(files, { ...imported(['Heat.1995/Heat.1995.mkv', 'Heat.1995/Heat.1995.en.srt']), destination: () => 'taken' });
    expect(r.plans).toEqual([]);
    expect(r.skipped).toEqual([
      { source: `${DL}/Heat.1995/Heat.1995.en.srt`, reason: 'imported' },
      { source: `${DL}/Heat.1995/Heat.1995.mkv`, reason: 'imported' },
      { source: `${DL}/Heat.1995/Heat.1995.nfo`, reason: 'imported', detail: 'its video was imported already' },
    ]);
  });

  it('wins over settling and sample rules: a seeding file that is touched stays imported', () => {
    const r = run([file('Heat.1995.mkv', 10 * MB, NOW)], imported(['Heat.1995.mkv']));
    expect(r.reasons).toEqual({ 'Heat.1995.mkv': 'imported' });
  });

  it('plans what is not imported as usual', () => {
    const r = run([file('Heat.1995.mkv'), file('Ronin.1998.mkv')], imported(['Heat.1995.mkv']));
    expect(Object.keys(r.destinations)).toEqual(['Ronin.1998.mkv']);
    expect(r.reasons).toEqual({ 'Heat.1995.mkv': 'imported' });
  });
});

describe('planPass: downloads whose import the owner undid', () => {
  const undone = (paths: string[]): PlanWorld => ({ ...world(), undone: (f) => paths.includes(f.rel) });

  it('skips the undone video and its sidecars as `undone`, saying how to import it again', () => {
    const r = run([file('Heat.1995/Heat.1995.mkv'), file('Heat.1995/Heat.1995.en.srt', 100)], undone(['Heat.1995/Heat.1995.mkv']));
    expect(r.plans).toEqual([]);
    const detail = 'its import was undone; rename or change it to import it again';
    expect(r.skipped).toEqual([
      { source: `${DL}/Heat.1995/Heat.1995.en.srt`, reason: 'undone', detail },
      { source: `${DL}/Heat.1995/Heat.1995.mkv`, reason: 'undone', detail },
    ]);
  });

  it('plans the others as usual', () => {
    const r = run([file('Heat.1995.mkv'), file('Ronin.1998.mkv')], undone(['Heat.1995.mkv']));
    expect(Object.keys(r.destinations)).toEqual(['Ronin.1998.mkv']);
    expect(r.reasons).toEqual({ 'Heat.1995.mkv': 'undone' });
  });
});
