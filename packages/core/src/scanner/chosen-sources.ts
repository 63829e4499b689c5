import { isAbsolute, resolve } from 'node:path';
import { AppError } from '../errors.ts';
import { isInside } from '../fs/real-path.ts';

/**
 * The downloads a pass of chosen files may take: each an absolute, normalised path below the
 * downloads folder (a preview's plan names them so). Checked by the API and again by the worker,
 * since a job's payload may come from anywhere that reaches Redis; a refusal names the entry.
 */
export function checkSources(downloads: string, sources: readonly string[]): ReadonlySet<string> {
  const root = resolve(downloads);
  sources.forEach((source, i) => {
    const why =
      source.includes('\0') || !isAbsolute(source) || resolve(source) !== source
        ? 'must be an absolute path without . or .. parts'
        : source === root || !isInside(source, root)
          ? 'must lie inside the downloads folder'
          : null;
    if (why) throw new AppError('bad_request', `sources.${i}: ${why}`, { key: `sources.${i}` });
  });
  return new Set(sources);
}
