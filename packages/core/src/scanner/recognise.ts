import { parseRelease, type ParsedMedia } from '../parse/release-name.ts';
import type { TemplateMedia } from './template.ts';

/** A download the scanner can name, or why it cannot (the skip's `detail`). */
export type Recognised = { ok: true; media: TemplateMedia } | { ok: false; detail: string };

/**
 * What a download is, when it is sure enough to name a library file after it: a movie with its
 * year (a title alone matches too many home videos and remakes), or an episode with a season and
 * episode numbers, or a daily show with its air date. Anime numbered only by absolute episode
 * needs a season from somewhere else and is left alone.
 */
export function recogniseMedia(relativePath: string): Recognised {
  const r = parseRelease(relativePath);
  return r.ok ? toTemplateMedia(r.media) : { ok: false, detail: r.detail };
}

/** A reading of a name as a library file can be named after it, or why it cannot be. */
export function toTemplateMedia(p: ParsedMedia): Recognised {
  if (p.kind === 'movie') {
    if (p.year === null) return { ok: false, detail: 'a movie needs its year' };
    return {
      ok: true,
      media: { kind: 'movie', title: p.title, year: p.year, season: null, episodes: [], air_date: null, edition: p.edition, country: null },
    };
  }
  const numbered = p.season !== null && p.episodes.length > 0;
  if (!numbered && p.air_date === null) {
    return {
      ok: false,
      detail: p.absolute_episodes.length > 0 ? 'absolute episode numbers without a season' : 'no episode numbers',
    };
  }
  return {
    ok: true,
    media: {
      kind: 'episode',
      title: p.title,
      year: p.year,
      year_after_episode: p.year_after_episode,
      season: numbered ? p.season : null,
      episodes: numbered ? p.episodes : [],
      air_date: p.air_date,
      edition: null,
      country: p.country,
    },
  };
}
