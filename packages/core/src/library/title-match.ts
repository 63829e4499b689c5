// Matching a title against the library's movie and series folders, by the title key
// (parse/title-key.ts): folders of one show share its identity, remakes share only its key.
import { SERIES_COUNTRIES } from '../parse/countries.ts';
import { boundedName } from '../parse/name-bound.ts';
import { identityOf, titleKey, type TitleKey } from '../parse/title-key.ts';
import { titleYearOfFolder } from './classify.ts';

/** What the folders that fit a name come to: one show (on any number of drives) or several. */
export type FolderFit<T> = { kind: 'found'; folders: T[] } | { kind: 'ambiguous'; folders: T[] };

const COUNTRY_TAG = /[([]\s*([A-Za-z]{2})\s*[)\]]/g;

/**
 * The key of a movie or series folder as Sonarr, Radarr, Plex and Jellyfin name them
 * (`Doctor Who (2005) [tvdbid-78804]`, `The Office (US)`). A country tag that the folder reader
 * left outside the title (`The Office (2005) (US)`) still counts.
 */
export function folderTitleKey(name: string): TitleKey {
  const { title, year } = titleYearOfFolder(name);
  const k = titleKey(title, year);
  if (k.country !== null) return k;
  const codes = new Set<string>();
  for (const m of boundedName(name).matchAll(COUNTRY_TAG)) {
    const code = m[1]!.toUpperCase();
    if (SERIES_COUNTRIES.has(code) && !title.includes(m[0])) codes.add(code);
  }
  return codes.size === 1 ? { ...k, country: [...codes][0]! } : k;
}

/** The two name different shows: both have a year and the years differ, or likewise the countries. */
export function contradicts(a: TitleKey, b: TitleKey): boolean {
  return (a.year !== null && b.year !== null && a.year !== b.year) || (a.country !== null && b.country !== null && a.country !== b.country);
}

/**
 * The folders a name may go into. A folder fits when its key is the name's and its year and
 * country do not contradict the name's; of those, the ones that confirm most of what the name
 * says win (`Doctor Who (2005)` over `Doctor Who` for Doctor.Who.2005). Folders of one name on
 * several drives or library folders are one show; two different names left over (`Doctor Who
 * (1963)` and `Doctor Who (2005)` for Doctor.Who) are ambiguous: a guess would misfile the file.
 */
export function fittingFolders<T>(wanted: TitleKey, folders: readonly T[], keyOf: (f: T) => TitleKey): FolderFit<T> {
  const confirmed = (k: TitleKey) =>
    (wanted.year !== null && k.year === wanted.year ? 1 : 0) + (wanted.country !== null && k.country === wanted.country ? 1 : 0);
  const fits = folders.filter((f) => {
    const k = keyOf(f);
    return k.key === wanted.key && !contradicts(k, wanted);
  });
  const best = Math.max(0, ...fits.map((f) => confirmed(keyOf(f))));
  const chosen = fits.filter((f) => confirmed(keyOf(f)) === best);
  const shows = new Set(chosen.map((f) => identityOf(keyOf(f))));
  return shows.size > 1 ? { kind: 'ambiguous', folders: chosen } : { kind: 'found', folders: chosen };
}

/**
 * Buckets things with the same key. A bucket whose members name two or more years, or two or more
 * countries, is split by year and country (Doctor Who 1963 and 2005, The Office US and UK are
 * different shows), and then the things that name neither stay apart from all of them, since they
 * cannot be told which they are. Otherwise the bucket is one show.
 */
export function sameTitleGroups<T>(things: readonly T[], keyOf: (t: T) => TitleKey): T[][] {
  const buckets = new Map<string, { thing: T; key: TitleKey }[]>();
  for (const thing of things) {
    const key = keyOf(thing);
    const bucket = buckets.get(key.key);
    if (bucket) bucket.push({ thing, key });
    else buckets.set(key.key, [{ thing, key }]);
  }
  const out: T[][] = [];
  for (const bucket of buckets.values()) {
    const years = new Set(bucket.map((b) => b.key.year).filter((y) => y !== null));
    const countries = new Set(bucket.map((b) => b.key.country).filter((c) => c !== null));
    if (years.size <= 1 && countries.size <= 1) {
      out.push(bucket.map((b) => b.thing));
      continue;
    }
    const byShow = new Map<string, T[]>();
    for (const { thing, key } of bucket) {
      const id = identityOf(key);
      const group = byShow.get(id);
      if (group) group.push(thing);
      else byShow.set(id, [thing]);
    }
    out.push(...byShow.values());
  }
  return out;
}
