import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GOALS, ratios, scoreCorpus, type CorpusEntry } from './corpus-eval.ts';
import { normalizeTitle, parseReleaseName, type ParsedMedia } from './release-name.ts';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = JSON.parse(readFileSync(join(here, 'corpus.json'), 'utf8')) as CorpusEntry[];

/** Checks the given fields only. */
function expectParsed(name: string, want: Partial<ParsedMedia>): void {
  const got = parseReleaseName(name);
  expect(got, name).not.toBeNull();
  const picked: Partial<ParsedMedia> = {};
  for (const k of Object.keys(want) as (keyof ParsedMedia)[]) (picked as Record<string, unknown>)[k] = got?.[k];
  expect(picked, name).toEqual(want);
}

const ep = (title: string, season: number | null, episodes: number[], year: number | null = null): Partial<ParsedMedia> => ({
  kind: 'episode',
  title,
  year,
  season,
  episodes,
  air_date: null,
  absolute_episodes: [],
});
const movie = (title: string, year: number | null, edition: string | null = null): Partial<ParsedMedia> => ({
  kind: 'movie',
  title,
  year,
  season: null,
  episodes: [],
  air_date: null,
  absolute_episodes: [],
  edition,
});

describe('parseReleaseName: episodes', () => {
  it('scene S01E02', () => {
    expectParsed('Breaking.Bad.S01E01.720p.BluRay.x264-DEMAND', ep('Breaking Bad', 1, [1]));
    expectParsed('the.mentalist.s07e13.hdtv.x264-lol.mp4', ep('the mentalist', 7, [13]));
    expectParsed('breaking.bad.s5e16.720p.mkv', ep('breaking bad', 5, [16]));
  });
  it('S01 E02, S01.E02 and Season 1 Episode 2', () => {
    expectParsed('Breaking Bad S01 E02.mkv', ep('Breaking Bad', 1, [2]));
    expectParsed('Cowboy.Bebop.S01.E05.Ballad.of.Fallen.Angels.1080p.BluRay.x264', ep('Cowboy Bebop', 1, [5]));
    expectParsed('The Sopranos Season 1 Episode 2.mp4', ep('The Sopranos', 1, [2]));
    expectParsed('Fawlty Towers - Season 1 Episode 3 - The Wedding Party.avi', ep('Fawlty Towers', 1, [3]));
  });
  it('1x02 and 1x01-1x02', () => {
    expectParsed('Seinfeld 3x17 The Boyfriend.avi', ep('Seinfeld', 3, [17]));
    expectParsed('Futurama - 1x01-1x02 - Space Pilot 3000.mkv', ep('Futurama', 1, [1, 2]));
    expectParsed('Friends - [1x01] - The One Where Monica Gets a Roommate.avi', ep('Friends', 1, [1]));
  });
  it('multi-episode forms', () => {
    expectParsed('Friends.S10E17E18.The.Last.One.1080p.BluRay.x264-PSYCHD', ep('Friends', 10, [17, 18]));
    expectParsed('The.X-Files.S10E01-E03.720p.HDTV.x264-AVS', ep('The X-Files', 10, [1, 2, 3]));
    expectParsed('Twin.Peaks.S01E01-03.720p.BluRay.x264-GRP', ep('Twin Peaks', 1, [1, 2, 3]));
    expectParsed('Bluey.S03E01E02E03.1080p.WEB.h264-EDITH', ep('Bluey', 3, [1, 2, 3]));
    expectParsed('Breaking Bad - S05E01-E03 - Live Free or Die [Bluray-1080p].mkv', ep('Breaking Bad', 5, [1, 2, 3]));
  });
  it('does not read release tokens after the marker as more episodes', () => {
    expectParsed('Show.S01E05-720p.mkv', ep('Show', 1, [5]));
    expectParsed('Show.S01E05.E.T.Phone.Home.mkv', ep('Show', 1, [5]));
  });
  it('series year: split off, with or without brackets', () => {
    expectParsed('Doctor.Who.2005.S13E06.1080p.HDTV.x264-FTP', ep('Doctor Who', 13, [6], 2005));
    expectParsed('Doctor Who (2005) - S01E01 - Rose [Bluray-1080p].mkv', ep('Doctor Who', 1, [1], 2005));
    expectParsed('The Office (US) (2005) - S02E01 - The Dundies [HDTV-720p].mkv', ep('The Office (US)', 2, [1], 2005));
    // a title that is a year stays the title
    expectParsed('1923.S01E01.1080p.WEB.H264-GLHF', ep('1923', 1, [1]));
  });
  it('numbers, hyphens and acronyms in series titles', () => {
    expectParsed('9-1-1.S07E04.1080p.WEB.h264-ETHEL', ep('9-1-1', 7, [4]));
    expectParsed('The.100.S07E16.720p.HDTV.x264-SVA', ep('The 100', 7, [16]));
    expectParsed('24.S08E24.720p.BluRay.x264-SiNNERS', ep('24', 8, [24]));
    expectParsed('Marvels.Agents.of.S.H.I.E.L.D.S07E13.720p.HDTV.x264-AVS', ep('Marvels Agents of S.H.I.E.L.D.', 7, [13]));
    expectParsed('S.W.A.T.2017.S06E13.720p.HDTV.x264-SYNCOPY', ep('S.W.A.T.', 6, [13], 2017));
  });
  it('P2P names and site prefixes', () => {
    expectParsed('The Bear (2022) S02E01 (1080p DSNP WEB-DL x265 HEVC 10bit EAC3 5.1 Silence) [QxR].mkv', ep('The Bear', 2, [1], 2022));
    expectParsed('www.UIndex.org    -    The Last of Us S02E01 1080p WEB H264-SuccessfulCrab', ep('The Last of Us', 2, [1]));
    expectParsed('[ OxTorrent.sh ] The.Walking.Dead.Daryl.Dixon.S02E01.FRENCH.WEBRip.x264-GRP.mkv', ep('The Walking Dead Daryl Dixon', 2, [1]));
  });
  it('foreign-language tags', () => {
    expectParsed('Lupin.S03E01.MULTi.1080p.WEB.x264-FW', ep('Lupin', 3, [1]));
    expectParsed('Dark.S03E08.GERMAN.DL.1080p.WEB.x264-WvF', ep('Dark', 3, [8]));
    expectParsed('Gomorra.S05E10.iTA.ENG.1080p.WEB-DL.DDP5.1.H.264-MeM', ep('Gomorra', 5, [10]));
    expectParsed('Lupin.S01E05.VOSTFR.1080p.NF.WEB-DL.DDP5.1.x264-GRP', ep('Lupin', 1, [5]));
  });
  it('daily shows', () => {
    const daily = (title: string, air_date: string): Partial<ParsedMedia> => ({
      kind: 'episode', title, year: null, season: null, episodes: [], air_date, absolute_episodes: [],
    });
    expectParsed('The.Daily.Show.2024.03.14.Guest.720p.WEB.h264-GROUP', daily('The Daily Show', '2024-03-14'));
    expectParsed('The View 2024-03-14.mkv', daily('The View', '2024-03-14'));
    expectParsed('Tagesschau.14.03.2024.GERMAN.720p.HDTV.x264-GRP', daily('Tagesschau', '2024-03-14'));
    expectParsed('Conan.2019.05.02.Paul.Rudd.720p.WEB.x264-TBS', daily('Conan', '2019-05-02'));
  });
  it('anime: fansub groups, absolute numbers, seasons', () => {
    const abs = (title: string, n: number[]): Partial<ParsedMedia> => ({
      kind: 'episode', title, season: null, episodes: [], air_date: null, absolute_episodes: n,
    });
    expectParsed('[SubsPlease] One Piece - 1071 (1080p) [A3C9BD54].mkv', abs('One Piece', [1071]));
    expectParsed('[SubsPlease] Blue Lock - 24v2 (1080p) [1A2B3C4D].mkv', abs('Blue Lock', [24]));
    expectParsed('[Erai-raws] Shingeki no Kyojin - The Final Season - 05 [1080p].mkv', abs('Shingeki no Kyojin - The Final Season', [5]));
    expectParsed('[SubsPlease] Kaiju No. 8 - 05 (1080p) [ABCDEF12].mkv', abs('Kaiju No. 8', [5]));
    expectParsed('[DB]Haikyuu!!_-_25_(Dual Audio_10bit_BD1080p_x265).mkv', abs('Haikyuu!!', [25]));
    expectParsed('[Anime Land] Naruto 220 (DVD 480p) [ABCD1234].mkv', abs('Naruto', [220]));
    expectParsed('[Judas] Vinland Saga S02E05 [1080p][HEVC x265 10bit].mkv', ep('Vinland Saga', 2, [5]));
    expectParsed('[SubsPlease] Spy x Family S2 - 01 (1080p) [12345678].mkv', ep('Spy x Family', 2, [1]));
    expectParsed('[Erai-raws] Oshi no Ko 2nd Season - 13 [1080p].mkv', ep('Oshi no Ko', 2, [13]));
  });
});

