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
