// Runs one library scan of the drive given as argv[2] and prints what was skipped: lets a test
// run the scanner as an unprivileged user, for whom a folder can really be unreadable.
import { DEFAULT_CONFIG } from '@mo/shared';
import { libraryScanOptions, scanLibrary } from '../scan-library.ts';

const index = await scanLibrary({
  ...libraryScanOptions({ ...DEFAULT_CONFIG, drives: [{ name: 'd', path: process.argv[2]! }] }),
  onSkip: (path, error) => console.error(`skip ${path} ${error}`),
});
console.log(JSON.stringify({ skipped: index.skipped, files: index.items.map((i) => i.path) }));
