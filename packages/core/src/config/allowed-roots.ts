import { dirname, resolve } from 'node:path';
import type { Config } from '@mo/shared';
import { isInside, realPathOf, UnresolvablePathError } from '../fs/real-path.ts';

// Where a path set at run time (`paths.*`, drive paths) may point. A stolen session must not be able
// to turn the service into a tool that reads or writes the system: the roots come from the TOML file
// alone, and a few system folders stay out of reach whatever the roots say.

/** Never allowed at run time, nor anything inside them; `/lib*` is a rule of its own (lib, lib64, libx32…). */
const SYSTEM_FOLDERS = ['/etc', '/usr', '/bin', '/sbin', '/boot', '/dev', '/proc', '/sys', '/root', '/run', '/var/lib'];

/** The system folder an absolute, normalised path is or lies in (`/` for the root itself), else null. */
export function systemFolderOf(path: string): string | null {
  if (path === '/') return '/';
  const top = path.split('/')[1]!;
  if (top.startsWith('lib')) return `/${top}`;
  return SYSTEM_FOLDERS.find((f) => isInside(path, f)) ?? null;
}

/**
 * `app.allowed_roots` when the TOML file sets it; otherwise its downloads, config and data folders,
 * each drive path, and each drive path's parent unless that is `/` (so that a second disk mounted
 * beside the first can be added without editing the file).
 */
export function allowedRoots(fileConfig: Pick<Config, 'app' | 'paths' | 'drives'>): string[] {
  if (fileConfig.app.allowed_roots.length > 0) return fileConfig.app.allowed_roots.map((r) => resolve(r));
  const { downloads, config, data } = fileConfig.paths;
  const drives = fileConfig.drives.map((d) => resolve(d.path));
  const parents = drives.map((d) => dirname(d)).filter((p) => p !== '/');
  return [...new Set([downloads, config, data].map((p) => resolve(p)).concat(drives, parents))];
}

/** The paths the TOML file itself names: its owner chose them, so they stay allowed at run time as they are. */
export function fileConfigPaths(fileConfig: Pick<Config, 'paths' | 'drives'>): string[] {
  const { downloads, config, data } = fileConfig.paths;
  return [downloads, config, data, ...fileConfig.drives.map((d) => d.path)].map((p) => resolve(p));
}

export interface PathVerdict {
  /** The path as asked, normalised. */
  requested: string;
  /** Its real path (`realPathOf`). */
  real: string;
  /** Real paths of the allowed roots. */
  roots: readonly string[];
  /** `fileConfigPaths`, normalised. */
  fileConfigPaths: readonly string[];
}

/** Why a runtime path is refused, or null when it is allowed. Pure: the paths are resolved already. */
export function runtimePathProblem(v: PathVerdict): string | null {
  if (v.fileConfigPaths.includes(v.requested)) return null;
  for (const p of [v.requested, v.real]) {
    const system = systemFolderOf(p);
    if (system === '/') return 'the root folder is never allowed at run time';
    if (system) return `lies in ${system}, a system folder, which is never allowed at run time`;
  }
  if (!v.roots.some((r) => isInside(v.real, r))) {
    return 'lies outside the allowed roots (symlinks followed); add it or a folder above it to app.allowed_roots in the config file';
  }
  return null;
}

/** The allowed roots with symlinks followed; a root that cannot be resolved allows nothing. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const real = await Promise.all(roots.map((r) => realPathOf(r).catch(() => null)));
  return real.filter((r): r is string => r !== null);
}

/** Why `path`, set at run time, is refused; null when it is allowed. */
export async function checkRuntimePath(path: string, ctx: { roots: readonly string[]; fileConfigPaths: readonly string[] }): Promise<string | null> {
  const requested = resolve(path);
  let real: string;
  try {
    real = await realPathOf(requested);
  } catch (err) {
    if (err instanceof UnresolvablePathError) return err.message;
    throw err;
  }
  return runtimePathProblem({ requested, real, roots: ctx.roots, fileConfigPaths: ctx.fileConfigPaths });
}
