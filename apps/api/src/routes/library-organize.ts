import { join } from 'node:path';
import { createRoute } from '@hono/zod-openapi';
import { accumulate, AppError } from '@mo/core';
import { planOrganize, type OrganizeItem, type Rename } from '@mo/core/scanner';
import { libraryOrganizeBody, libraryOrganizeDryRunResponse, libraryOrganizeResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { body, errors, json, router, NOT_MODIFIED } from '../openapi/route.ts';

const ORDER_NOTE =
  "Each rename changes only the last segment of its path; they run in the order listed, a folder's files (under the folder's current name) before the folder.";

const getLibraryOrganize = createRoute({
  method: 'get',
  path: '/library/organize',
  operationId: 'getLibraryOrganize',
  summary: 'The renames that would give library files and folders the names the templates give',
  description:
    'From the cached index: each movie or episode file and each movie or series folder whose name is not what the templates give for what the ' +
    `index read, subtitles and .nfo files following their video. ${ORDER_NOTE} None lands on a path the index holds or on another's target; ` +
    'what the index is unsure of is not listed. Before the first library scan: `scanned_at` null and no renames.',
  tags: ['library'],
  responses: { ...NOT_MODIFIED, 200: json(libraryOrganizeResponse) },
});

const postLibraryOrganize = createRoute({
  method: 'post',
  path: '/library/organize',
  operationId: 'postLibraryOrganize',
  summary: 'Preview the renames GET /api/library/organize lists, or some of them',
  description:
    'With dry run on (`app.dry_run`): the renames whose `from` is named in `paths` (absent: all), none carried out. ' +
    'Carrying them out is not built yet: with dry run off the answer is a 409 and nothing is renamed.',
  tags: ['library'],
  request: { body: body(libraryOrganizeBody) },
  responses: {
    200: json(libraryOrganizeDryRunResponse),
    ...errors({
      400: 'a bad body, or a path that is not absolute, holds "." or "..", lies outside the library folders or is no rename GET /api/library/organize lists; details.key names it',
      409: 'dry run is off: renaming is not built yet',
    }),
  },
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

interface Organize {
  renames: Rename[];
  answer: CachedJson<{ scanned_at: string | null; renames: Rename[] }>;
}

/** Why `path` cannot be one of the renames chosen, or null when it can be. */
function refusal(path: string, libraryFolders: readonly string[], proposed: ReadonlySet<string>): string | null {
  if (!path.startsWith('/')) return 'is not an absolute path';
  if (path.split('/').some((s) => s === '.' || s === '..')) return 'must not hold "." or ".." folders';
  if (!libraryFolders.some((f) => path.startsWith(`${f}/`))) return 'lies outside the library folders';
  if (!proposed.has(path)) return 'is no rename GET /api/library/organize lists';
  return null;
}

export function libraryOrganizeRoutes({ library, config }: AppDeps) {
  function organize(): Promise<Organize> {
    const { movie_template: movieTemplate, episode_template: episodeTemplate } = config.current().library;
    // Keyed by the templates too: a changed template is a new answer under the same index.
    return library.derive(
      `library-organize\0${movieTemplate}\0${episodeTemplate}`,
      accumulate(
        () => {
          const items: OrganizeItem[] = [];
          return { items, add: (item: OrganizeItem) => items.push(keep(item)) };
        },
        (acc, header): Organize => {
          const renames = header ? planOrganize(acc.items, { movieTemplate, episodeTemplate }) : [];
          return { renames, answer: cacheJson({ scanned_at: header?.scanned_at ?? null, renames }) };
        },
      ),
    );
  }

  return router()
    .openapi(getLibraryOrganize, async (c) => sendJson(c, (await organize()).answer))
    .openapi(postLibraryOrganize, async (c) => {
      const { paths } = c.req.valid('json');
      const cfg = config.current();
      const { renames } = await organize();
      if (paths !== undefined) {
        const libraryFolders = cfg.drives.flatMap((d) => [...cfg.library.movie_folders, ...cfg.library.tv_folders].map((f) => join(d.path, f)));
        const proposed = new Set(renames.map((r) => r.from));
        paths.forEach((path, i) => {
          const why = refusal(path, libraryFolders, proposed);
          if (why) throw new AppError('bad_request', `paths.${i}: ${path} ${why}`, { key: `paths.${i}` });
        });
      }
      if (!cfg.app.dry_run) throw new AppError('conflict', 'applying renames is not built yet; turn dry run on to preview');
      const named = new Set(paths);
      const chosen = paths === undefined ? renames : renames.filter((r) => named.has(r.from));
      return c.json({ dry_run: true as const, renames: chosen }, 200);
    });
}
