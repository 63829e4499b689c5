import { describe, expect, it } from 'vitest';
import {
  codecName,
  containerName,
  episodeCode,
  fileName,
  formatBytes,
  formatDuration,
  languageName,
  progressNote,
  qualityLabel,
  readProgress,
  splitPath,
} from './format.ts';

describe('readProgress', () => {
  it("reads ffmpeg's progress as percent, speed and the time left at that speed", () => {
    // 30 s of a 120 s file done at 2× real time: 90 s of media left, 45 s of wall time.
    expect(readProgress({ percent: 25, speed: 2, out_time_seconds: 30, done: false })).toEqual({ percent: 25, speed: 2, eta_seconds: 45 });
  });
  it("takes the ETA a transcode's worker reports over one worked out here", () => {
    expect(readProgress({ percent: 25, speed: 2, out_time_seconds: 30, eta_seconds: 50 })?.eta_seconds).toBe(50);
    expect(readProgress({ percent: 25, speed: 2, out_time_seconds: 30, eta_seconds: null })?.eta_seconds).toBe(45);
  });
  it('has no ETA before the first second or without a speed, and takes a bare number as a percent', () => {
    expect(readProgress({ percent: 0, speed: 1.5, out_time_seconds: 0 })?.eta_seconds).toBeNull();
    expect(readProgress({ percent: 40, speed: null, out_time_seconds: 10 })).toEqual({ percent: 40, speed: null, eta_seconds: null });
    expect(readProgress(12)).toEqual({ percent: 12, speed: null, eta_seconds: null });
    expect(readProgress(null)).toBeNull();
    expect(readProgress({ files: 10 })).toEqual({ percent: null, speed: null, eta_seconds: null });
  });
});

describe('formats', () => {
  it('writes sizes in decimal units', () => {
    expect([0, 999, 1000, 1_534_000, 52_428_800_000].map(formatBytes)).toEqual(['0 B', '999 B', '1.00 KB', '1.53 MB', '52.4 GB']);
    expect(formatBytes(null)).toBe('–');
  });
  it('writes durations and episode codes', () => {
    expect([5, 65, 200, 3725].map(formatDuration)).toEqual(['5s', '1m 05s', '3m 20s', '1h 02m']);
    expect(formatDuration(-1)).toBe('–');
    expect(episodeCode(1, [2, 3])).toBe('S01E02E03');
    expect(episodeCode(12, 5)).toBe('S12E05');
    expect(episodeCode(null, null)).toBe('');
  });
});

describe('progressNote', () => {
  it("words a scanner pass's, a library scan's and an organize apply's progress, and nothing else", () => {
    expect(progressNote({ moved: 3, planned: 10 })).toBe('3 of 10 moved');
    expect(progressNote({ done: 1200, total: 4000 })).toBe('1,200 of 4,000 done');
    expect(progressNote({ done: 3 })).toBeNull();
    expect(progressNote({ files: 12500 })).toBe('12,500 files');
    expect(progressNote({ percent: 25, speed: 2, out_time_seconds: 30 })).toBeNull();
    expect(progressNote({ moved: 3 })).toBeNull();
    expect(progressNote(40)).toBeNull();
    expect(progressNote(null)).toBeNull();
  });
});

describe('languageName', () => {
  it('names ISO 639-2 codes, bibliographic and terminologic alike, in words', () => {
    expect(languageName('eng')).toBe('English');
    expect(languageName('jpn')).toBe('Japanese');
    expect(languageName('ger')).toBe('German');
    expect(languageName('deu')).toBe('German');
    expect(languageName('fre')).toBe('French');
    expect(languageName('fra')).toBe('French');
    expect(languageName('chi')).toBe('Chinese');
    expect(languageName('zho')).toBe('Chinese');
    expect(languageName('dut')).toBe('Dutch');
    expect(languageName('ENG')).toBe('English');
  });
  it('names two-letter codes and three-letter ones Intl knows without the table', () => {
    expect(languageName('en')).toBe('English');
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(languageName('haw')).toBe('Hawaiian');
  });
  it('says Unknown for und and names the other codes that are no language', () => {
    expect(languageName('und')).toBe('Unknown');
    expect(languageName('zxx')).toBe('No language');
    expect(languageName('mul')).toBe('Several languages');
  });
  it('is null for no tag, and shows a tag Intl cannot read as it is', () => {
    expect(languageName(null)).toBeNull();
    expect(languageName('')).toBeNull();
    expect(languageName('not a tag')).toBe('not a tag');
    expect(languageName('qaa')).toBe('qaa');
  });
});

