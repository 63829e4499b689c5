import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadSeriesName, forcedMedia, resolveManualTarget, seriesFolderOf, withAliases } from './manual-import.ts';

describe('manual import decisions', () => {
  it('reads a title as a library folder spells it: year and country split off for the template', () => {
    expect(forcedMedia({ kind: 'episode', title: 'Doctor Who (2005)', season: 1, episodes: [1] })).toMatchObject({
      title: 'Doctor Who',
      year: 2005,
      country: null,
      season: 1,
      episodes: [1],
    });
    expect(forcedMedia({ kind: 'episode', title: 'The Office (US)', season: 2, episodes: [3, 4] })).toMatchObject({
      title: 'The Office',
      year: null,
      country: 'US',
    });
    expect(forcedMedia({ kind: 'episode', title: 'The Daily Show', air_date: '2024-03-01' })).toMatchObject({
      season: null,
      episodes: [],
      air_date: '2024-03-01',
    });
    expect(forcedMedia({ kind: 'episode', title: 'Show', season: 2 }, [5])).toMatchObject({ season: 2, episodes: [5] });
    expect(forcedMedia({ kind: 'movie', title: 'Heat', year: 1995 })).toMatchObject({ kind: 'movie', title: 'Heat', year: 1995 });
  });

  it('names the series as the download gives it, and the folder an episode went into', () => {
    expect(downloadSeriesName('Dr.Who.S01E01.720p.mkv')).toBe('Dr Who');
    expect(downloadSeriesName('The.Office.US.S01E01.mkv')).toBe('The Office (US)');
    expect(downloadSeriesName('Pack/Chihayafuru 3 - 21.mkv')).not.toBeNull();
    expect(seriesFolderOf('/m/d1/TV Shows/Doctor Who (2005)/Season 01/x.mkv', [{ path: '/m/d1' }], ['TV', 'TV Shows'])).toBe('Doctor Who (2005)');
    expect(seriesFolderOf('/m/d1/Movies/Heat (1995)/x.mkv', [{ path: '/m/d1' }], ['TV'])).toBeNull();
  });

  it("adds an alias once, lets the latest word for a name win, and skips a name the folder's own title files there", () => {
    const a = { name: 'Dr Who', series: 'Doctor Who (2005)' };
    expect(withAliases([], [a])).toEqual({ aliases: [a], added: [a] });
    expect(withAliases([a], [{ name: 'dr. who', series: 'Doctor Who (2005)' }])).toEqual({ aliases: [a], added: [] });
    const b = { name: 'Dr Who', series: 'Doctor Who (1963)' };
    expect(withAliases([a], [b])).toEqual({ aliases: [b], added: [b] });
    expect(withAliases([], [{ name: 'Doctor Who (2005)', series: 'Doctor Who (2005)' }]).added).toEqual([]);
  });

  it('refuses a library folder on a drive inside the downloads folder, and a folder holding one: they are no downloads', async () => {
    const root = mkdtempSync(join(os.tmpdir(), 'manual-target-'));
    try {
      const downloads = join(root, 'downloads');
      const season = join(downloads, 'media/TV/Doctor Who (2005)/Season 01');
      mkdirSync(season, { recursive: true });
      writeFileSync(join(season, 'Doctor Who (2005) - S01E01.mkv'), 'library');
      mkdirSync(join(downloads, 'incoming'), { recursive: true });
      writeFileSync(join(downloads, 'incoming/Show.S01E01.mkv'), 'download');
      const library = [join(downloads, 'media/Movies'), join(downloads, 'media/TV')];
      for (const path of [season, join(season, 'Doctor Who (2005) - S01E01.mkv'), join(downloads, 'media/TV'), join(downloads, 'media')]) {
        await expect(resolveManualTarget(downloads, path, library)).rejects.toMatchObject({ code: 'forbidden', details: { key: 'path' } });
      }
      await expect(resolveManualTarget(downloads, join(downloads, 'incoming/Show.S01E01.mkv'), library)).resolves.toEqual({
        rel: 'incoming/Show.S01E01.mkv',
        folder: false,
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