describe('parseReleaseName: movies', () => {
  it('scene, P2P and library names', () => {
    expectParsed('The.Matrix.1999.1080p.BluRay.x264-GROUP', movie('The Matrix', 1999));
    expectParsed('The Matrix (1999) [1080p] [BluRay] [5.1] [YTS.MX]', movie('The Matrix', 1999));
    expectParsed('Inception (2010) {imdb-tt1375666} [Bluray-1080p][DTS 5.1][x264]-GRP.mkv', movie('Inception', 2010));
    expectParsed('The_Matrix_1999_1080p.mkv', movie('The Matrix', 1999));
    expectParsed('Kill Bill Vol. 2 (2004) 1080p BrRip x264 - YIFY', movie('Kill Bill Vol. 2', 2004));
    expectParsed('Monsters, Inc. (2001) Bluray-1080p.mkv', movie('Monsters, Inc.', 2001));
  });
  it('years inside titles', () => {
    expectParsed('2001.A.Space.Odyssey.1968.1080p.BluRay.x264-AMIABLE', movie('2001 A Space Odyssey', 1968));
    expectParsed('Blade Runner 2049 (2017).mkv', movie('Blade Runner 2049', 2017));
    expectParsed('Blade.Runner.2049.2017.1080p.BluRay.x264-SPARKS', movie('Blade Runner 2049', 2017));
    expectParsed('1917 (2019).mkv', movie('1917', 2019));
    expectParsed('2012.2009.1080p.BluRay.x264-METiS', movie('2012', 2009));
    expectParsed('Wonder.Woman.1984.2020.1080p.HMAX.WEB-DL.DDP5.1.Atmos.H.264-FLUX', movie('Wonder Woman 1984', 2020));
    expectParsed('Death.Race.2000.1975.1080p.BluRay.x264-GRP', movie('Death Race 2000', 1975));
  });
  it('numbers in titles', () => {
    expectParsed('Fantastic.Four.2015.1080p.BluRay.x264-DRONES', movie('Fantastic Four', 2015));
    expectParsed("Ocean's Eleven (2001).mkv", movie("Ocean's Eleven", 2001));
    expectParsed('Oceans.Eleven.2001.1080p.BluRay.x264-CiNEFiLE', movie('Oceans Eleven', 2001));
    expectParsed('300.2006.1080p.BluRay.x264-HDEX', movie('300', 2006));
    expectParsed('10x10.2018.1080p.WEB-DL.DD5.1.H264-FGT', movie('10x10', 2018));
    expectParsed('Inside.Out.2.2024.1080p.WEB-DL.DDP5.1.H.264-GRP', movie('Inside Out 2', 2024));
  });
  it('acronyms and punctuation', () => {
    expectParsed('E.T.the.Extra-Terrestrial.1982.1080p.BluRay.x264-GRP', movie('E.T. the Extra-Terrestrial', 1982));
    expectParsed('The.Man.from.U.N.C.L.E.2015.1080p.BluRay.x264-SPARKS', movie('The Man from U.N.C.L.E.', 2015));
    expectParsed('Airplane!.1980.1080p.BluRay.x264-GRP', movie('Airplane!', 1980));
  });
  it('foreign-language tags are not part of the title, language words in titles are kept', () => {
    expectParsed('Intouchables.2011.FRENCH.1080p.BluRay.x264-LOST', movie('Intouchables', 2011));
    expectParsed('Das.Boot.1981.Directors.Cut.GERMAN.DL.1080p.BluRay.x264-GRP', movie('Das Boot', 1981, "Director's Cut"));
    expectParsed('Oldboy.2003.SUBFRENCH.1080p.BluRay.x264-GRP', movie('Oldboy', 2003));
    expectParsed('Inglourious.Basterds.2009.MULTi.1080p.BluRay.x264-GRP', movie('Inglourious Basterds', 2009));
    expectParsed('The.Italian.Job.2003.1080p.BluRay.x264-GRP', movie('The Italian Job', 2003));
    expectParsed('Johnny.English.2003.1080p.BluRay.x264-GRP', movie('Johnny English', 2003));
    expectParsed('Intouchables.FRENCH.1080p.BluRay.x264-GRP', movie('Intouchables', null));
  });
  it('editions', () => {
    expectParsed('Kingdom.of.Heaven.2005.Directors.Cut.1080p.BluRay.x264-GRP', movie('Kingdom of Heaven', 2005, "Director's Cut"));
    expectParsed('The.A-Team.2010.EXTENDED.1080p.BluRay.x264-GRP', movie('The A-Team', 2010, 'Extended'));
    expectParsed('Anchorman.The.Legend.of.Ron.Burgundy.2004.UNRATED.1080p.BluRay.x264-GRP', movie('Anchorman The Legend of Ron Burgundy', 2004, 'Unrated'));
    expectParsed('Se7en.1995.REMASTERED.1080p.BluRay.x264-GRP', movie('Se7en', 1995, 'Remastered'));
    expectParsed('The.Dark.Knight.2008.IMAX.1080p.BluRay.x264-GRP', movie('The Dark Knight', 2008, 'IMAX'));
    expectParsed('Blade.Runner.1982.Theatrical.1080p.BluRay.x264-GRP', movie('Blade Runner', 1982, 'Theatrical'));
    expectParsed('Blade Runner (1982) {edition-Final Cut} [Bluray-2160p].mkv', movie('Blade Runner', 1982, 'Final Cut'));
    expectParsed('Fight.Club.1999.10th.Anniversary.Edition.1080p.BluRay.x264-GRP', movie('Fight Club', 1999, '10th Anniversary Edition'));
    expectParsed('Aliens (1986) - Special Edition.mkv', movie('Aliens', 1986, 'Special Edition'));
    // an edition word that is the title
    expectParsed('The.Final.Cut.2004.1080p.WEB-DL.DD5.1.H264-GRP', movie('The Final Cut', 2004, null));
  });
});

