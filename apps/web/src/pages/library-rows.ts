interface Told {
  title: string;
  drive: string;
  folder: string;
  detail: string;
}

/** Rows of one title on one drive (two `Alien (1979)` folders) name their folders, so they can be told apart. */
export function toldApart<T extends Told>(rows: T[]): T[] {
  const count = new Map<string, number>();
  const key = (r: T) => `${r.title}\0${r.drive}`;
  for (const r of rows) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
  return rows.map((r) => ((count.get(key(r)) ?? 0) > 1 ? { ...r, detail: `${r.detail} · ${r.folder.slice(r.folder.lastIndexOf('/') + 1)}` } : r));
}

/** Titles one page shows: enough to scroll, few enough that a page of a million-file library is at once. */
export const PAGE_SIZE = 100;

export type Missing = 'picture' | 'subtitles' | 'episodes';

/** The sort control's choices, each a sort and an order of GET /api/library. */
export const SORTS = [
  { value: 'title:asc', label: 'Title, A to Z' },
  { value: 'title:desc', label: 'Title, Z to A' },
  { value: 'size:desc', label: 'Largest first' },
  { value: 'size:asc', label: 'Smallest first' },
  { value: 'added:desc', label: 'Newest first' },
  { value: 'added:asc', label: 'Oldest first' },
] as const;
export type SortChoice = (typeof SORTS)[number]['value'];

export const MISSING_CHOICES: { value: Missing | ''; label: string }[] = [
  { value: '', label: 'Anything' },
  { value: 'picture', label: 'No picture' },
  { value: 'subtitles', label: 'No subtitles' },
  { value: 'episodes', label: 'Episodes (gaps)' },
];

export interface LibraryFilter {
  tab: 'movies' | 'series';
  text: string;
  drive: string;
  missing: Missing | '';
  sort: SortChoice;
  offset: number;
}

/** The query of one page: always paged, empty choices left out so the API reads them as "any". */
export function pageQuery(f: LibraryFilter) {
  const [sort, order] = f.sort.split(':') as ['title' | 'size' | 'added', 'asc' | 'desc'];
  const q = f.text.trim();
  return {
    kind: f.tab === 'movies' ? ('movie' as const) : ('series' as const),
    sort,
    order,
    limit: PAGE_SIZE,
    offset: f.offset,
    ...(q ? { q } : {}),
    ...(f.drive ? { drive: f.drive } : {}),
    ...(f.missing ? { missing: f.missing } : {}),
  };
}

/** "101–200 of 1,234", or "None" when nothing matches. */
export function shownRange(offset: number, count: number, total: number): string {
  if (total === 0 || count === 0) return 'None';
  return `${(offset + 1).toLocaleString('en-US')}–${(offset + count).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}
