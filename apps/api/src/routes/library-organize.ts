import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { createRoute } from '@hono/zod-openapi';
import { accumulate, AppError } from '@mo/core';
import { organizeGroups, type Group, type OrganizeItem, type Rename } from '@mo/core/scanner';
import { jobAcceptedResponse, libraryOrganizeBody, libraryOrganizeAnswer, libraryOrganizeResponse, type IndexItem } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { runJob } from '../http/jobs.ts';
import { body, errors, JOB_ERRORS, json, router, NOT_MODIFIED, waitQuery } from '../openapi/route.ts';

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
  summary: 'Carry out the renames GET /api/library/organize lists, or some of them',
  description:
    'The renames whose `from` is named in `paths` (absent: all; naming a video or one of its sidecars takes the whole group). ' +
    'With dry run on (`app.dry_run`): only listed, none carried out, no job. Otherwise a `library-organize` job on the `library` queue ' +
    '(its progress `{done, total}`) plans them again from the index and renames group by group (a video with its sidecars, or a folder), ' +
    'rename(2) within the folder only, never onto a path that is there; a group whose files changed since the scan, whose target is taken ' +
    'or that another filesystem lies across is skipped with why. Each group becomes a history item of mode `rename`, undone by ' +
    'POST /api/history/{id}/undo; the index takes the new names without a rescan. Journaled: a worker killed mid-way leaves every file at its ' +
    `old or its new name, and the next worker finishes or takes back the group it was in. ${ORDER_NOTE}`,
  tags: ['library'],
  request: { query: waitQuery, body: body(libraryOrganizeBody) },
  responses: {
    200: json(libraryOrganizeAnswer, 'The renames chosen (dry run), or what the job renamed and skipped'),
    202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({
      ...JOB_ERRORS,
      400: 'a bad body, or a path that is not absolute, holds "." or "..", lies outside the library folders or is no rename GET /api/library/organize lists; details.key names it',
      409: 'a named rename was proposed, but its file is gone or changed since the library scan, or its new name is taken; details.key names it',
    }),
  },
});

type Kept = OrganizeItem & Pick<IndexItem, 'bytes' | 'mtime_ms'>;

/** Only what the planner reads of each item, and what tells whether its file changed since, is kept while the index streams past. */
const keep = ({ path, section, root, folder, ext, type, title, year, season, episodes, air_date, extra, bytes, mtime_ms }: IndexItem): Kept => ({
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
  bytes,
  mtime_ms,
});

interface Organize {
  /** As the job carries them out: a video with its sidecars, or a folder. */
  groups: Group[];
  renames: Rename[];
  /** Size and mtime of each file a rename names, as scanned: a named file that changed since is refused. */
  scanned: Map<string, { bytes: number; mtime_ms: number }>;
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

/** Why a named rename cannot run as the index proposed it (the disk changed since the scan), or null. */
async function changedOnDisk(rename: Rename, item: { bytes: number; mtime_ms: number } | undefined): Promise<string | null> {
  const from = await lstat(rename.from).catch(() => null);
  if (from === null) return 'is gone since the library scan';
  if (
    rename.kind === 'folder'
      ? !from.isDirectory()
      : !from.isFile() || (item !== undefined && (from.size !== item.bytes || Math.abs(from.mtimeMs - item.mtime_ms) >= 1))
  ) {
    return 'changed since the library scan';
  }
  const to = await lstat(rename.to).catch(() => null);
  if (to !== null && !(to.dev === from.dev && to.ino === from.ino)) return `cannot be renamed: ${rename.to} is taken`;
  return null;
}

/** Up to this many named renames are checked on disk before the job is queued (two lstat each, on the request path). */
const CHECKED_HERE_MAX = 100;

export function libraryOrganizeRoutes({ library, config, jobs }: AppDeps) {
  function organize(): Promise<Organize> {
    const { movie_template: movieTemplate, episode_template: episodeTemplate } = config.current().library;
    // Keyed by the templates too: a changed template is a new answer under the same index.
    return library.derive(
      `library-organize\0${movieTemplate}\0${episodeTemplate}`,
      accumulate(
        () => {
          const items: Kept[] = [];
          return { items, add: (item: IndexItem) => items.push(keep(item)) };
        },
        (acc, header): Organize => {
          const groups = header ? organizeGroups(acc.items, { movieTemplate, episodeTemplate }) : [];
          const renames = groups.flat();
          const from = new Set(renames.map((r) => r.from));
          const scanned = new Map(acc.items.filter((i) => from.has(i.path)).map((i) => [i.path, { bytes: i.bytes, mtime_ms: i.mtime_ms }]));
          return { groups, renames, scanned, answer: cacheJson({ scanned_at: header?.scanned_at ?? null, renames }) };
        },
      ),
    );
  }

  return router()
    .openapi(getLibraryOrganize, async (c) => sendJson(c, (await organize()).answer))
    .openapi(postLibraryOrganize, async (c) => {
      const { paths } = c.req.valid('json');
      const cfg = config.current();
      const { groups, renames, scanned } = await organize();
      if (paths !== undefined) {
        const libraryFolders = cfg.drives.flatMap((d) => [...cfg.library.movie_folders, ...cfg.library.tv_folders].map((f) => join(d.path, f)));
        const proposed = new Set(renames.map((r) => r.from));
        const seen = new Set<string>();
        paths.forEach((path, i) => {
          const why = seen.has(path) ? 'is named twice' : refusal(path, libraryFolders, proposed);
          if (why) throw new AppError('bad_request', `paths.${i}: ${path} ${why}`, { key: `paths.${i}` });
          seen.add(path);
        });
      }
      const named = new Set(paths);
      // Naming a video or one of its sidecars takes the whole group, in the preview as in the job.
      const chosen = paths === undefined ? renames : groups.filter((g) => g.some((r) => named.has(r.from))).flat();
      if (cfg.app.dry_run) return c.json({ dry_run: true as const, renames: chosen }, 200);
      if (paths !== undefined && paths.length <= CHECKED_HERE_MAX) {
        // Named ones only, and few: the job checks every rename again anyway; this is a clear answer to a small choice.
        const byFrom = new Map(chosen.map((r) => [r.from, r]));
        for (const [i, path] of paths.entries()) {
          const why = await changedOnDisk(byFrom.get(path)!, scanned.get(path));
          if (why) throw new AppError('conflict', `paths.${i}: ${path} ${why}`, { key: `paths.${i}` });
        }
      }
      return runJob(c, jobs, 'library-organize', paths === undefined ? {} : { paths }, { wait: c.req.valid('query').wait });
    });
}
