import { describe, expect, it } from 'vitest';
import { recogniseMedia } from './recognise.ts';

describe('recogniseMedia', () => {
  it('takes a movie with its year, and the edition', () => {
    expect(recogniseMedia('Blade Runner 2049 (2017).mkv')).toMatchObject({ kind: 'movie', title: 'Blade Runner 2049', year: 2017, edition: null });
    expect(recogniseMedia('Aliens.1986.Extended.1080p.mkv')).toEqual({
      kind: 'movie', title: 'Aliens', year: 1986, season: null, episodes: [], air_date: null, edition: 'Extended',
    });
  });

  it('refuses a movie without a year', () => {
    expect(recogniseMedia('Inception.1080p.BluRay.mkv')).toBeNull();
  });

  it('takes numbered and daily episodes, and the series year', () => {
    expect(recogniseMedia('Doctor.Who.2005.S01E01.mkv')).toEqual({ kind: 'episode', title: 'Doctor Who', year: 2005, season: 1, episodes: [1], air_date: null, edition: null });
    expect(recogniseMedia('Show.Name.2024.03.14.mkv')).toMatchObject({ kind: 'episode', season: null, episodes: [], air_date: '2024-03-14' });
  });

  it('refuses episodes with only an absolute number or only a season', () => {
    expect(recogniseMedia('[SubsPlease] Frieren - 05 (1080p) [ABCD].mkv')).toBeNull();
    expect(recogniseMedia('Show.S01.1080p/Show.S01.1080p.mkv')).toBeNull();
  });

  it('refuses names that say nothing', () => {
    expect(recogniseMedia('Some Home Video.mp4')).toBeNull();
  });
});
