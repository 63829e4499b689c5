import { describe, expect, it } from 'vitest';
import { recogniseMedia } from './recognise.ts';

const media = (name: string) => {
  const r = recogniseMedia(name);
  return r.ok ? r.media : null;
};
const refusal = (name: string) => {
  const r = recogniseMedia(name);
  return r.ok ? null : r.detail;
};

describe('recogniseMedia', () => {
  it('takes a movie with its year, and the edition', () => {
    expect(media('Blade Runner 2049 (2017).mkv')).toMatchObject({ kind: 'movie', title: 'Blade Runner 2049', year: 2017, edition: null });
    expect(media('Aliens.1986.Extended.1080p.mkv')).toEqual({
      kind: 'movie',
      title: 'Aliens',
      year: 1986,
      season: null,
      episodes: [],
      air_date: null,
      edition: 'Extended',
      country: null,
    });
  });

  it('refuses a movie without a year, and says so', () => {
    expect(refusal('Inception.1080p.BluRay.mkv')).toMatch(/year/);
  });

  it('takes numbered and daily episodes, and the series year', () => {
    expect(media('Doctor.Who.2005.S01E01.mkv')).toEqual({
      kind: 'episode',
      title: 'Doctor Who',
      year: 2005,
      year_after_episode: false,
      season: 1,
      episodes: [1],
      air_date: null,
      edition: null,
      country: null,
    });
    expect(media('Show.Name.2024.03.14.mkv')).toMatchObject({ kind: 'episode', season: null, episodes: [], air_date: '2024-03-14' });
  });

  it('says when the series year follows the episode marker, where it may be the air year', () => {
    expect(media('Young.Sheldon.S07E14.2024.1080p.WEB.h264-ETHEL.mkv')).toMatchObject({
      title: 'Young Sheldon',
      year: 2024,
      year_after_episode: true,
      season: 7,
      episodes: [14],
    });
    expect(media('Young Sheldon (2017)/Young.Sheldon.S07E14.2024.1080p.WEB.h264-ETHEL.mkv')).toMatchObject({ year: 2017, year_after_episode: false });
    expect(media('Doctor.Who.2005.S01E01.mkv')).toMatchObject({ year: 2005, year_after_episode: false });
  });

  it('refuses episodes with only an absolute number or only a season', () => {
    expect(refusal('[SubsPlease] Frieren - 05 (1080p) [ABCD].mkv')).toMatch(/absolute/);
    expect(refusal('Show.S01.1080p/Show.S01.1080p.mkv')).toMatch(/episode/);
  });

  it('refuses names that say nothing', () => {
    expect(refusal('Some Home Video.mp4')).not.toBeNull();
  });
});