describe('parseReleaseName: paths and folders', () => {
  it('Plex / Sonarr / Radarr library layouts', () => {
    expectParsed('Breaking Bad/Season 01/Breaking Bad - S01E01 - Pilot.mkv', ep('Breaking Bad', 1, [1]));
    expectParsed('Breaking Bad (2008)/Season 05/Breaking Bad (2008) - S05E14 - Ozymandias.mkv', ep('Breaking Bad', 5, [14], 2008));
    expectParsed('The Matrix (1999)/The Matrix (1999).mkv', movie('The Matrix', 1999));
    expectParsed('TV\\Breaking Bad\\Season 2\\Breaking Bad - S02E03.mkv', ep('Breaking Bad', 2, [3]));
  });
  it('release folders', () => {
    expectParsed('The.Matrix.1999.1080p.BluRay.x264-GROUP/the.matrix.1999.1080p.mkv', movie('The Matrix', 1999));
    expectParsed('Knives.Out.2019.1080p.BluRay.x264-SPARKS/sparks-knivesout-1080p.mkv', movie('Knives Out', 2019));
    expectParsed('The.Last.of.Us.S01E01.1080p.WEB.H264-CAKES/tlou.s01e01.1080p-cakes.mkv', ep('The Last of Us', 1, [1]));
    expectParsed('The.Mandalorian.S03E01.1080p.WEB.H264-GLHF/3f8a9c2e1b7d.mkv', ep('The Mandalorian', 3, [1]));
    expectParsed('Breaking.Bad.S01.1080p.BluRay.x264-ROVERS/breaking.bad.s01e03.1080p.bluray.x264-rovers.mkv', ep('Breaking Bad', 1, [3]));
  });
  it('unrecognisable file names take the folders', () => {
    expectParsed('The Matrix (1999)/abc-xyz.mkv', movie('The Matrix', 1999));
    expectParsed('Firefly/Season 1/Episode 5.mkv', ep('Firefly', 1, [5]));
    expectParsed('Fargo (2014)/Season 02/05 - Fear and Trembling.mkv', ep('Fargo', 2, [5], 2014));
    expectParsed('Sherlock/Season 2/S02E03.mkv', ep('Sherlock', 2, [3]));
    expectParsed('Planet Earth II/Specials/Planet Earth II - S00E01 - A World of Wonder.mkv', ep('Planet Earth II', 0, [1]));
    expectParsed('Movies/Inception (2010)/Inception.mkv', movie('Inception', 2010));
    expectParsed('Dune.Part.Two.2024.2160p.WEB-DL.DDP5.1.Atmos.DV.HDR.H.265-FLUX/Sample/sample.mkv', movie('Dune Part Two', 2024));
    // a season folder without an episode number still says which series and season
    expectParsed('Firefly/Season 1/abc-xyz.mkv', ep('Firefly', 1, []));
  });
  it('subtitle sidecars', () => {
    expectParsed('Parasite (2019)/Parasite (2019).en.srt', movie('Parasite', 2019));
    expectParsed('Movies/Arrival (2016)/Arrival (2016).en.forced.srt', movie('Arrival', 2016));
    expectParsed('Dark/Season 1/Dark - S01E01 - Secrets.de.forced.srt', ep('Dark', 1, [1]));
  });
  it('samples are still parseable', () => {
    expectParsed('The.Matrix.1999.1080p.BluRay.x264-GRP-sample.mkv', movie('The Matrix', 1999));
  });
});

