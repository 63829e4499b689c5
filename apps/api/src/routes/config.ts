import { createRoute, type Hook, type z } from '@hono/zod-openapi';
import { AppError, guardSettingsPatch, keyIssues, publicConfig, refuseFileOnlyKeys, settingsPatchFromBody, type KeyIssue } from '@mo/core';
import { FLAT_APP_KEYS, publicConfigResponse, RUNTIME_SECTIONS, settingsResponse, settingsSentence, type Config, type SettingsPatch } from '@mo/shared';
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
    ...errors({
      400: 'an unknown key, a wrong type or a refused value (a path outside app.allowed_roots included); details.key names the first, details.issues lists each with its sentence',
    }),
  },
});

const flatKeys = new Set<string>(FLAT_APP_KEYS);

/** A legacy flat key is the app section's: a refusal names it where it is kept, `app.<key>`. */
const keptAt = (path: string) => (flatKeys.has(path.split('.')[0]!) ? `app.${path}` : path);

/**
 * Every issue of a settings refusal carries the sentence the Settings page shows beside its field
 * (beyond CONTRACT.md, listed in the README). A rule that refuses one key (`details.key` alone)
 * becomes one issue; a rule's own words follow the field's label.
 */
function spoken(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== 'bad_request') return err;
  const details = (err.details ?? {}) as { key?: string; issues?: KeyIssue[] };
  const one: KeyIssue[] = details.key === undefined ? [] : [{ path: details.key, message: err.message.replace(`${details.key}: `, '') }];
  const issues = (details.issues ?? one).map((i) => ({ ...i, sentence: i.sentence ?? settingsSentence(i.path, { code: 'custom', message: i.message }) }));
  return issues.length === 0 ? err : new AppError('bad_request', err.message, { ...details, issues });
}

const refuseSettings: Hook<unknown, AppEnv, string, undefined> = (result) => {
  if (result.success) return;
  try {
    // The document leaves out the keys only the config file sets: one sent anyway is told so, by name.
    // The validator hands the body it refused to the hook as `data`, though its type does not say so.
    refuseFileOnlyKeys((result as { data?: unknown }).data);
  } catch (err) {
    throw spoken(err);
  }
  const issues = keyIssues(result.error, [], (path, issue) => settingsSentence(keptAt(path), issue)).map((i) => ({ ...i, path: keptAt(i.path) }));
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
        const body: unknown = await c.req.json();
        let patch: SettingsPatch;
        try {
          patch = settingsPatchFromBody(body);
          // Checked here, not in updateSettings: these rules are about what a client may ask for.
          await guardSettingsPatch(patch, { fileConfig: config.fileConfig, current: config.current() });
        } catch (err) {
          throw spoken(err);
        }
        const next = await config.updateSettings(patch);
        logger.info({ keys: Object.keys(patch) }, 'settings changed');
        return c.json({ settings: publicSettings(next) }, 200);
      },
      refuseSettings,
    );
}
