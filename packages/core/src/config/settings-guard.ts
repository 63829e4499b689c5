import { join, resolve } from 'node:path';
import type { Config, SettingsPatch } from '@mo/shared';
import { AppError, type KeyIssue } from '../errors.ts';
import { libraryFolderHolding } from '../scanner/downloads-in-library.ts';
import { checkTemplate, TemplateError } from '../scanner/template.ts';
import { isInside, realPathOf } from '../fs/real-path.ts';
import { allowedRoots, checkRuntimePath, fileConfigPaths, realRoots } from './allowed-roots.ts';
import { folderOverlap, type NamedFolder } from './folder-overlap.ts';
import { extensionProblem, type ExtensionList } from './known-extensions.ts';
import { providerUrlProblem, type Resolve } from '../releases/public-address.ts';

export interface SettingsGuardContext {
  /** The TOML file as loaded: it alone decides the roots, the known exceptions and `allow_private`. */
  fileConfig: Config;
  /** The effective config the patch changes (the TOML file's when absent), for rules across sections. */
  current?: Config;
  /** DNS for the provider URL; tests give their own. */
  resolve?: Resolve;
}

/**
 * A downloads folder in a library folder has every pass take the library's own files for downloads:
 * each one planned onto itself and failed, and one in a folder of another spelling moved within the
 * library. (A library folder inside the downloads is fine: the walk never enters one.) The key named
 * is the one the patch changed.
 */
async function downloadsInLibrary(patch: SettingsPatch, base: Config): Promise<KeyIssue | null> {
  const given = patch.paths?.downloads ?? base.paths.downloads;
  const downloads = await realPathOf(given).catch(() => null);
  if (downloads === null) return null;
  const drives = patch.drives ?? base.drives;
  const movieFolders = patch.library?.movie_folders ?? base.library.movie_folders;
  const folders = [...movieFolders, ...(patch.library?.tv_folders ?? base.library.tv_folders)];
  const libraries = await Promise.all(
    drives.flatMap((drive, i) =>
      folders.map(async (folder) => ({ i, folder, path: join(drive.path, folder), real: await realPathOf(join(drive.path, folder)).catch(() => null) })),
    ),
  );
  // By path, for folders not made yet; by identity and mount for links and a bind mount of a library's folder.
  const holder =
    libraries.find((l) => l.real !== null && isInside(downloads, l.real))?.path ??
    (await libraryFolderHolding(
      given,
      libraries.map((l) => l.path),
    ));
  const hit = libraries.find((l) => l.path === holder);
  if (!hit) return null;
  const key =
    patch.paths?.downloads !== undefined
      ? 'paths.downloads'
      : patch.drives !== undefined
        ? `drives.${hit.i}.path`
        : movieFolders.includes(hit.folder)
          ? 'library.movie_folders'
          : 'library.tv_folders';
  return {
    path: key,
    message: `the downloads folder ${downloads} lies in the library folder ${hit.real ?? hit.path}: every pass would take the library's own files for downloads`,
  };
}

/** The folders the config would have with the patch applied, each marked when the patch moves it off the config file's. */
function namedFolders(patch: SettingsPatch, base: Config, fileConfig: Config): NamedFolder[] {
  const same = (a: string, b: string) => resolve(a) === resolve(b);
  const paths = { ...base.paths, ...patch.paths };
  const path = (key: 'downloads' | 'config', what: string, kind: NamedFolder['kind']): NamedFolder => ({
    key: `paths.${key}`,
    what,
    path: paths[key],
    changed: patch.paths?.[key] !== undefined && !same(paths[key], fileConfig.paths[key]),
    kind,
  });
  return [
    path('downloads', 'the downloads folder', 'downloads'),
    // The stylesheet is served to anyone: in the data folder it would hand out the API key, in the downloads a file anyone could send.
    path('config', 'the config folder, whose stylesheet anyone may fetch', 'other'),
    { key: 'paths.data', what: 'the data folder, which holds state.json and the API key', path: fileConfig.paths.data, changed: false, kind: 'other' },
    ...(patch.drives ?? base.drives).map((d, i): NamedFolder => ({
      key: `drives.${i}.path`,
      what: `the drive ${d.name}`,
      path: d.path,
      changed: patch.drives !== undefined && !fileConfig.drives.some((f) => f.name === d.name && same(f.path, d.path)),
      kind: 'drive',
    })),
  ];
}

/**
 * What a settings patch that passed the schema must still satisfy before it is saved: paths inside
 * the allowed roots and apart from one another, known media types, templates that name files inside the library, a provider
 * URL that reaches no internal address. Every refusal is collected; the 400 names the first key and
 * lists them all in `details.issues`, as a schema refusal does.
 */
export async function guardSettingsPatch(patch: SettingsPatch, ctx: SettingsGuardContext): Promise<void> {
  const issues: KeyIssue[] = [];
  const { fileConfig } = ctx;

  const paths: [string, string][] = [];
  for (const key of ['downloads', 'config'] as const) {
    const p = patch.paths?.[key];
    if (p !== undefined) paths.push([`paths.${key}`, p]);
  }
  patch.drives?.forEach((d, i) => paths.push([`drives.${i}.path`, d.path]));
  if (paths.length > 0) {
    const pathCtx = { roots: await realRoots(allowedRoots(fileConfig)), fileConfigPaths: fileConfigPaths(fileConfig) };
    for (const [key, p] of paths) {
      const problem = await checkRuntimePath(p, pathCtx);
      if (problem) issues.push({ path: key, message: problem });
    }
  }

  // Judged only once each path is allowed: a refused one says all there is to say about it.
  if ((patch.paths !== undefined || patch.drives !== undefined) && issues.length === 0) {
    const overlap = await folderOverlap(namedFolders(patch, ctx.current ?? fileConfig, fileConfig));
    if (overlap) issues.push(overlap);
  }

  const cssFile = patch.theme?.css_file;
  if (cssFile !== undefined && !cssFile.toLowerCase().endsWith('.css')) issues.push({ path: 'theme.css_file', message: 'must name a .css file' });

  for (const list of ['video_extensions', 'subtitle_extensions'] as const satisfies readonly ExtensionList[]) {
    const given = patch.library?.[list];
    if (given === undefined) continue;
    const problem = extensionProblem(list, given, fileConfig.library[list]);
    if (problem) issues.push({ path: `library.${list}.${problem.index}`, message: problem.message });
  }

  for (const [key, kind] of [
    ['movie_template', 'movie'],
    ['episode_template', 'episode'],
  ] as const) {
    const template = patch.library?.[key];
    if (template === undefined) continue;
    try {
      checkTemplate(template, kind, `library.${key}`);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      issues.push({ path: err.key, message: err.reason });
    }
  }

  const url = patch.release_providers?.tvmaze?.url;
  if (url !== undefined) {
    const allowPrivate = fileConfig.release_providers.tvmaze.allow_private;
    const problem = await providerUrlProblem(url, { allowPrivate, ...(ctx.resolve ? { resolve: ctx.resolve } : {}) });
    if (problem) issues.push({ path: 'release_providers.tvmaze.url', message: problem });
  }

  const moved =
    patch.paths?.downloads !== undefined || patch.drives !== undefined || patch.library?.movie_folders !== undefined || patch.library?.tv_folders !== undefined;
  if (moved && issues.length === 0) {
    const overlap = await downloadsInLibrary(patch, ctx.current ?? fileConfig);
    if (overlap) issues.push(overlap);
  }

  const first = issues[0];
  if (first) throw new AppError('bad_request', `${first.path}: ${first.message}`, { key: first.path, issues });
}
