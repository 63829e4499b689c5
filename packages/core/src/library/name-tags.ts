// Tags media servers read in movie and series folder names and strip from the title: metadata
// provider ids (Jellyfin `[imdbid-tt0106145]`, `[tmdbid-680]`, `[tvdbid-79168]`, Emby
// `[tmdbid=680]`, Plex `{imdb-tt0106145}`, `{tmdb-680}`, `{tvdb-79168}`) and Plex editions
// (`{edition-Director's Cut}`).

import { boundedName } from '../parse/name-bound.ts';

const TAGS = /\s*(?:[[{](?:imdb|tmdb|tvdb|tvmaze|anidb|anilist|mal|trakt)(?:id)?[-=][^\]}]*[\]}]|\{edition-[^}]*\})/gi;

/** The name without its provider id and edition tags. */
export function withoutNameTags(name: string): string {
  return boundedName(name).replace(TAGS, '').trim();
}