describe('containerName', () => {
  it("names ffprobe's format names as a person knows the container", () => {
    expect(containerName('matroska,webm')).toBe('Matroska');
    expect(containerName('mov,mp4,m4a,3gp,3g2,mj2')).toBe('MP4');
    expect(containerName('avi')).toBe('AVI');
    expect(containerName('mpegts')).toBe('MPEG-TS');
    expect(containerName('mpeg')).toBe('MPEG-PS');
    expect(containerName('asf')).toBe('Windows Media (ASF)');
  });
  it('shows a format it does not know as ffprobe gave it, and is null for none', () => {
    expect(containerName('nut')).toBe('nut');
    expect(containerName(null)).toBeNull();
  });
});

describe('codecName', () => {
  it('names common codecs, and shows others as ffprobe gave them', () => {
    expect(codecName('h264')).toBe('H.264');
    expect(codecName('hevc')).toBe('H.265 (HEVC)');
    expect(codecName('aac')).toBe('AAC');
    expect(codecName('subrip')).toBe('SubRip (SRT)');
    expect(codecName('prores')).toBe('prores');
    expect(codecName(null)).toBeNull();
  });
});

describe('fileName', () => {
  it('is the last part of a path', () => {
    expect(fileName('/m/Movies/Heat (1995)/Heat (1995).mkv')).toBe('Heat (1995).mkv');
    expect(fileName('Heat.mkv')).toBe('Heat.mkv');
  });
});

describe('splitPath', () => {
  const roots = ['/srv/media', '/srv/media/series-drive/', '/downloads'];
  it('keeps the part below the deepest root a path lies in', () => {
    expect(splitPath('/srv/media/Movies/Heat (1995)/Heat (1995).mkv', roots)).toEqual({ head: '/srv/media/', tail: 'Movies/Heat (1995)/Heat (1995).mkv' });
    expect(splitPath('/srv/media/series-drive/TV/Show/S01E01.mkv', roots)).toEqual({ head: '/srv/media/series-drive/', tail: 'TV/Show/S01E01.mkv' });
    expect(splitPath('/downloads/Heat.1995.1080p/Heat.mkv', roots).tail).toBe('Heat.1995.1080p/Heat.mkv');
  });
  it('keeps the file name of a path outside every root, and a root needs a whole folder name to match', () => {
    expect(splitPath('/srv/media-other/a/b.mkv', roots)).toEqual({ head: '/srv/media-other/a/', tail: 'b.mkv' });
    expect(splitPath('/elsewhere/deep/folder/', [])).toEqual({ head: '/elsewhere/deep/', tail: 'folder/' });
    expect(splitPath('/srv/media', roots)).toEqual({ head: '/srv/', tail: 'media' });
    expect(splitPath('name.mkv', roots)).toEqual({ head: '', tail: 'name.mkv' });
    expect(splitPath('/top.mkv', ['/'])).toEqual({ head: '', tail: '/top.mkv' });
  });
  it('splits a Windows path at its backslashes', () => {
    expect(splitPath('D:\\Media\\Movies\\Heat.mkv', ['D:\\Media'])).toEqual({ head: 'D:\\Media\\', tail: 'Movies\\Heat.mkv' });
  });
  it('always gives back the whole path when the parts are joined', () => {
    for (const p of ['/a', '/srv/media/x', 'C:\\x\\y', '/downloads/', '/srv/media/series-drive/a/b/c']) {
      const { head, tail } = splitPath(p, roots);
      expect(head + tail).toBe(p);
    }
  });
});

describe('qualityLabel', () => {
  const none = { resolution: null, source: null, codec: null, proper: false, repack: false, group: null };
  it('writes resolution, source and codec as release names do, then the fixes and the group', () => {
    expect(qualityLabel({ ...none, resolution: 1080, source: 'bluray', codec: 'x264', proper: true, group: 'GRP' })).toBe('1080p BluRay x264 · PROPER · GRP');
    expect(qualityLabel({ ...none, resolution: 2160, source: 'remux', codec: 'x265' })).toBe('2160p Remux x265');
    expect(qualityLabel({ ...none, source: 'web-dl', repack: true })).toBe('WEB-DL · REPACK');
    expect(qualityLabel({ ...none, source: 'webrip', codec: 'av1' })).toBe('WEBRip AV1');
    expect(qualityLabel({ ...none, source: 'sdtv', codec: 'xvid', group: 'LOL' })).toBe('SDTV XviD · LOL');
    expect(qualityLabel({ ...none, group: 'NTb' })).toBe('NTb');
  });
  it('is null where the name says nothing of its quality', () => {
    expect(qualityLabel(none)).toBeNull();
    expect(qualityLabel(null)).toBeNull();
    expect(qualityLabel(undefined)).toBeNull();
  });
});
