import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Drive } from '@mo/shared';
import { freeSpace } from '../fs/free-space.ts';
import type { DriveSpace, Section } from './choose-drive.ts';
import { rootKey, type LibraryFolder } from './folder-lookup.ts';

export interface DriveSurvey {
  drives: DriveSpace[];
  /** The movie and series folders on disk now. */
  folders: LibraryFolder[];
  /** `rootKey(drive, root)` of every library folder that could be listed. */
  listedRoots: Set<string>;
  /** Every library folder by `dev:ino` (to its path), so that a walk of the downloads never enters one. */
  libraryDirs: Map<string, string>;
}

/** statfs and one listing of each library folder per drive: what the planner needs, read once a pass. */
export async function surveyDrives(
  drives: readonly Drive[],
  sections: Record<Section, readonly string[]>,
): Promise<DriveSurvey> {
  const surveys = await Promise.all(
    drives.map(async (drive) => {
      const [st, free] = await Promise.all([stat(drive.path).catch(() => null), freeSpace(drive.path)]);
      const roots: DriveSpace['roots'] = {};
      const folders: LibraryFolder[] = [];
      const listed: string[] = [];
      const dirs: [string, string][] = [];
      for (const section of ['movies', 'tv'] as const) {
        for (const root of sections[section]) {
          const [entries, rootSt] = await Promise.all([
            readdir(join(drive.path, root), { withFileTypes: true }).catch(() => null),
            stat(join(drive.path, root)).catch(() => null),
          ]);
          if (!entries || !rootSt) continue;
          roots[section] ??= root;
          listed.push(rootKey(drive.name, root));
          dirs.push([`${rootSt.dev}:${rootSt.ino}`, join(drive.path, root)]);
          const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
          for (const name of names) folders.push({ drive: drive.name, section, root, name });
        }
      }
      const space: DriveSpace = {
        name: drive.name,
        path: drive.path,
        dev: st?.dev ?? null,
        free_bytes: free?.free_bytes ?? null,
        total_bytes: free?.total_bytes ?? null,
        roots,
      };
      return { space, folders, listed, dirs };
    }),
  );
  return {
    drives: surveys.map((s) => s.space),
    folders: surveys.flatMap((s) => s.folders),
    listedRoots: new Set(surveys.flatMap((s) => s.listed)),
    libraryDirs: new Map(surveys.flatMap((s) => s.dirs)),
  };
}

/**
 * A downloads folder that is a library folder or lies in one: every pass would take the library's
 * own files for downloads and plan each onto itself, or move one whose folder is spelt otherwise
 * within the library. The settings route refuses such a folder; this stops a pass that the TOML
 * file, a mount or a link set up so. (A library folder inside the downloads is fine: the walk
 * never enters one.)
 */
export class DownloadsInLibraryError extends Error {
  constructor(
    readonly downloads: string,
    readonly library: string,
  ) {
    super(`the downloads folder ${downloads} lies in the library folder ${library}: a pass would take the library's own files for downloads, so none ran`);
  }
}

/** The library folder that is `downloads` or holds it, by identity (links and bind mounts included); null when none. */
export async function libraryFolderHolding(downloads: string, libraryDirs: ReadonlyMap<string, string>): Promise<string | null> {
  let dir = await realpath(downloads).catch(() => null);
  while (dir !== null) {
    const st = await stat(dir).catch(() => null);
    const library = st && libraryDirs.get(`${st.dev}:${st.ino}`);
    if (library) return library;
    const up = dirname(dir);
    dir = up === dir ? null : up;
  }
  return null;
}
