import { Hono } from 'hono';
import { AppError } from '@mo/core';
import { duplicateReport } from '@mo/core/tools/duplicates.ts';
import { normalizeLanguage } from '@mo/core/languages/languages.ts';
import { subtitleAudit, subtitleCoverage } from '@mo/core/tools/subtitles.ts';
import type { LibraryIndex } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';

/** GET /api/tools/subtitles and GET /api/tools/duplicates, computed once per index (and the config they depend on). */
export function toolRoutes({ config, library }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/tools/subtitles', async (c) => {
      const raw = c.req.query('language');
      const language = raw === undefined ? null : normalizeLanguage(raw);
      if (raw !== undefined && language === null) {
        throw new AppError('bad_request', `language: "${raw}" is not a language code or name`);
      }
      const exts = config.current().library.subtitle_extensions;
      const coverageOf = (index: LibraryIndex | null) => subtitleCoverage(index?.items ?? [], { subtitleExtensions: exts });
      const languages = await library.derive(`tools.subtitles.languages|${exts.join(',')}`, (index) => coverageOf(index).languages);
      // A language no sidecar is in leaves every file missing, whichever it is: one memo for all
      // of them keeps the memos as few as the languages in the library.
      const variant = language === null ? '' : languages.has(language) ? language : '(absent)';
      const body = await library.derive(`tools.subtitles|${exts.join(',')}|${variant}`, (index) =>
        cacheJson({ scanned_at: index?.scanned_at ?? null, ...subtitleAudit(coverageOf(index), variant === '' ? null : language) }),
      );
      return sendJson(c, body);
    })
    .get('/tools/duplicates', async (c) =>
      sendJson(c, await library.derive('tools.duplicates', (index) => cacheJson({ scanned_at: index?.scanned_at ?? null, ...duplicateReport(index?.items ?? []) }))),
    );
}
