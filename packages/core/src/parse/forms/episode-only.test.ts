import { describe, it } from 'vitest';
import { absolute, expectParsed, expectRefused, movie } from '../test-fixtures/expect-parse.ts';

describe('form episode without a season', () => {
  it.each([
    ['Winter Lake - Episode 4.mkv', absolute('Winter Lake', [4])],
    ['Winter Lake Ep 04 HDTV', absolute('Winter Lake', [4])],
    ['Winter.Lake.Ep.04.German.WEB', absolute('Winter Lake', [4])],
    ['Winter.Lake.E04.720p.WEB', absolute('Winter Lake', [4])],
    ['Winter.Lake.E04-05.720p.WEB', absolute('Winter Lake', [4, 5])],
    ['Winter Lake E04 - E06 [WEB]', absolute('Winter Lake', [4, 5, 6])],
    ['Winter.Lake.E04-E06.720p.WEB', absolute('Winter Lake', [4, 5, 6])],
    ['winter-lake-episode-12-1080p.mp4', absolute('winter-lake', [12])],
    ['Winter.Lake.Eps.04-05.DVDRip', absolute('Winter Lake', [4, 5])],
    ['Winter Lake #04 - The Ice', absolute('Winter Lake', [4])],
    ['Winter Lake - Episode VII', absolute('Winter Lake', [7])],
    ['冬の湖 第04話', absolute('冬の湖', [4])],
    ['Winter.Lake.(04.seriya).2019.WEBRip', absolute('Winter Lake', [4])],
    ['Зимнее озеро (04 сер.) - webrip1080p.mkv', absolute('Зимнее озеро', [4])],
    ['Winter Lake 123 - 004 - Ep 4 Title', absolute('Winter Lake 123', [4])],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it('reads "Episode 1.22" as a season and an episode', () => {
    expectParsed('Winter Lake - Episode 1.22 - Thaw.avi', { kind: 'episode', title: 'Winter Lake', season: 1, episodes: [22] });
  });

  it('takes the season from a season folder around the file', () => {
    expectParsed('Winter Lake/Season 2/Winter Lake - Episode 4.mkv', { kind: 'episode', title: 'Winter Lake', season: 2, episodes: [4] });
  });

  it('leaves a spelled "Episode" before a year to the movie it names', () => {
    expectParsed('Space Saga Episode 3 The Return 1999 1080p BluRay', movie('Space Saga Episode 3 The Return', 1999));
    expectParsed('Space.Saga.Episode.IV.A.New.Dawn.1981.1080p', movie('Space Saga Episode IV A New Dawn', 1981));
  });

  it('reads parts and counts of a miniseries', () => {
    expectParsed('Winter.Lake.Part.3.HDTV.720p', absolute('Winter Lake', [3]));
    expectParsed('Winter.Lake.Part.1.and.Part.2.HDTV', absolute('Winter Lake', [1, 2]));
    expectParsed('Winter Lake part 1 to part 3.avi', absolute('Winter Lake', [1, 2, 3]));
    expectParsed('Winter.Lake.Pt.IV.720p', absolute('Winter Lake', [4]));
    expectParsed('Winter.Lake.Part.Two.720p', absolute('Winter Lake', [2]));
    expectParsed('Winter.Lake.2of6.Title.x264', absolute('Winter Lake', [2]));
    expectParsed('The.Last.Duel.Part.2.2021.1080p', movie('The Last Duel Part 2', 2021));
  });

  it('refuses a range that runs backwards or past a hundred episodes', () => {
    expectRefused('Winter.Lake.E06-E04.720p.WEB', /ends before it starts/);
    expectRefused('Winter Lake Ep 6-4 HDTV', /ends before it starts/);
    expectRefused('Winter.Lake.E01-E250.720p.WEB', /more than 100 episodes/);
  });

  it('refuses a part or count beside another number in the title', () => {
    expectRefused('[Grp] Winter Lake 14 Long Night Part 2.mkv', /number inside the title/);
    expectRefused('Winter Lake Movie Part 1 [BD].mkv');
  });
});
