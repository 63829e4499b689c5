import { createRoute, type Hook, type z } from '@hono/zod-openapi';
import { guardSettingsPatch, keyIssues, publicConfig, refuseFileOnlyKeys, settingsPatchFromBody } from '@mo/core';
import { FLAT_APP_KEYS, publicConfigResponse, RUNTIME_SECTIONS, settingsResponse, type Config } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { body, errors, json, refusal, router } from '../openapi/route.ts';
import { settingsBody } from '../openapi/schemas.ts';

function publicSettings(config: Config) {
  const pub = publicConfig(config);
  return Object.fromEntries(RUNTIME_SECTIONS.map((s) => [s, pub[s]]));
}

const getConfig = createRoute({
  method: 'get',
  path: '/config',
  operationId: 'getConfig',
  summary: 'Effective configuration without secrets',
  tags: ['settings'],
  responses: { 200: json(publicConfigResponse) },
});

const postSettings = createRoute({
  method: 'post',
  path: '/settings',
  operationId: 'postSettings',
  summary: 'Change runtime settings',
  tags: ['settings'],
  description:
    'Nested sections, legacy flat app keys, or both. Saved in <paths.data>/state.json; an unknown key or wrong type is a 400 naming it and saves nothing.',
  request: { body: body(settingsBody) },
  responses: {
    200: json(settingsResponse),
    ...errors({ 400: 'an unknown key, a wrong type or a refused value (a path outside app.allowed_roots included); details.key names it' }),
  },
});

const flatKeys = new Set<string>(FLAT_APP_KEYS);

/** A legacy flat key is the app section's: a refusal names it where it is kept, `app.<key>`. */
const refuseSettings: Hook<unknown, AppEnv, string, undefined> = (result) => {
  if (result.success) return;
  // The document leaves out the keys only the config file sets: one sent anyway is told so, by name.
  // The validator hands the body it refused to the hook as `data`, though its type does not say so.
  refuseFileOnlyKeys((result as { data?: unknown }).data);
  const issues = keyIssues(result.error).map((i) => (flatKeys.has(i.path.split('.')[0]!) ? { ...i, path: `app.${i.path}` } : i));
  throw refusal(issues);
};

export function configRoutes({ config, logger }: AppDeps) {
  return router()
    .openapi(getConfig, (c) =>
      // publicConfig is the config minus its secrets, which the schema describes key by key.
      c.json(publicConfig(config.current()) as z.output<typeof publicConfigResponse>, 200),
    )
    .openapi(
      postSettings,
      async (c) => {
        // The schema has checked the shape; the patch is made from the body as sent, so that only the
        // keys the client named change (a parsed copy would carry the schema's defaults).
        const patch = settingsPatchFromBody(await c.req.json());
        // Checked here, not in updateSettings: these rules are about what a client may ask for.
        await guardSettingsPatch(patch, { fileConfig: config.fileConfig, current: config.current() });
        const next = await config.updateSettings(patch);
        logger.info({ keys: Object.keys(patch) }, 'settings changed');
        return c.json({ settings: publicSettings(next) }, 200);
      },
      refuseSettings,
    );
}
