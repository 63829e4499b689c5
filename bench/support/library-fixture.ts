// A generated media library for benchmarks: two drives laid out as Radarr/Sonarr/Plex/Kodi leave
// them, with movie folders, TV series folders and a decoy Downloads folder beside them that a
// library scan must not enter. Deterministic (seeded), fast to write (sync calls, one mkdir per
// folder). Media files are empty; .nfo files hold small Kodi XML so that the scanner's nfo path
// does real work.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_SUBTITLE_EXTENSIONS, KNOWN_VIDEO_EXTENSIONS } from '@mo/shared';
import { rng } from '@mo/test-support/prng';

export interface GeneratedLibrary {
  drives: { name: string; path: string }[];
  /** The library folders (`<drive>/Movies`, `<drive>/TV` …): what a scan should enter. */
  libraryRoots: string[];
  /** Files under the library folders. */
  files: number;
  /** Files outside them (Downloads, …) that a scan must not read. */
  decoyFiles: number;
  folders: number;
  movies: number;
  series: number;
  episodeFiles: number;
  byType: { video: number; subtitle: number; nfo: number; other: number };
}

const WORDS = (
  'Shadow Night Last Blue Iron Silent Broken Golden Dark Lost Red Winter Summer Empire City River Star ' +
  'Dream Fire Ghost Glass Heart Hidden House King Queen Light Long Road Moon North Ocean Paper Rain ' +
  'Secret Sky Stone Storm Sun Thunder Tiger Time Wild Wolf World Zero Angel Black White Crimson Dead ' +
  'Edge Falling Frozen Garden Harbor Hollow Hunter Island Jungle Kingdom Legend Machine Midnight Mirror ' +
  'Mountain Nine Orchid Phoenix Prince Quiet Raven Rising Saint Signal Silver Soldier Spirit Steel ' +
  'Street Tomorrow Tower Valley Velvet Voyage Wander Wire Yellow Station Empire Protocol Horizon Echo'
).split(' ');
const ODD_TITLES = [
  'Amélie',
  "L'Avventura",
  'Crouching Tiger, Hidden Dragon',
  'Mission - Impossible',
  'Se7en',
  'WALL·E',
  'Léon',
  "Ocean's Eleven",
  '12 Angry Men',
  '2001 - A Space Odyssey',
  'Fast & Furious',
  'M3GAN',
];
const GROUPS = ['SPARKS', 'GECKOS', 'NTb', 'FLUX', 'RARBG', 'YTS', 'EVO', 'CMRG'];
const QUALITIES = ['1080p.BluRay.x264', '720p.WEB-DL.DDP5.1.H.264', '2160p.UHD.BluRay.x265.10bit.HDR', '1080p.WEBRip.x265'];

