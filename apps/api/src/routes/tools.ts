import { createRoute, z } from '@hono/zod-openapi';
import { accumulate, AppError } from '@mo/core';
import { duplicateAccumulator, subtitleAudit, subtitleCoverageAccumulator } from '@mo/core/tools';
import { normalizeLanguage } from '@mo/core/languages';
import { duplicatesResponse, subtitlesResponse } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, cacheStreamedJson, sendJson } from '../http/cached-json.ts';
import { errors, json, router, NOT_MODIFIED } from '../openapi/route.ts';

const getSubtitles = createRoute({
  method: 'get',
  path: '/tools/subtitles',
  operationId: 'getSubtitles',
  summary: 'Indexed media without sidecar subtitles',
  tags: ['tools'],
  request: {
    query: z.object({
      language: z.string().min(1).optional().meta({
        description: 'A language code or name (en, eng, English, pt-BR): list media lacking a subtitle in that language rather than any subtitle',
      }),
    }),
  },
  responses: { ...NOT_MODIFIED, 200: json(subtitlesResponse), ...errors({ 400: 'language is not a language code or name' }) },
});

const getDuplicates = createRoute({
  method: 'get',
  path: '/tools/duplicates',
  operationId: 'getDuplicates',
  summary: 'Duplicate movies and series in the index',
  tags: ['tools'],
  responses: { ...NOT_MODIFIED, 200: json(duplicatesResponse) },
});

/** GET /api/tools/subtitles and GET /api/tools/duplicates, computed once per index (and the config they depend on). */
export function toolRoutes({ config, library }: AppDeps) {
  return router()
    .openapi(getSubtitles, async (c) => {
      const raw = c.req.valid('query').language;
      const language = raw === undefined ? null : normalizeLanguage(raw);
      if (raw !== undefined && language === null) {
        throw new AppError('bad_request', `language: "${raw}" is not a language code or name`, { key: 'language' });
      }
      const exts = config.current().library.subtitle_extensions;
      const coverage = () => subtitleCoverageAccumulator({ subtitleExtensions: exts });
      // A language no sidecar is in leaves every file missing, whichever it is: one memo for all
      // of them keeps the memos as few as the languages in the library. Without a language the
      // languages are not needed (each is a pass over the whole index).
      let variant = '';
      if (language !== null) {
        const languages = await library.derive(
          `tools.subtitles.languages|${exts.join(',')}`,
          accumulate(coverage, (acc) => acc.coverage().languages),
        );
        variant = languages.has(language) ? language : '(absent)';
      }
      const body = await library.derive(
        `tools.subtitles|${exts.join(',')}|${variant}`,
        accumulate(coverage, (acc, header) =>
          cacheStreamedJson<z.infer<typeof subtitlesResponse>>({
            scanned_at: header?.scanned_at ?? null,
            ...subtitleAudit(acc.coverage(), variant === '' ? null : language),
          }),
        ),
      );
      return sendJson(c, body);
    })
    .openapi(getDuplicates, async (c) =>
      sendJson(
        c,
        await library.derive(
          'tools.duplicates',
          accumulate(duplicateAccumulator, (acc, header) => cacheJson({ scanned_at: header?.scanned_at ?? null, ...acc.report() })),
        ),
      ),
    );
}
