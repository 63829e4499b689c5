import { describe, expect, it } from 'vitest';
import { growthExponent, LINEAR_BOUND, run } from '../test-fixtures/growth.ts';
import { compareQuality, parseQuality, qualityFromHeight, UNKNOWN_QUALITY, type Quality } from './quality.ts';

const q = (over: Partial<Quality>): Quality => ({ ...UNKNOWN_QUALITY, ...over });

describe('parseQuality: the forms of Sonarr’s quality tests', () => {
  it.each<[string, Partial<Quality>]>([
    ['Movie.Title.2019.2160p.UHD.BluRay.REMUX.HDR.HEVC.Atmos-EPSiLON', { resolution: 2160, source: 'remux', codec: 'x265', group: 'EPSiLON' }],
    ['Show.Name.S01E01.2160p.UHD.BluRay.x265-GRP', { resolution: 2160, source: 'bluray', codec: 'x265', group: 'GRP' }],
    ['Show.Name.S01E01.1080p.WEB-DL.DD5.1.H.264-GRP', { resolution: 1080, source: 'web-dl', codec: 'x264', group: 'GRP' }],
    ['Show.Name.S01E01.1080p.AMZN.WEB-DL.DDP5.1.H.264-NTb', { resolution: 1080, source: 'web-dl', codec: 'x264', group: 'NTb' }],
    ['Show Name S01E01 720p WEBDL x264', { resolution: 720, source: 'web-dl', codec: 'x264' }],
    ['Show.Name.S01E01.720p.WEBRip.x264-GRP', { resolution: 720, source: 'webrip', codec: 'x264', group: 'GRP' }],
    ['Show.Name.S01E01.1080p.WEB-Rip.x265-GRP', { resolution: 1080, source: 'webrip', codec: 'x265', group: 'GRP' }],
    ['Show.Name.S01E01.720p.HDTV.x264-DIMENSION', { resolution: 720, source: 'hdtv', codec: 'x264', group: 'DIMENSION' }],
    ['Show.Name.S01E01.HDTV.XviD-LOL', { source: 'hdtv', codec: 'xvid', group: 'LOL' }],
    ['Show.Name.S01E01.1080i.HDTV.DD5.1.MPEG2-TrollHD', { resolution: 1080, source: 'hdtv', group: 'TrollHD' }],
    ['Movie.Name.2001.DVDRip.XviD-SAiNTS', { source: 'dvd', codec: 'xvid', group: 'SAiNTS' }],
    ['Show.Name.S01E01.PDTV.XviD-GRP', { source: 'sdtv', codec: 'xvid', group: 'GRP' }],
    ['Show.Name.S01E01.SDTV.x264', { source: 'sdtv', codec: 'x264' }],
    ['Show.Name.S01E01.TVRip.XviD-GRP', { source: 'sdtv', codec: 'xvid', group: 'GRP' }],
    ['Show.Name.S01E01.PROPER.720p.HDTV.x264-GRP', { resolution: 720, source: 'hdtv', codec: 'x264', proper: true, group: 'GRP' }],
    ['Show.Name.S01E01.REAL.PROPER.720p.HDTV.x264-GRP', { resolution: 720, source: 'hdtv', codec: 'x264', proper: true, group: 'GRP' }],
    ['Show.Name.S01E01.REPACK.1080p.WEB.H264-GRP', { resolution: 1080, source: 'web-dl', codec: 'x264', repack: true, group: 'GRP' }],
    ['Show.Name.S01E01.REPACK2.1080p.WEB.H264-GRP', { resolution: 1080, source: 'web-dl', codec: 'x264', repack: true, group: 'GRP' }],
    ['Show.Name.S01E01.RERIP.720p.WEBRip.x264-GRP', { resolution: 720, source: 'webrip', codec: 'x264', repack: true, group: 'GRP' }],
    ['Show.Name.S01E01.576p.BluRay.x264', { resolution: 576, source: 'bluray', codec: 'x264' }],
    ['Show.Name.S01E01.480p.BDRip.x264', { resolution: 480, source: 'bluray', codec: 'x264' }],
    ['Movie.2019.4K.HDR.BluRay.AV1-GRP', { resolution: 2160, source: 'bluray', codec: 'av1', group: 'GRP' }],
    ['Movie.2019.1080p.Blu-Ray.AVC.DTS-HD.MA.5.1-GRP', { resolution: 1080, source: 'bluray', codec: 'x264', group: 'GRP' }],
    ['Movie.2010.DivX.DVD-R', { source: 'dvd', codec: 'xvid' }],
  ])('%s', (name, expected) => {
    expect(parseQuality(name)).toEqual(q(expected));
  });
});

