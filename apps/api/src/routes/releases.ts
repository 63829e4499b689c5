import { createRoute, type z } from '@hono/zod-openapi';
import { releasesResponse } from '@mo/shared';
import { accumulate } from '@mo/core';
import { createTvmazeProvider, libraryReleases, type ProviderAnswer, seriesAccumulator, type TvmazeProviderOptions, utcToday } from '@mo/core/releases';
import type { AppDeps } from '../http/env.ts';
import { cacheJson, sendJson, type CachedJson } from '../http/cached-json.ts';
import { json, router, NOT_MODIFIED } from '../openapi/route.ts';

const getReleases = createRoute({
  method: 'get',
  path: '/releases',
  operationId: 'getReleases',
  summary: 'Missing and upcoming episodes',
  tags: ['library'],
  description: "The library's own gaps first, then one block per enabled provider; a provider's failures are in `providers`, not an error.",
  responses: { ...NOT_MODIFIED, 200: json(releasesResponse) },
});

/**
 * GET /api/releases: the library's own gaps and .nfo dates, computed once per index, config and
 * day; then one block per enabled provider, whose failures are reported in `providers` rather
 * than failing the answer. A disabled provider makes no request at all.
 */
export function releasesRoutes({ config, library }: AppDeps, opts: { tvmaze?: Partial<TvmazeProviderOptions> } = {}) {
  const tvmaze = createTvmazeProvider(opts.tvmaze);
  let last: { own: object; answer: ProviderAnswer | null; body: CachedJson<z.output<typeof releasesResponse>> } | undefined;

  return router().openapi(getReleases, async (c) => {
    const cfg = config.current();
    const today = utcToday();
    const { read_nfo: readNfo, include_specials: includeSpecials } = cfg.metadata;
    const own = await library.derive(
      `releases|nfo=${readNfo}|specials=${includeSpecials}|${today}`,
      accumulate(
        () => seriesAccumulator({ readNfo }),
        (acc, header) => {
          const series = acc.series();
          return { scanned_at: header?.scanned_at ?? null, series, releases: libraryReleases(series, { includeSpecials, today }) };
        },
      ),
    );
    const { enabled, url, allow_private: allowPrivate } = cfg.release_providers.tvmaze;
    const answer = enabled ? await tvmaze.releases(url, own.series, today, { allowPrivate }) : null;
    // Serialised again only when the index, the config, the day or the provider's answer changed.
    if (last?.own !== own || last.answer !== answer) {
      const releases = answer ? [...own.releases, ...answer.releases] : own.releases;
      last = { own, answer, body: cacheJson({ scanned_at: own.scanned_at, releases, providers: answer ? [answer.status] : [] }) };
    }
    return sendJson(c, last.body);
  });
}
