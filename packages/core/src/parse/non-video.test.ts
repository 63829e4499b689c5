import { describe, expect, it } from 'vitest';
import { nonVideoExtension, nonVideoReason } from './non-video.ts';
import { episode, expectParsed, expectRefused, movie } from './test-fixtures/expect-parse.ts';

describe('names of things that are no video', () => {
  it.each([
    ['Some_Artist-Some_Album-WEB-2021-GRP', /music/],
    ['Some_Artist-Some_Album-(CAT001)-2xVinyl-1999-GRP', /music/],
    ['Some Artist - Some Album (2018) [FLAC 24bit]', /music/],
    ['Some Artist - Greatest Hits (2001) MP3 320kbps', /music/],
    ['VA-Summer_Hits_Vol_3-2CD-2004-GRP', /music/],
    ['Some_Artist-Title-(EP)-2010-GRP', /music/],
    ['Photo.Editor.Pro.v4.2.1.x64.Incl.Keygen-GRP', /software/],
    ['Photo.Editor.2023.24.1.3-GRP', /software/],
    ['Space_Racer_Update_v1.2.0_NSW-GRP', /game/],
    ['Space.Racer.PS4-GRP', /game/],
    ['Space.Racer.Collectors.Edition-CODEX', null],
    ['A.Long.Novel.2019.Retail.EPUB.eBook-GRP', /book/],
    ['Comic.Hero.No.12.2020.Hybrid.Comic.eBook-GRP', /book/],
    ['Die_Stimme-Hörspiel-AUDIOBOOK-WEB-DE-2021-GRP', /book|music/],
  ])('%s', (name, why) => {
    if (why === null) expect(nonVideoReason(name)).toBeNull();
    else expect(nonVideoReason(name)).toMatch(why);
  });

  it('never outweighs a video codec, a resolution or an episode marker', () => {
    expect(nonVideoReason('Some.Show.S01E05.Official.Xbox.Magazine.720p.WEB.x264')).toBeNull();
    expect(nonVideoReason('[Grp] Some Anime - 05 [BD 1080p FLAC].mkv')).toBeNull();
  });

  it('takes a bracketed CRC32 of the file for a fansub episode, not a catalogue number or an audio file', () => {
    expectParsed('[Grp] Some Anime 05 [BD FLAC][D7F8E39D].mkv', { kind: 'episode', title: 'Some Anime', absolute_episodes: [5] });
    expectParsed('[Grp] Some Anime 05 [BD FLAC] (0c4e6b1a).mkv', { kind: 'episode', title: 'Some Anime', absolute_episodes: [5] });
    expectRefused('Some Artist - Some Album 05 (2018) [FLAC] (30022913)', /music/);
    expect(nonVideoExtension('[Grp] Some Anime OST - 01 [ABCD1234].flac')).toBe('flac');
  });

  it('takes the ripped TV and satellite sources for video, whatever reads as a version number', () => {
    expect(nonVideoReason('Photo.Editor.4.2.1.HDTVRip-GRP')).toBeNull();
    expect(nonVideoReason('Photo.Editor.4.2.1.SATRip-GRP')).toBeNull();
    expect(nonVideoReason('Photo.Editor.4.2.1.WEB-DLRip-GRP')).toBeNull();
    expect(nonVideoReason('Photo.Editor.4.2.1-GRP')).toMatch(/software/);
    expectParsed('7.12.21.[S02].(2018).HDTVRip-GRP', episode('7 12 21', 2, []));
  });

  it('leaves film titles that merely contain such a word', () => {
    expectParsed('The.Patch.Doctor.1998.1080p.BluRay', movie('The Patch Doctor', 1998));
    expectParsed('The Single Moms (2014).mkv', movie('The Single Moms', 2014));
  });

  it('refuses names with the extension of music, books, archives and the like', () => {
    expect(nonVideoExtension('Some Artist - Song.mp3')).toBe('mp3');
    expect(nonVideoExtension('Some.Show.S01E01.720p.rar')).toBe('rar');
    expect(nonVideoExtension('Some.Show.S01E05.720p.WEB-DL.x264.AAC')).toBeNull();
    expectRefused('Some Artist - Song (1999).mp3', /\.mp3/);
    expectRefused('Some.Show.S01E01.720p.HDTV.x264-GRP.nzb', /\.nzb/);
  });

  it('refuses through the parser with the reason', () => {
    expectRefused('Some_Artist-Some_Album-WEB-2021-GRP', /music release/);
    expectRefused('Photo.Editor.Pro.v4.2.1.x64.Incl.Keygen-GRP', /software/);
  });
});
