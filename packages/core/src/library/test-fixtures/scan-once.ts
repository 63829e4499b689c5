// Runs one library scan of the drive given as argv[2] and prints what was skipped: lets a test
// run the scanner as an unprivileged user, for whom a folder can really be unreadable.
import { DEFAULT_CONFIG } from '@mo/shared';
import { scanLibrary } from '../scan-library.ts';

const index = await scanLibrary({
  drives: [{ name: 'd', path: process.argv[2]! }],
  movieFolders: DEFAULT_CONFIG.library.movie_folders,
  tvFolders: DEFAULT_CONFIG.library.tv_folders,
  videoExtensions: DEFAULT_CONFIG.library.video_extensions,
  subtitleExtensions: DEFAULT_CONFIG.library.subtitle_extensions,
  maxFiles: 1000,
  timeoutMs: 60_000,
  readNfo: true,
  onSkip: (path, error) => console.error(`skip ${path} ${error}`),
});
console.log(JSON.stringify({ skipped: index.skipped, files: index.items.map((i) => i.path) }));
