interface Movie {
  title: string;
  year: number | null;
  folder: string;
}
interface Series {
  title: string;
  folder: string;
}

export interface LibraryFolder {
  kind: 'movie' | 'series';
  /** As the Library page names it: "Heat (1995)", "The Office". */
  title: string;
  folder: string;
}

/** The address of a movie's or series' folder view. */
export const folderHref = (folder: string) => `/library/folder?path=${encodeURIComponent(folder)}`;

/**
 * The movie or series folder of the index that holds a file: the deepest one its path lies under
 * (a folder `Heat` must not claim `Heat 2/…`); null when the index lists none.
 */
export function libraryFolderOf(path: string, library: { movies: readonly Movie[]; series: readonly Series[] }): LibraryFolder | null {
  const all: LibraryFolder[] = [
    ...library.movies.map((m) => ({ kind: 'movie' as const, title: m.year ? `${m.title} (${m.year})` : m.title, folder: m.folder })),
    ...library.series.map((s) => ({ kind: 'series' as const, title: s.title, folder: s.folder })),
  ];
  let best: LibraryFolder | null = null;
  for (const f of all) {
    const prefix = f.folder.endsWith('/') ? f.folder : `${f.folder}/`;
    if (path.startsWith(prefix) && (!best || f.folder.length > best.folder.length)) best = f;
  }
  return best;
}

/** The movie or series whose folder is exactly this one; null when the index lists none. */
export function libraryFolderAt(folder: string, library: { movies: readonly Movie[]; series: readonly Series[] }): LibraryFolder | null {
  const m = library.movies.find((x) => x.folder === folder);
  if (m) return { kind: 'movie', title: m.year ? `${m.title} (${m.year})` : m.title, folder };
  const s = library.series.find((x) => x.folder === folder);
  return s ? { kind: 'series', title: s.title, folder } : null;
}
