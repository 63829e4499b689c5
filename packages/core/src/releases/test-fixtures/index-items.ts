import { KNOWN_SUBTITLE_EXTENSIONS, KNOWN_VIDEO_EXTENSIONS, type IndexItem, type LibraryIndex } from '@mo/shared';

/**
 * A hand-built index item from a path `/<anything>/<drive>/<Movies|TV|TV Shows>/<folder>/…/<file>`:
 * drive, section, root, folder, ext and type follow from the path, the title and year from the
 * `Title (Year)` folder; everything else is given by the test. No classifier involved, so the tests
 * of the reports do not depend on how the scanner reads names.
 */
export function item(path: string, fields: Partial<IndexItem> = {}): IndexItem {
  const parts = path.split('/');
  const r = parts.findIndex((p) => p === 'Movies' || p === 'TV' || p === 'TV Shows');
  if (r < 1) throw new Error(`test item ${path}: no library folder in the path`);
  const root = parts.slice(0, r + 1).join('/');
  const rest = parts.slice(r + 1);
  const name = rest[rest.length - 1]!;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot).toLowerCase() : '';
  const folderName = rest.length > 1 ? rest[0]! : null;
  const m = folderName ? /^(.*?) \((\d{4})\)/.exec(folderName) : null;
  return {
    path,
    drive: parts[r - 1]!,
    section: parts[r] === 'Movies' ? 'movies' : 'tv',
    root,
    folder: folderName ? `${root}/${folderName}` : root,
    bytes: 1,
    mtime_ms: 0,
    ext,
    type: KNOWN_VIDEO_EXTENSIONS.has(ext) ? 'video' : KNOWN_SUBTITLE_EXTENSIONS.has(ext) ? 'subtitle' : ext === '.nfo' ? 'nfo' : 'other',
    title: m ? m[1]! : folderName,
    year: m ? Number(m[2]) : null,
    season: null,
    episodes: [],
    air_date: null,
    extra: false,
    nfo: null,
    ...fields,
  };
}

/** An episode video of a series folder: `episode('/m/d1/TV/Lost', 1, [2, 3])`. */
export function episode(seriesFolder: string, season: number, episodes: number[], fields: Partial<IndexItem> = {}): IndexItem {
  const code = episodes.map((e) => `E${String(e).padStart(2, '0')}`).join('-');
  const name = seriesFolder.slice(seriesFolder.lastIndexOf('/') + 1);
  return item(`${seriesFolder}/Season ${season}/${name} - S${String(season).padStart(2, '0')}${code}.mkv`, { season, episodes, ...fields });
}

export function index(items: IndexItem[], scanned_at = '2026-01-02T03:04:05.000Z'): LibraryIndex {
  return { version: 1, scanned_at, duration_ms: 1, truncated: false, timed_out: false, skipped: [], drives: [], items };
}
