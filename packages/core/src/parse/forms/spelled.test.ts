import { describe, it } from 'vitest';
import { episode, expectParsed, expectRefused } from '../test-fixtures/expect-parse.ts';

describe('form spelled-out season and episode', () => {
  it.each([
    ['River Town Season 2 Episode 5.mkv', episode('River Town', 2, [5])],
    ['River.Town.Season.2.Episodes.1-8.WEB', episode('River Town', 2, [1, 2, 3, 4, 5, 6, 7, 8])],
    ['River Town - Season 2, Episode 5 - Flood', episode('River Town', 2, [5])],
    ['River Town Season 02 Ep(01-04) 720p', episode('River Town', 2, [1, 2, 3, 4])],
    ['River Town Saison 2 Episode 5 VOSTFR', episode('River Town', 2, [5])],
    ['River Town - Saison 2 Ep 5 - Inondation', episode('River Town', 2, [5])],
    ['River.Town.Staffel.2.Folge.5.German', episode('River Town', 2, [5])],
    ['River Town Temporada 2 Capitulo 5', episode('River Town', 2, [5])],
    ['River Town Stagione 2 Episodio 5 iTA', episode('River Town', 2, [5])],
    ['River.Town.2.Sezon.5.Bölüm.1080p.WEB', episode('River Town', 2, [5])],
    ['River Town 2 сезон 5 серия', episode('River Town', 2, [5])],
    ['Речной город. Сезон 2. Серия 5', episode('Речной город', 2, [5])],
    ['Речной город. Сезон №2. Серия №5', episode('Речной город', 2, [5])],
    ['Речной город / River Town / Сезон 2 / Серии 1-4 [2019, США, WEB-DL 1080p]', episode('River Town', 2, [1, 2, 3, 4], { year: 2019 })],
    ['Речной город / River Town / Сезон: 2 / Серии: 1-8 из 8 [2021 WEB-DL 720p]', episode('River Town', 2, [1, 2, 3, 4, 5, 6, 7, 8], { year: 2021 })],
    ['Речной город. River Town. Сезон 3. Эпизод 04. Паводок.avi', episode('River Town', 3, [4])],
    ['River Town 2nd Season 05 (BD 1080p)', episode('River Town', 2, [5])],
    ['River Town 2nd Season - 01 ~ 04 [720p]', episode('River Town', 2, [1, 2, 3, 4])],
    ['River Town Season 2 5of10', episode('River Town', 2, [5])],
    ['River.Town.Season.2.Part.III', episode('River Town', 2, [3])],
    ['River Town Season 2.05', episode('River Town', 2, [5])],
    ['River Town Season 2 05.mkv', episode('River Town', 2, [5])],
    ['川の町 第2期 05話', episode('川の町', 2, [5])],
    ['Episode 5 River Town (saison 2) VOSTFR', episode('River Town', 2, [5])],
    ['Episode.12.River.Town.(Season.3).720p', episode('River Town', 3, [12])],
    ['River Town - Temporada 2 [HDTV][Cap.205]', episode('River Town', 2, [5])],
    ['River Town - Temporada 2 HDTV [Cap.205_206]', episode('River Town', 2, [5, 6])],
    ['River.Town.Cap.102_104.HDTV.XviD', episode('River Town', 1, [2, 3, 4])],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it('refuses a Russian tracker name whose Latin title could be either of two parts', () => {
    expectRefused('Discovery. Речной город / River Town [02х01-04] (2019) HDTVRip');
  });

  it('refuses one episode number out of a total, which trackers also use for the first episodes', () => {
    expectRefused('Речной город / River Town / Сезон: 2 / Серии: 5 из 10 [2019, WEB-DL 1080p]', /total/);
    expectParsed('Речной город / River Town / Сезон: 2 / Серии: 1 из 10 [2019, WEB-DL 1080p]', episode('River Town', 2, [1]));
  });

  it('takes no title from an episode title after the episode number', () => {
    expectRefused('Episode 5 - The Flood (Season 2).mkv');
  });

  it('refuses a Spanish episode code that contradicts its season', () => {
    expectRefused('River Town - Temporada 3 [HDTV][Cap.205]', /disagree/);
  });

  it('refuses a range of episodes that runs backwards', () => {
    expectRefused('River.Town.Cap.104_102.HDTV.XviD', /ends before it starts/);
    expectRefused('River Town Season 2 Episodes 8-3 WEB', /ends before it starts/);
    expectRefused('River Town 2nd Season - 12 ~ 03 [720p]', /ends before it starts/);
  });
});
