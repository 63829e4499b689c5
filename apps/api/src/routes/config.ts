import { Hono } from 'hono';
import { guardSettingsPatch, publicConfig, settingsPatchFromBody } from '@mo/core';
import { RUNTIME_SECTIONS, type Config } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { jsonBody } from '../http/body.ts';

function publicSettings(config: Config) {
  const pub = publicConfig(config);
  return Object.fromEntries(RUNTIME_SECTIONS.map((s) => [s, pub[s]]));
}

export function configRoutes({ config, logger }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/config', (c) => c.json(publicConfig(config.current())))
    .post('/settings', async (c) => {
      const patch = settingsPatchFromBody(await jsonBody(c));
      // Checked here, not in updateSettings: these rules are about what a client may ask for.
      await guardSettingsPatch(patch, { fileConfig: config.fileConfig });
      const next = await config.updateSettings(patch);
      logger.info({ keys: Object.keys(patch) }, 'settings changed');
      return c.json({ settings: publicSettings(next) });
    });
}
