import { createRoute } from '@hono/zod-openapi';
import { accumulate } from '@mo/core';
import { planOrganize, type OrganizeItem } from '@mo/core/scanner';
import { libraryOrganizeResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';
import { json, router, NOT_MODIFIED } from '../openapi/route.ts';

const getLibraryOrganize = createRoute({
  method: 'get',
  path: '/library/organize',
  operationId: 'getLibraryOrganize',
  summary: 'The renames that would give library files and folders the names the templates give',
  description:
    'From the cached index: each movie or episode file and each movie or series folder whose name is not what the templates give for what the ' +
    'index read, subtitles and .nfo files following their video. Each rename changes only the last segment of its path; they run in the order ' +
    "listed, a folder's files (under the folder's current name) before the folder. None lands on a path the index holds or on another's target; " +
    'what the index is unsure of is not listed. Before the first library scan: `scanned_at` null and no renames.',
  tags: ['library'],
  responses: { ...NOT_MODIFIED, 200: json(libraryOrganizeResponse) },
});

/** Only what the planner reads of each item is kept while the index streams past. */
const keep = ({ path, section, root, folder, ext, type, title, year, season, episodes, air_date, extra }: OrganizeItem): OrganizeItem => ({
  path,
  section,
  root,
  folder,
  ext,
  type,
  title,
  year,
  season,
  episodes,
  air_date,
  extra,
});

export function libraryOrganizeRoutes({ library, config }: AppDeps) {
  return router().openapi(getLibraryOrganize, async (c) => {
    const { movie_template: movieTemplate, episode_template: episodeTemplate } = config.current().library;
    // Keyed by the templates too: a changed template is a new answer under the same index.
    const answer = await library.derive(
      `library-organize\0${movieTemplate}\0${episodeTemplate}`,
      accumulate(
        () => {
          const items: OrganizeItem[] = [];
          return { items, add: (item: OrganizeItem) => items.push(keep(item)) };
        },
        (acc, header) =>
          cacheJson({ scanned_at: header?.scanned_at ?? null, renames: header ? planOrganize(acc.items, { movieTemplate, episodeTemplate }) : [] }),
      ),
    );
    return sendJson(c, answer);
  });
}
