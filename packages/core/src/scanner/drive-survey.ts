import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
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
  /** `dev:ino` of every library folder, so that a walk of the downloads never enters one. */
  libraryDirs: Set<string>;
}

/** statfs and one listing of each library folder per drive: what the planner needs, read once a pass. */
export async function surveyDrives(drives: readonly Drive[], sections: Record<Section, readonly string[]>): Promise<DriveSurvey> {
  const surveys = await Promise.all(
    drives.map(async (drive) => {
      const [st, free] = await Promise.all([stat(drive.path).catch(() => null), freeSpace(drive.path)]);
      const roots: DriveSpace['roots'] = {};
      const folders: LibraryFolder[] = [];
      const listed: string[] = [];
      const dirs: string[] = [];
      for (const section of ['movies', 'tv'] as const) {
        for (const root of sections[section]) {
          const [entries, rootSt] = await Promise.all([
            readdir(join(drive.path, root), { withFileTypes: true }).catch(() => null),
            stat(join(drive.path, root)).catch(() => null),
          ]);
          if (!entries || !rootSt) continue;
          roots[section] ??= root;
          listed.push(rootKey(drive.name, root));
          dirs.push(`${rootSt.dev}:${rootSt.ino}`);
          const names = entries
            .filter((e) => e.isDirectory())
            .map((e) => e.name)
            .sort();
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
    libraryDirs: new Set(surveys.flatMap((s) => s.dirs)),
  };
}

/**
 * `dev:ino` of every library folder, as DriveSurvey.libraryDirs, without listing them or asking
 * for free space: what a walk of the downloads alone needs.
 */
export async function libraryDirIds(drives: readonly Drive[], roots: readonly string[]): Promise<Set<string>> {
  const stats = await Promise.all(drives.flatMap((d) => roots.map((root) => stat(join(d.path, root)).catch(() => null))));
  return new Set(stats.flatMap((st) => (st?.isDirectory() ? [`${st.dev}:${st.ino}`] : [])));
}
