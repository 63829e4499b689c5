import { describe, expect, it } from 'vitest';
import { episode, item } from '../releases/test-fixtures/index-items.ts';
import { duplicateReport } from './duplicates.ts';

const D1 = '/m/disk1';
const D2 = '/m/disk2';

describe('duplicateReport: movies', () => {
  it('groups the same movie on two drives, with files and bytes per copy', () => {
    const r = duplicateReport([
      item(`${D1}/Movies/Heat (1995)/Heat (1995).mkv`, { bytes: 100 }),
      item(`${D1}/Movies/Heat (1995)/Heat (1995).en.srt`, { bytes: 2 }),
      item(`${D2}/Movies/Heat (1995)/Heat (1995).mp4`, { bytes: 50 }),
      item(`${D2}/Movies/Alien (1979)/Alien (1979).mkv`),
    ]);
    expect(r.movies).toEqual([
      {
        title: 'Heat',
        year: 1995,
        edition: null,
        copies: [
          { folder: `${D1}/Movies/Heat (1995)`, drive: 'disk1', files: 2, bytes: 102, quality: null },
          { folder: `${D2}/Movies/Heat (1995)`, drive: 'disk2', files: 1, bytes: 50, quality: null },
        ],
      },
    ]);
    expect(r.series).toEqual([]);
  });

  it('matches titles that differ in case, punctuation, accents and a leading article', () => {
    const r = duplicateReport([
      item(`${D1}/Movies/Amélie (2001)/a.mkv`),
      item(`${D2}/Movies/amelie (2001)/b.mkv`),
      item(`${D1}/Movies/The Matrix (1999)/m.mkv`),
      item(`${D2}/Movies/Matrix (1999)/m.mkv`),
      item(`${D1}/Movies/Mission - Impossible (1996)/m.mkv`),
      item(`${D2}/Movies/Mission Impossible (1996)/m.mkv`),
    ]);
    expect(r.movies.map((g) => [g.title, g.copies.length])).toEqual([
      ['Amélie', 2],
      ['The Matrix', 2],
      ['Mission - Impossible', 2],
    ]);
  });

  it('keeps remakes apart by year, and a movie without a year apart from one with', () => {
    const r = duplicateReport([item(`${D1}/Movies/Dune (1984)/d.mkv`), item(`${D2}/Movies/Dune (2021)/d.mkv`), item(`${D2}/Movies/Dune/d.mkv`)]);
    expect(r.movies).toEqual([]);
  });

  it('does not count different editions as duplicates, but does count the same edition twice', () => {
    const r = duplicateReport([
      item(`${D1}/Movies/Blade Runner (1982)/Blade Runner (1982).mkv`),
      item(`${D1}/Movies/Blade Runner (1982) {edition-Final Cut}/Blade Runner (1982).mkv`),
      item(`${D2}/Movies/Blade Runner (1982) - Director's Cut/Blade Runner (1982).mkv`),
      item(`${D2}/Movies/Blade Runner (1982) {edition-Final Cut}/Blade Runner (1982).mkv`),
    ]);
    expect(r.movies).toEqual([
      {
        title: 'Blade Runner',
        year: 1982,
        edition: 'Final Cut',
        copies: [
          { folder: `${D1}/Movies/Blade Runner (1982) {edition-Final Cut}`, drive: 'disk1', files: 1, bytes: 1, quality: null },
          { folder: `${D2}/Movies/Blade Runner (1982) {edition-Final Cut}`, drive: 'disk2', files: 1, bytes: 1, quality: null },
        ],
      },
    ]);
  });

  it('reads the edition from the movie file when the folder has none', () => {
    const r = duplicateReport([
      item(`${D1}/Movies/Aliens (1986)/Aliens (1986) {edition-Special Edition}.mkv`),
      item(`${D2}/Movies/Aliens (1986)/Aliens (1986) Bluray-1080p.mkv`),
      item(`${D2}/Movies/Aliens (1986)/Featurettes/Aliens (1986) {edition-Director's Cut}.mkv`, { extra: true, bytes: 9 }),
    ]);
    expect(r.movies).toEqual([]);
  });

  it('counts a loose movie file as a copy of its own', () => {
    const r = duplicateReport([
      item(`${D1}/Movies/Heat.1995.1080p.BluRay.x264-GRP.mkv`, { title: 'Heat', year: 1995 }),
      item(`${D1}/Movies/Heat (1995)/Heat (1995).mkv`),
    ]);
    expect(r.movies[0]!.copies.map((c) => c.folder)).toEqual([`${D1}/Movies/Heat (1995)`, `${D1}/Movies/Heat.1995.1080p.BluRay.x264-GRP.mkv`]);
  });

  it('gives each copy the quality its main video’s name, or else its folder’s, states', () => {
    const r = duplicateReport([
      item(`${D1}/Movies/Heat (1995)/Heat (1995) Bluray-1080p Proper.mkv`, { bytes: 10 }),
      item(`${D1}/Movies/Heat (1995)/Heat (1995) sample 720p.mkv`, { bytes: 1 }),
      item(`${D2}/Movies/Heat.1995.2160p.UHD.BluRay.REMUX.HEVC-FGT/heat.mkv`, { title: 'Heat', year: 1995 }),
      item(`${D2}/Movies/Heat.1995.720p.WEB-DL.x264-NTb.mkv`, { title: 'Heat', year: 1995 }),
      item(`${D2}/Movies/Heat (1995)/Heat (1995).mkv`),
    ]);
    const none = { codec: null, proper: false, repack: false, group: null };
    expect(r.movies[0]!.copies.map((c) => [c.folder, c.quality])).toEqual([
      [`${D1}/Movies/Heat (1995)`, { ...none, resolution: 1080, source: 'bluray', proper: true }],
      [`${D2}/Movies/Heat (1995)`, null],
      [`${D2}/Movies/Heat.1995.2160p.UHD.BluRay.REMUX.HEVC-FGT`, { ...none, resolution: 2160, source: 'remux', codec: 'x265', group: 'FGT' }],
      [`${D2}/Movies/Heat.1995.720p.WEB-DL.x264-NTb.mkv`, { ...none, resolution: 720, source: 'web-dl', codec: 'x264', group: 'NTb' }],
    ]);
  });

  it('ignores folders that hold only extras, samples or artwork', () => {
    const r = duplicateReport([
      item(`${D1}/Movies/Heat (1995)/Heat (1995).mkv`),
      item(`${D2}/Movies/Heat (1995)/poster.jpg`),
      item(`${D2}/Movies/Heat (1995)/Sample/heat.sample.mkv`, { extra: true }),
    ]);
    expect(r.movies).toEqual([]);
  });
});

