import { basename } from 'node:path';
import type { IndexItem } from '@mo/shared';
import { identityOf, titleKey, type TitleKey } from '../parse/title-key.ts';
import { folderTitleKey } from './title-match.ts';

type SeriesItem = Pick<IndexItem, 'root' | 'folder' | 'title' | 'year'>;

/**
 * The series a TV index item belongs to, as the library view, the duplicates and the releases
 * report group it: its folder, or for a loose episode straight in the TV folder the show its parsed
 * title names.
 */
export function seriesUnitId(item: SeriesItem): string {
  return item.folder === item.root ? `${item.root}\0${identityOf(seriesUnitKey(item))}` : item.folder;
}

/** The title key of that series: its folder's name as the library names it, or a loose episode's parsed title. */
export function seriesUnitKey(item: SeriesItem): TitleKey {
  return item.folder === item.root ? titleKey(item.title ?? '', item.year) : folderTitleKey(basename(item.folder));
}
