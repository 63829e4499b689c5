import { realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The folders that hold library folders `roots`, by `dev:ino`: each root's real path's parents, up
 * to `/`. A walk that entered one through a link (`Movies/Loop (2001) -> ..`, `-> /`) would walk
 * the library again from outside: the other roots under the link's name and section, and whatever
 * else the drive holds (its downloads) as library files.
 */
export function foldersAbove(roots: readonly string[]): Set<string> {
  const above = new Set<string>();
  for (const root of roots) {
    let path: string;
    try {
      path = realpathSync(root);
    } catch {
      continue;
    }
    for (let up = dirname(path); ; up = dirname(up)) {
      try {
        const st = statSync(up);
        above.add(`${st.dev}:${st.ino}`);
      } catch {
        // Moved or closed since the realpath: a link to it cannot be followed either.
      }
      if (up === dirname(up)) break;
    }
  }
  return above;
}
