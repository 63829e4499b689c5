import type { Alias } from '@mo/shared';
import { titleYearOfFolder } from '../library/classify.ts';
import { contradicts, folderTitleKey } from '../library/title-match.ts';
import { titleKey, type TitleKey } from '../parse/title-key.ts';

/** The series an alias names, as a download's title would name it. */
export interface AliasedSeries {
  title: string;
  year: number | null;
  country: string | null;
}

function withoutCountry(title: string, code: string): string {
  const tag = [`(${code})`, `[${code}]`, ` ${code}`].find((t) => title.toUpperCase().endsWith(t));
  return tag && title.length > tag.length ? title.slice(0, -tag.length).trimEnd() : title;
}

/**
 * A series as a library folder's name spells it (`Doctor Who (2005)`, `The Office (US)`), split as a
 * download's name would give it: the country is the series' own field, not part of its title.
 */
export function seriesOfFolderName(name: string): AliasedSeries {
  const folder = titleYearOfFolder(name);
  const country = folderTitleKey(name).country;
  return { title: country === null ? folder.title : withoutCountry(folder.title, country), year: folder.year, country };
}

/** `[library] aliases`: a download title the owner settled once, and the series it means. */
export type AliasTable = (title: string, year: number | null, country: string | null) => AliasedSeries | null;

/**
 * Names compare as titles do (case, accents, punctuation, a leading article); an alias whose name
 * carries a year or country code is only for downloads that do not contradict it.
 */
export function aliasTable(aliases: readonly Alias[]): AliasTable {
  const byKey = new Map<string, { name: TitleKey; key: TitleKey; series: AliasedSeries }[]>();
  for (const a of aliases) {
    const name = titleKey(a.name);
    const key = folderTitleKey(a.series);
    const series = seriesOfFolderName(a.series);
    const list = byKey.get(name.key) ?? [];
    list.push({ name, key, series });
    byKey.set(name.key, list);
  }
  return (title, year, country) => {
    const wanted = titleKey(title, year, country);
    // `Doctor.Who.1963` is no download of `Doctor Who (2005)`, whatever an alias of `Doctor Who` says.
    const fits = (byKey.get(wanted.key) ?? []).filter((a) => !contradicts(a.name, wanted) && !contradicts(a.key, wanted));
    // Two aliases of one name for different series: the owner's own choices disagree, so neither wins.
    const distinct = new Set(fits.map((a) => JSON.stringify(a.series)));
    return distinct.size === 1 ? fits[0]!.series : null;
  };
}