describe('parseReleaseName: nothing useful', () => {
  it.each([
    'abc-xyz.mkv',
    'sample.mkv',
    'Episode 5.mkv',
    'S01E01.mkv',
    'IMG_1234.mp4',
    'VTS_01_1.VOB',
    '',
    '.mkv',
    'Movies/abc-xyz.mkv',
  ])('%j → null', (name) => {
    expect(parseReleaseName(name)).toBeNull();
  });

  it('never throws and keeps its shape on odd input', () => {
    const odd = ['/', '////', '[]', '[] - 01', '((((((', ' - - - ', 'S99999E99999', '1x1', '0000.00.00', 'ä'.repeat(500),
      `${'a.'.repeat(2000)}S01E01`, '.'.repeat(3000), `${' -'.repeat(2000)}2010`, '\u0000\uffff', '1999', '(1999)'];
    for (const n of odd) {
      const r = parseReleaseName(n);
      if (r !== null) {
        expect(['movie', 'episode']).toContain(r.kind);
        expect(typeof r.title).toBe('string');
        expect(r.title.length).toBeGreaterThan(0);
      }
    }
  });

  it('is fast on pathological input', () => {
    const t0 = performance.now();
    parseReleaseName(`${' -'.repeat(5000)}x`);
    parseReleaseName(`${'a.'.repeat(5000)}2010`);
    parseReleaseName(`${'1 '.repeat(5000)}`);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe('normalizeTitle', () => {
  it('lowercases, strips accents and punctuation, &→and, drops leading articles', () => {
    expect(normalizeTitle('The Lord of the Rings: The Two Towers')).toBe('lord of the rings the two towers');
    expect(normalizeTitle('Amélie')).toBe('amelie');
    expect(normalizeTitle('Law & Order')).toBe('law and order');
    expect(normalizeTitle("Ocean's Eleven")).toBe('oceans eleven');
    expect(normalizeTitle('  A   Quiet   Place ')).toBe('quiet place');
    expect(normalizeTitle('An American Werewolf in London')).toBe('american werewolf in london');
    expect(normalizeTitle('Spider-Man: No Way Home')).toBe('spider man no way home');
    expect(normalizeTitle('Straße')).toBe('strasse');
    expect(normalizeTitle('The')).toBe('the');
  });
  it('makes scene and library spellings of a title compare equal', () => {
    expect(normalizeTitle('Oceans Eleven')).toBe(normalizeTitle("Ocean's Eleven"));
    expect(normalizeTitle('Pokemon Detective Pikachu')).toBe(normalizeTitle('Pokémon: Detective Pikachu'));
  });
});

describe('corpus', () => {
  it('is big and varied enough', () => {
    const episodes = corpus.filter((c) => c.expected.kind === 'episode');
    const movies = corpus.filter((c) => c.expected.kind === 'movie');
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(episodes.length).toBeGreaterThanOrEqual(130);
    expect(movies.length).toBeGreaterThanOrEqual(120);
    expect(corpus.filter((c) => /[\\/]/.test(c.name)).length).toBeGreaterThanOrEqual(30);
    expect(episodes.filter((c) => c.expected.air_date !== null).length).toBeGreaterThanOrEqual(15);
    expect(episodes.filter((c) => (c.expected.absolute_episodes ?? []).length > 0).length).toBeGreaterThanOrEqual(15);
    expect(episodes.filter((c) => c.expected.episodes.length > 1).length).toBeGreaterThanOrEqual(15);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
  });

  it('meets the accuracy thresholds', () => {
    const score = scoreCorpus(corpus, parseReleaseName);
    const r = ratios(score);
    const report = score.failures.map((f) => `${f.what}: ${f.name} → ${JSON.stringify(f.got)}`).join('\n');
    expect(r.episodeNumbers, report).toBeGreaterThanOrEqual(GOALS.episodeNumbers);
    expect(r.episodeTitle, report).toBeGreaterThanOrEqual(GOALS.episodeTitle);
    expect(r.movieTitleYear, report).toBeGreaterThanOrEqual(GOALS.movieTitleYear);
  });
});

describe('camera and phone clips', () => {
  it.each(['IMG_1964.mov', 'VID_20240101_1964.mp4', 'PXL_20230405_123456789.mp4', 'DSC01964.MOV', 'GOPR1964.MP4', 'MVI_1999.avi'])(
    '%s is not media to file away',
    (name) => {
      expect(parseReleaseName(name)).toBeNull();
    },
  );
});
