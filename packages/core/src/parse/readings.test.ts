import { describe, expect, it } from 'vitest';
import { readingsOf } from './readings.ts';

/** Each reading as `title | season | episodes | absolute`, the primary first where the parser is sure. */
function readings(name: string): string[] {
  const r = readingsOf(name);
  const all = r.primary.ok ? [r.primary.media, ...r.alternatives] : r.alternatives;
  return all.map((m) => `${m.title} | ${m.season ?? '-'} | ${m.episodes.join(',') || '-'} | ${m.absolute_episodes.join(',') || '-'}`);
}

describe('readingsOf: the other ways a name can be read, for the library to decide', () => {
  it('a title ending in a number before an absolute episode: that number may be the season', () => {
    expect(readings('Hanayome 3 - 21 [1080p].mkv')).toEqual(['Hanayome 3 | - | - | 21', 'Hanayome | 3 | 21 | -']);
    expect(readings('[Grp] Some Show 2 - 05 (720p).mkv')).toEqual(['Some Show 2 | - | - | 5', 'Some Show | 2 | 5 | -']);
  });

  it('`Show - Subtitle - NN`, which the parser refuses: the series may end at either dash', () => {
    const r = readingsOf('[Grp] Kodomo - Hikari no Machi - 07 [1080p].mkv');
    expect(r.primary.ok).toBe(false);
    expect(readings('[Grp] Kodomo - Hikari no Machi - 07 [1080p].mkv')).toEqual(['Kodomo - Hikari no Machi | - | - | 7', 'Kodomo | - | - | 7']);
  });

  it('a title followed by bare numbers: season and episode, an old scene number, or an absolute number', () => {
    expect(readings('parks_04_12.avi')).toEqual(['parks 04 12 | - | - | -', 'parks | 4 | 12 | -']);
    expect(readings('the.Programme.305.avi')).toEqual(['the Programme 305 | - | - | -', 'the Programme | 3 | 5 | -', 'the Programme | - | - | 305']);
    // One or two digits may be a sequel's: no episode reading.
    expect(readings('Quiet Town 13.mkv')).toEqual(['Quiet Town 13 | - | - | -']);
  });

  it('an old scene number the parser read as absolute may be a season and episode', () => {
    expect(readings('Some.Programme.1104.HDTV.x264.mkv')).toEqual(['Some Programme | - | - | 1104', 'Some Programme | 11 | 4 | -']);
  });

  it('gives no other reading where the name says what it is, or a number is a year or too large for a season', () => {
    expect(readings('Some.Programme.S02E03.720p.mkv')).toEqual(['Some Programme | 2 | 3 | -']);
    expect(readings('Heat.1995.1080p.mkv')).toEqual(['Heat | - | - | -']);
    expect(readings('Quiet Town 2019.mkv')).toEqual(['Quiet Town | - | - | -']);
    expect(readings('Quiet Town 75 - 03.mkv').filter((r) => r.includes('| 75 |'))).toEqual([]);
    expect(readings('Some.Programme.5100.mkv').filter((r) => r.includes('| 51 |'))).toEqual([]);
  });

  it('keeps the title of a name refused for what it lacks, as a movie where nothing speaks of episodes: where settling it starts', () => {
    const r = readingsOf('Quiet.Town.1080p.BluRay.x264.mkv');
    expect(r.primary).toEqual({ ok: false, detail: 'no year, season, episode or air date in the name' });
    expect(r.alternatives).toMatchObject([{ kind: 'movie', title: 'Quiet Town', year: null }]);
  });

  it('each title of a tracker name in several languages, for the library to pick', () => {
    expect(readings('Тихий город (S3E2) / Quiet Town (S3E2) (2021) WEB-DL 1080p.mkv')).toEqual(['Тихий город | 3 | 2 | -', 'Quiet Town | 3 | 2 | -']);
  });

  it("a language word right before a movie's year: a tag as the parser reads it, or the title's last word", () => {
    const r = readingsOf('Quiet.Town.French.2006.720p.BluRay.x264.mkv');
    expect(r.primary).toMatchObject({ ok: true, media: { title: 'Quiet Town', year: 2006 } });
    expect(r.alternatives).toMatchObject([{ kind: 'movie', title: 'Quiet Town French', year: 2006 }]);
    expect(readingsOf('Quiet.Town.2006.French.720p.mkv').alternatives).toEqual([]);
  });

  it('gives none for what is no video or refused outright', () => {
    expect(readingsOf('Artist - Album (2010) [FLAC].mkv').alternatives).toEqual([]);
    expect(readingsOf('notes.pdf').alternatives).toEqual([]);
  });
});