describe('duplicateReport: series', () => {
  it('groups a series across drives and across TV and TV Shows folders, counting shared episodes', () => {
    const r = duplicateReport([
      episode(`${D1}/TV/Lost`, 1, [1]),
      episode(`${D1}/TV/Lost`, 1, [2, 3]),
      episode(`${D2}/TV Shows/Lost`, 1, [3]),
      episode(`${D2}/TV Shows/Lost`, 2, [1]),
      episode(`${D2}/TV Shows/Fargo`, 1, [1]),
    ]);
    expect(r.series).toEqual([
      {
        title: 'Lost',
        copies: [
          { folder: `${D1}/TV/Lost`, drive: 'disk1', episode_count: 3 },
          { folder: `${D2}/TV Shows/Lost`, drive: 'disk2', episode_count: 2 },
        ],
        shared_episodes: 1,
      },
    ]);
  });

  it('matches a folder with a year to one without, but not two different years', () => {
    const r = duplicateReport([
      episode(`${D1}/TV/The Office (2005)`, 1, [1]),
      episode(`${D2}/TV/Office`, 1, [1]),
      episode(`${D1}/TV/Doctor Who (1963)`, 1, [1]),
      episode(`${D2}/TV/Doctor Who (2005)`, 1, [1]),
    ]);
    expect(r.series.map((g) => g.copies.map((c) => c.folder))).toEqual([[`${D1}/TV/The Office (2005)`, `${D2}/TV/Office`]]);
  });

  it('matches series by title key, and keeps them apart by country as by year', () => {
    const r = duplicateReport([
      episode(`${D1}/TV/The Office (US)`, 1, [1]),
      episode(`${D2}/TV Shows/The Office (US) [tvdbid-73244]`, 2, [1]),
      episode(`${D2}/TV/The Office (UK)`, 1, [1]),
      episode(`${D1}/TV/Law & Order`, 1, [1]),
      episode(`${D2}/TV/Law and Order`, 1, [1]),
      episode(`${D1}/TV/Castle (2009)`, 1, [1]),
      episode(`${D2}/TV/Castle Rock`, 1, [1]),
    ]);
    expect(r.series.map((g) => g.copies.map((c) => c.folder))).toEqual([
      [`${D1}/TV/Law & Order`, `${D2}/TV/Law and Order`],
      [`${D1}/TV/The Office (US)`, `${D2}/TV Shows/The Office (US) [tvdbid-73244]`],
    ]);
  });

  it('groups loose episodes by their series title, and ignores series without episodes', () => {
    const r = duplicateReport([
      item(`${D1}/TV/Fargo.S02E05.1080p.WEB.mkv`, { title: 'Fargo', season: 2, episodes: [5] }),
      item(`${D1}/TV/fargo.s02e06.mkv`, { title: 'fargo', season: 2, episodes: [6] }),
      episode(`${D2}/TV/Fargo`, 1, [1]),
      item(`${D2}/TV/Lost/tvshow.nfo`),
      item(`${D1}/TV/Lost/Extras/Making of.mkv`, { extra: true, season: 1, episodes: [1] }),
    ]);
    expect(r.series).toEqual([
      {
        title: 'Fargo',
        copies: [
          { folder: `${D1}/TV`, drive: 'disk1', episode_count: 2 },
          { folder: `${D2}/TV/Fargo`, drive: 'disk2', episode_count: 1 },
        ],
        shared_episodes: 0,
      },
    ]);
  });
});