describe('parseQuality: names of the shared corpus', () => {
  it.each<[string, Partial<Quality>]>([
    ['Game.of.Thrones.S08E06.1080p.WEB.H264-MEMENTO', { resolution: 1080, source: 'web-dl', codec: 'x264', group: 'MEMENTO' }],
    [
      'The.Walking.Dead.S07E13.720p.HDTV.x264-AVS-Obfuscated/1e5e2f3464df439b92afea14932a87a4',
      { resolution: 720, source: 'hdtv', codec: 'x264', group: 'AVS' },
    ],
    ['Show.Name.S01.DVDRip.XviD-NOGRP/1x10 - The Episode Name.avi', { source: 'dvd', codec: 'xvid', group: 'NOGRP' }],
    ['[HorribleSubs] Clockwork Planet - 10 [1080p].mkv', { resolution: 1080, group: 'HorribleSubs' }],
    ['[Kira-Fansub] Uchuu no Stellvia ep 14 (BD H264 1280x960 24fps AAC) [06EE7355].mkv', { resolution: 720, codec: 'x264', group: 'Kira-Fansub' }],
    [
      "The.Frighteners.15th.Anniversary.Edition.Director's.Cut.1996.1080p.BluRay.DTS.x264.D-Z0N3.mkv",
      { resolution: 1080, source: 'bluray', codec: 'x264', group: 'D-Z0N3' },
    ],
    ['Ghost.Stories.S01.DVDRip.OGG.x264-Exiled-Destiny', { source: 'dvd', codec: 'x264', group: 'Exiled-Destiny' }],
    ['Kakushigoto - 12 END (720p)-Erai-raws[TGx]', { resolution: 720, group: 'Erai-raws' }],
    ['Evangelion_1.11_You_Are_(Not)_Alone_[1080p,BluRay,x264,DTS-ES]_-_THORA.mkv', { resolution: 1080, source: 'bluray', codec: 'x264', group: 'THORA' }],
    ['Mary Bell (DVD) - 01v2 [h-b].mkv', { source: 'dvd' }],
    [
      'www.1TamilMV.phd - Oppenheimer (2023) English BluRay - 1080p - x264 - (DTS 5.1) - 7.3GB - ESub.mkv',
      { resolution: 1080, source: 'bluray', codec: 'x264' },
    ],
    [
      'The.Creator.2023.PROPER.UHD.WEB-DL.2160p.HEVC.DV.HDR.EAC3.7.1.DL.Remux-TvR',
      { resolution: 2160, source: 'web-dl', codec: 'x265', proper: true, group: 'TvR' },
    ],
    ['[720pMkv.Com]_sons.of.anarchy.s05e10.480p.BluRay.x264-GAnGSteR', { resolution: 480, source: 'bluray', codec: 'x264', group: 'GAnGSteR' }],
    ['Madame Web (2024) 1080p HINDI ENGLISH 10bit AMZN WEBRip DDP5 1 x265 HEVC - PSA Shadow', { resolution: 1080, source: 'webrip', codec: 'x265' }],
    ['[ Torrent911.my ] The.Penguin.S01E07.FRENCH.WEBRip.x264.mp4', { source: 'webrip', codec: 'x264' }],
  ])('%s', (name, expected) => {
    expect(parseQuality(name)).toEqual(q(expected));
  });
});

describe('parseQuality: what it leaves unknown', () => {
  it('reads no group from a title with a dash, or before the last quality word', () => {
    expect(parseQuality('Spider-Man.2002.mkv')).toEqual(UNKNOWN_QUALITY);
    expect(parseQuality('Spider-Man.2002.1080p.mkv')).toEqual(q({ resolution: 1080 }));
    expect(parseQuality('Movie.2020.1080p.WEB-DL').group).toBeNull();
    expect(parseQuality('Movie.2020.1080p.BluRay.x264.DTS-HD').group).toBeNull();
    expect(parseQuality('Show.S01E01.Title-Part.Two.720p.HDTV').group).toBeNull();
    expect(parseQuality('Movie.2020.1080p.BluRay.x265-10bit').group).toBeNull();
  });

  it('reads no group from an extension, a checksum or a site tag', () => {
    expect(parseQuality('Movie.2020.720p.BluRay-GRP.mkv').group).toBe('GRP');
    expect(parseQuality('Show.S01E01.720p.HDTV.x264-LOL[rarbg]').group).toBe('LOL');
    expect(parseQuality('[Himatsubushi]_Sora_no_Woto_-_01_-_H264_-_720p_-_E83AD672.mkv').group).toBe('Himatsubushi');
    expect(parseQuality('Movie.2020.1080p.BluRay.x264-YIFY-Rakuv').group).toBe('YIFY');
  });

  it('takes a bare WEB for web-dl only where a release name puts its source', () => {
    expect(parseQuality("Charlotte's.Web.2006.720p.x264-GRP")).toEqual(q({ resolution: 720, codec: 'x264', group: 'GRP' }));
    expect(parseQuality('Web.Therapy.S01E01.720p.x264').source).toBeNull();
    expect(parseQuality('Show.S01E01.WEB.x264-GRP').source).toBe('web-dl');
    expect(parseQuality('Movie.2020.WEB.x264-GRP').source).toBe('web-dl');
    expect(parseQuality('Show.S01E01.AMZN.WEB.x264-GRP').source).toBe('web-dl');
  });

  it('reads nothing from the first word, which is the title', () => {
    expect(parseQuality('Proper.Manors.S01E01')).toEqual(UNKNOWN_QUALITY);
    expect(parseQuality('Remux.2020.mkv')).toEqual(UNKNOWN_QUALITY);
    expect(parseQuality('2160p.UHD.BluRay.REMUX.mkv')).toEqual(q({ resolution: 2160, source: 'remux' }));
  });

  it('gives no resolution for a source alone, where Sonarr assumes SD', () => {
    expect(parseQuality('Show.S01E01.HDTV.x264-LOL').resolution).toBeNull();
    expect(parseQuality('Show.S01E01.720p').source).toBeNull();
  });

  it('reads a release folder where the file name says nothing of quality', () => {
    expect(parseQuality('Heat.1995.1080p.BluRay-GRP/abc123.mkv')).toEqual(q({ resolution: 1080, source: 'bluray', group: 'GRP' }));
    expect(parseQuality('Heat.1995.1080p.BluRay-GRP/Heat.1995.720p.HDTV.mkv')).toEqual(q({ resolution: 720, source: 'hdtv' }));
    expect(parseQuality('Movies/Heat (1995)/Heat (1995).mkv')).toEqual(UNKNOWN_QUALITY);
  });

  it('reads frame sizes by their class', () => {
    expect(parseQuality('[G] Show - 01 [1920x1080 x264]').resolution).toBe(1080);
    expect(parseQuality('[G] Show - 01 [1920x800 x264]').resolution).toBe(1080);
    expect(parseQuality('[G] Show - 01 [848x480 x264]').resolution).toBe(480);
    expect(parseQuality('[G] Show - 01 [720x576 x264]').resolution).toBe(576);
  });
});