function movieNfo(title: string, year: number): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>\n<movie>\n  <title>${title.replace(/&/g, '&amp;')}</title>\n  <year>${year}</year>\n  <premiered>${year}-05-01</premiered>\n  <plot>A generated movie for the library benchmark.</plot>\n  <uniqueid type="tmdb" default="true">${year * 7}</uniqueid>\n</movie>\n`;
}
function tvshowNfo(title: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>\n<tvshow>\n  <title>${title.replace(/&/g, '&amp;')}</title>\n  <premiered>2010-01-01</premiered>\n  <plot>A generated series for the library benchmark.</plot>\n</tvshow>\n`;
}
function episodeNfo(title: string, season: number, episode: number): string {
  const aired = `20${String(10 + (season % 15)).padStart(2, '0')}-${String(1 + (episode % 12)).padStart(2, '0')}-15`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>\n<episodedetails>\n  <title>${title.replace(/&/g, '&amp;')} ${episode}</title>\n  <season>${season}</season>\n  <episode>${episode}</episode>\n  <aired>${aired}</aired>\n</episodedetails>\n`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Writes about `totalFiles` files (exactly that many under the library folders) over two drives
 * below `root`. Roughly 45 % of each drive's files are movies, the rest TV.
 */
export function generateLibrary(root: string, totalFiles: number, seed = 42): GeneratedLibrary {
  const seeded = rng(seed);
  const rand = () => seeded.next();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const chance = (p: number) => rand() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

  const out: GeneratedLibrary = {
    drives: [],
    libraryRoots: [],
    files: 0,
    decoyFiles: 0,
    folders: 0,
    movies: 0,
    series: 0,
    episodeFiles: 0,
    byType: { video: 0, subtitle: 0, nfo: 0, other: 0 },
  };

  let budget = 0; // files left for the current section
  const made = new Set<string>();
  const dir = (p: string) => {
    if (made.has(p)) return;
    mkdirSync(p, { recursive: true });
    made.add(p);
    out.folders++;
  };
  /** One library file; false (and nothing written) once the section's budget is spent. */
  const put = (folder: string, name: string, content = ''): boolean => {
    if (budget <= 0) return false;
    dir(folder);
    writeFileSync(join(folder, name), content);
    budget--;
    out.files++;
    const ext = name.slice(name.lastIndexOf('.')).toLowerCase();
    if (KNOWN_VIDEO_EXTENSIONS.has(ext)) out.byType.video++;
    else if (KNOWN_SUBTITLE_EXTENSIONS.has(ext)) out.byType.subtitle++;
    else if (ext === '.nfo') out.byType.nfo++;
    else out.byType.other++;
    return true;
  };
  const decoy = (folder: string, name: string) => {
    dir(folder);
    writeFileSync(join(folder, name), '');
    out.decoyFiles++;
  };

  const titleWords = () => {
    const n = chance(0.15) ? 1 : chance(0.6) ? 2 : chance(0.7) ? 3 : 4;
    const w: string[] = [];
    for (let i = 0; i < n; i++) w.push(pick(WORDS));
    if (n >= 3 && chance(0.3)) w.splice(1, 0, pick(['of the', 'and the', 'in', 'at']));
    return w.join(' ');
  };

  const drive1Movies: string[] = []; // "Title (Year)" folders of drive 1, some copied to drive 2 (duplicates)
  const driveFiles = [Math.ceil(totalFiles / 2), Math.floor(totalFiles / 2)];

  for (let d = 0; d < 2; d++) {
    const drivePath = join(root, `disk${d + 1}`);
    out.drives.push({ name: `disk${d + 1}`, path: drivePath });
    const moviesRoot = join(drivePath, 'Movies');
    const tvRoot = join(drivePath, d === 0 ? 'TV' : 'TV Shows');
    out.libraryRoots.push(moviesRoot, tvRoot);
    dir(moviesRoot);
    dir(tvRoot);

    // --- Movies -----------------------------------------------------------------------------
    budget = Math.round(driveFiles[d]! * 0.45);
    const tvBudget = driveFiles[d]! - budget;
    const used = new Set<string>();
    // A few loose release files straight in Movies/ (go through the full release-name parser).
    for (let i = 0; i < 15 && budget > 0; i++) {
      put(moviesRoot, `${titleWords().replace(/ /g, '.')}.${int(1960, 2024)}.${pick(QUALITIES)}-${pick(GROUPS)}.mkv`);
      out.movies++;
    }
    let m = 0;
    while (budget > 0) {
      let name: string;
      if (d === 1 && drive1Movies.length > 0 && chance(0.03))
        name = pick(drive1Movies); // a duplicate copy
      else {
        const title = m < ODD_TITLES.length && d === 0 ? ODD_TITLES[m]! : titleWords();
        name = `${title} (${int(1950, 2024)})`;
      }
      m++;
      if (used.has(name)) continue;
      used.add(name);
      if (d === 0) drive1Movies.push(name);
      out.movies++;
      const folder = join(moviesRoot, name);
      const r = rand();
      const ext = r < 0.9 ? '.mkv' : r < 0.95 ? '.mp4' : '.avi';
      if (chance(0.01)) {
        put(folder, `${name} - cd1${ext}`);
        put(folder, `${name} - cd2${ext}`);
      } else put(folder, `${name}${ext}`);
      if (chance(0.7)) put(folder, `${name}.nfo`, movieNfo(name.slice(0, -7), Number(name.slice(-5, -1))));
      if (chance(0.8)) put(folder, 'poster.jpg');
      if (chance(0.5)) put(folder, 'fanart.jpg');
      if (chance(0.5)) put(folder, `${name}.en.srt`);
      if (chance(0.15)) put(folder, `${name}.de.srt`);
      if (chance(0.05)) put(folder, `${name}.en.forced.srt`);
      if (chance(0.04)) {
        put(join(folder, 'Subs'), 'English.srt');
        put(join(folder, 'Subs'), 'French.srt');
      }
      if (chance(0.1)) {
        put(join(folder, 'Featurettes'), 'Making Of.mkv');
        if (chance(0.5)) put(join(folder, 'Behind The Scenes'), 'On Set.mp4');
        if (chance(0.5)) put(join(folder, 'Deleted Scenes'), 'Alternate Ending.mkv');
      }
      if (chance(0.05)) put(folder, `${name}-trailer.mkv`);
      if (chance(0.01)) put(join(folder, 'Sample'), `${name.replace(/ /g, '.')}.sample.mkv`);
    }

    // --- TV -----------------------------------------------------------------------------------
    budget = tvBudget;
    for (let i = 0; i < 5 && budget > 0; i++) {
      // Loose episodes straight in the TV folder.
      put(tvRoot, `${titleWords().replace(/ /g, '.')}.S${pad(int(1, 5))}E${pad(int(1, 20))}.${pick(QUALITIES)}-${pick(GROUPS)}.mkv`);
      out.episodeFiles++;
    }
    const usedSeries = new Set<string>();
    while (budget > 0) {
      let series = titleWords();
      if (chance(0.3)) series = `${series} (${int(1990, 2024)})`;
      if (usedSeries.has(series)) continue;
      usedSeries.add(series);
      out.series++;
      const sFolder = join(tvRoot, series);
      const bare = series.replace(/ \(\d{4}\)$/, '');
      put(sFolder, 'tvshow.nfo', tvshowNfo(bare));
      put(sFolder, 'poster.jpg');
      if (chance(0.6)) put(sFolder, 'fanart.jpg');
      if (chance(0.4)) put(sFolder, 'banner.jpg');
      const seasons = chance(0.4) ? int(1, 2) : chance(0.6) ? int(3, 6) : int(7, 12);
      const epNfo = chance(0.25);
      const subs = chance(0.3);
      const withTitles = chance(0.5);
      const seasonList: number[] = [];
      if (chance(0.1)) seasonList.push(0);
      for (let s = 1; s <= seasons; s++) if (!(s > 1 && s < seasons && chance(0.05))) seasonList.push(s); // season gaps
      for (const s of seasonList) {
        const seasonFolder = join(sFolder, s === 0 && chance(0.5) ? 'Specials' : `Season ${pad(s)}`);
        if (chance(0.5)) put(sFolder, `season${pad(s)}-poster.jpg`);
        const eps = s === 0 ? int(1, 4) : int(6, 24);
        for (let e = 1; e <= eps; e++) {
          if (s > 0 && e > 1 && chance(0.04)) continue; // a missing episode
          let code = `S${pad(s)}E${pad(e)}`;
          if (s > 0 && e < eps && chance(0.03)) {
            code += `-E${pad(e + 1)}`; // a double episode in one file
            e++;
          }
          const base = `${bare} - ${code}${withTitles ? ` - ${pick(WORDS)} ${pick(WORDS)}` : ''}`;
          const r = rand();
          if (!put(seasonFolder, `${base}${r < 0.93 ? '.mkv' : r < 0.97 ? '.mp4' : '.avi'}`)) break;
          out.episodeFiles++;
          if (epNfo) put(seasonFolder, `${base}.nfo`, episodeNfo(bare, s, e));
          if (subs) put(seasonFolder, `${base}.en.srt`);
          if (subs && chance(0.1)) put(seasonFolder, `${base}.es.srt`);
        }
      }
    }

    // --- Decoys: next to the library folders, never part of the library --------------------------
    const downloads = join(drivePath, 'Downloads');
    const decoys = Math.max(50, Math.round(driveFiles[d]! * 0.02));
    for (let i = 0; i < decoys; i++) {
      const rel = `${titleWords().replace(/ /g, '.')}.S${pad(int(1, 9))}E${pad(int(1, 24))}.${pick(QUALITIES)}-${pick(GROUPS)}`;
      if (i % 4 === 0) {
        decoy(join(downloads, rel), `${rel}.mkv`);
        decoy(join(downloads, rel), `${rel}.nfo`);
      } else decoy(downloads, `${rel}.mkv`);
    }
    decoy(join(drivePath, 'Music', 'Some Artist'), '01 - Track.flac');
    decoy(join(drivePath, 'movies-old'), 'Not A Library (2001).mkv'); // wrong case: not a library folder
  }
  return out;
}
