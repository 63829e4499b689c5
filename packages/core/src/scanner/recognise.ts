import { parseReleaseName } from '../parse/release-name.ts';
import type { TemplateMedia } from './template.ts';

/**
 * What a download is, when it is sure enough to name a library file after it: a movie with its
 * year (a title alone matches too many home videos and remakes), or an episode with a season and
 * episode numbers, or a daily show with its air date. Anime numbered only by absolute episode
 * needs a season from somewhere else and is left alone.
 */
export function recogniseMedia(relativePath: string): TemplateMedia | null {
  const p = parseReleaseName(relativePath);
  if (!p || p.title.trim() === '') return null;
  if (p.kind === 'movie') {
    if (p.year === null) return null;
    return { kind: 'movie', title: p.title, year: p.year, season: null, episodes: [], air_date: null, edition: p.edition };
  }
  const numbered = p.season !== null && p.episodes.length > 0;
  if (!numbered && p.air_date === null) return null;
  return {
    kind: 'episode',
    title: p.title,
    year: p.year,
    season: numbered ? p.season : null,
    episodes: numbered ? p.episodes : [],
    air_date: p.air_date,
    edition: null,
  };
}
