// A generated library for the organize preview: two drives of movie and series folders named as
// the default templates name them, but for about one video in ten (and its subtitle, and for a
// movie sometimes its folder) named as releases and hand copies are, in ways the planner
// (packages/core/src/scanner/organize-plan.ts) renames. It returns the renames that should be
// proposed, so that the bench checks the planner's answer against what was written, not against
// itself. Media files are empty; titles are made of plain words (no numbers, no quality or
// language words) so that every name reads one way.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OrganizeLibrary {
  drives: { name: string; path: string }[];
  /** The library folders (`<drive>/Movies`, `<drive>/TV`): what a scan enters. */
  libraryRoots: string[];
  files: number;
  folders: number;
  movies: number;
  series: number;
  videos: number;
  /** Videos named otherwise than the templates name them. */
  misnamedVideos: number;
  /** Every rename the preview should list, `from` → `to`. */
  expected: Map<string, string>;
}

const WORDS = (
  'Amber Anchor Arrow Autumn Badger Banner Beacon Birch Bishop Blossom Bramble Breeze Bridge Canyon Cedar Cinder Cobalt Comet ' +
  'Copper Coral Cotton Crane Crystal Dagger Desert Dolphin Dove Dragon Eagle Ember Falcon Feather Fern Forest Fox Garnet Glacier ' +
  'Granite Harvest Hawk Hazel Heron Indigo Ivory Jade Jasper Juniper Lantern Lark Lemon Lily Lotus Magnet Maple Marble Meadow ' +
  'Meteor Mint Nectar Oak Olive Onyx Orbit Otter Owl Panther Pearl Pebble Pepper Pine Planet Plum Prism Quartz Quill Rabbit ' +
  'Ridge Robin Ruby Saffron Salmon Sapphire Scarlet Shadow Sparrow Spruce Summit Swan Thistle Timber Topaz Tulip Violet Walnut ' +
  'Willow Harbor Hollow Island Jungle Kingdom'
).split(' ');

/** A distinct three-word title for each n below WORDS.length³ (about a million). */
function titleOf(n: number): string {
  const w = WORDS.length;
  return [WORDS[n % w], WORDS[Math.floor(n / w) % w], WORDS[Math.floor(n / (w * w)) % w]].join(' ');
}

const EPISODES = 10;
const SEASONS = 2;
/** One video in MISNAMED_EVERY is misnamed. */
const MISNAMED_EVERY = 10;

/** Writes exactly `totalFiles` files below `root`, half in movie folders, half in series folders. */
export function generateOrganizeLibrary(root: string, totalFiles: number): OrganizeLibrary {
  const out: OrganizeLibrary = { drives: [], libraryRoots: [], files: 0, folders: 0, movies: 0, series: 0, videos: 0, misnamedVideos: 0, expected: new Map() };
  const dir = (p: string) => {
    mkdirSync(p, { recursive: true });
    out.folders++;
  };
  let budget = 0;
  const put = (folder: string, name: string): boolean => {
    if (budget <= 0) return false;
    writeFileSync(join(folder, name), '');
    budget--;
    out.files++;
    return true;
  };
  const rename = (from: string, to: string) => out.expected.set(from, to);
  /** Whether the next video is one of the misnamed ones. */
  const misnamed = () => {
    const yes = out.videos++ % MISNAMED_EVERY === MISNAMED_EVERY / 2;
    if (yes) out.misnamedVideos++;
    return yes;
  };

  const perDrive = [Math.ceil(totalFiles / 2), Math.floor(totalFiles / 2)];
  let movieN = 0;
  let seriesN = 0;
  let misnamedMovies = 0;
  for (let d = 0; d < 2; d++) {
    const drivePath = join(root, `disk${d + 1}`);
    const moviesRoot = join(drivePath, 'Movies');
    const tvRoot = join(drivePath, 'TV');
    out.drives.push({ name: `disk${d + 1}`, path: drivePath });
    out.libraryRoots.push(moviesRoot, tvRoot);
    dir(moviesRoot);
    dir(tvRoot);

    // Movies: a video, its English subtitle and a poster (which follows no video) per folder.
    budget = Math.ceil(perDrive[d]! / 2);
    const tvBudget = perDrive[d]! - budget;
    while (budget > 0) {
      const title = titleOf(movieN);
      const year = 1950 + (movieN % 75);
      movieN++;
      out.movies++;
      const named = `${title} (${year})`;
      const release = `${title.replace(/ /g, '.')}.${year}.1080p.BluRay`;
      if (!misnamed()) {
        const folder = join(moviesRoot, named);
        dir(folder);
        put(folder, `${named}.mkv`);
        put(folder, `${named}.en.srt`);
        put(folder, 'poster.jpg');
        continue;
      }
      // Three ways, in turn: a release-named file in a well named folder (the file and its
      // subtitle renamed); a release-named folder holding the release's file (the file, its
      // subtitle and the folder); a release-named folder around a well named file (the folder).
      const how = misnamedMovies++ % 3;
      const folder = join(moviesRoot, how === 0 ? named : release);
      dir(folder);
      const stem = how === 0 ? `${title.toLowerCase().replace(/ /g, '.')}.${year}.720p.web` : how === 1 ? `${release}.x264-GRP` : named;
      if (put(folder, `${stem}.mkv`) && how !== 2) rename(join(folder, `${stem}.mkv`), join(folder, `${named}.mkv`));
      if (put(folder, `${stem}.en.srt`) && how !== 2) rename(join(folder, `${stem}.en.srt`), join(folder, `${named}.en.srt`));
      put(folder, 'poster.jpg');
      if (how !== 0) rename(folder, join(moviesRoot, named));
    }

    // Series: a poster, then seasons of episodes, each with its English subtitle.
    budget = tvBudget;
    while (budget > 0) {
      const title = titleOf(seriesN++);
      out.series++;
      const sFolder = join(tvRoot, title);
      dir(sFolder);
      put(sFolder, 'poster.jpg');
      for (let s = 1; s <= SEASONS && budget > 0; s++) {
        const season = join(sFolder, `Season ${String(s).padStart(2, '0')}`);
        dir(season);
        for (let e = 1; e <= EPISODES && budget > 0; e++) {
          const code = `S${String(s).padStart(2, '0')}E${String(e).padStart(2, '0')}`;
          const named = `${title} - ${code}`;
          const stem = misnamed() ? `${title.toLowerCase().replace(/ /g, '.')}.${code.toLowerCase()}` : named;
          if (put(season, `${stem}.mkv`) && stem !== named) rename(join(season, `${stem}.mkv`), join(season, `${named}.mkv`));
          if (put(season, `${stem}.en.srt`) && stem !== named) rename(join(season, `${stem}.en.srt`), join(season, `${named}.en.srt`));
        }
      }
    }
  }
  return out;
}