describe('compareQuality', () => {
  const hd = (over: Partial<Quality>) => q({ resolution: 1080, source: 'bluray', ...over });

  it('ranks resolution first, then the source', () => {
    expect(compareQuality(q({ resolution: 2160, source: 'hdtv' }), hd({ source: 'remux' }))).toBe(1);
    expect(compareQuality(hd({ resolution: 720, source: 'remux' }), hd({}))).toBe(-1);
    const order = ['remux', 'bluray', 'web-dl', 'webrip', 'hdtv', 'dvd', 'sdtv'] as const;
    for (let i = 0; i + 1 < order.length; i++) {
      expect(compareQuality(hd({ source: order[i] }), hd({ source: order[i + 1] }))).toBe(1);
      expect(compareQuality(hd({ source: order[i + 1] }), hd({ source: order[i] }))).toBe(-1);
    }
  });

  it('puts a PROPER or REPACK above the same quality, and the codec and group count for nothing', () => {
    expect(compareQuality(hd({ proper: true }), hd({}))).toBe(1);
    expect(compareQuality(hd({}), hd({ repack: true }))).toBe(-1);
    expect(compareQuality(hd({ proper: true }), hd({ repack: true }))).toBe(0);
    expect(compareQuality(hd({ codec: 'x265', group: 'A' }), hd({ codec: 'x264', group: 'B' }))).toBe(0);
    expect(compareQuality(hd({ resolution: 720, proper: true }), hd({}))).toBe(-1);
  });

  it('is null when either side lacks its resolution or source', () => {
    expect(compareQuality(hd({ resolution: null }), hd({}))).toBeNull();
    expect(compareQuality(hd({}), hd({ source: null }))).toBeNull();
    expect(compareQuality(UNKNOWN_QUALITY, UNKNOWN_QUALITY)).toBeNull();
  });
});

describe('qualityFromHeight', () => {
  it.each<[number | null, number | null, number | null]>([
    [2160, 3840, 2160],
    [1600, 3840, 2160],
    [1600, null, 2160],
    [1080, 1920, 1080],
    [800, 1920, 1080],
    [800, null, 1080],
    [1036, null, 1080],
    [720, 1280, 720],
    [536, 1280, 720],
    [960, 1280, 720],
    [720, null, 720],
    [576, 720, 576],
    [576, null, 576],
    [480, 720, 480],
    [360, 640, 480],
    [null, 1920, null],
    [0, null, null],
    [Number.NaN, null, null],
  ])('height %s, width %s → %s', (height, width, expected) => {
    expect(qualityFromHeight(height, width)).toBe(expected);
  });
});

describe('parseQuality runs in linear time', () => {
  it.each<[string, string, string]>([
    ['Show.', '-', 'x264'],
    ['', 'a-', '1080p'],
    ['', '1080p.', '-GRP'],
    ['[', '[', ']'],
    ['', 'web.', 'x'],
    ['Movie.1080p', '-a', ''],
    ['', '/a.1080p-', 'x.mkv'],
    ['', '(', ')'],
    ['', '1920x1080', ''],
    ['', '_', '-_GRP'],
  ])(
    '%s + %s… + %s',
    (before, unit, after) => {
      expect(growthExponent(parseQuality, run(before, unit, after))).toBeLessThan(LINEAR_BOUND);
    },
    60_000,
  );
});
