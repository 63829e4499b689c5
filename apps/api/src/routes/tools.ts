import { Hono } from 'hono';
import { AppError } from '@mo/core';
import { duplicateReport } from '@mo/core/tools/duplicates.ts';
import { normalizeLanguage, subtitleAudit, subtitleCoverage } from '@mo/core/tools/subtitles.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { cacheJson, sendJson } from '../http/cached-json.ts';

/** GET /api/tools/subtitles and GET /api/tools/duplicates, computed once per index (and the config they depend on). */
export function toolRoutes({ config, library }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/tools/subtitles', (c) => {
      const raw = c.req.query('language');
      const language = raw === undefined ? null : normalizeLanguage(raw);
      if (raw !== undefined && language === null) {
        throw new AppError('bad_request', `language: "${raw}" is not a language code or name`);
      }
      const exts = config.current().library.subtitle_extensions;
      const coverage = library.derive(`tools.subtitles.coverage|${exts.join(',')}`, (index) =>
        subtitleCoverage(index?.items ?? [], { subtitleExtensions: exts }),
      );
      // A language no sidecar is in leaves every file missing, whichever it is: one memo for all
      // of them keeps the memos as few as the languages in the library.
      const variant = language === null ? '' : coverage.languages.has(language) ? language : '(absent)';
      const body = library.derive(`tools.subtitles|${exts.join(',')}|${variant}`, (index) =>
        cacheJson({ scanned_at: index?.scanned_at ?? null, ...subtitleAudit(coverage, language) }),
      );
      return sendJson(c, body);
    })
    .get('/tools/duplicates', (c) =>
      sendJson(c, library.derive('tools.duplicates', (index) => cacheJson({ scanned_at: index?.scanned_at ?? null, ...duplicateReport(index?.items ?? []) }))),
    );
}
