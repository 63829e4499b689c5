import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { validationError } from '@mo/core';
import { guardMediaPath, mediaRoots } from '@mo/core/fs/path-guard.ts';
import { remuxMuxer } from '@mo/core/media/remux.ts';
import { probeFile } from '@mo/core/media/run.ts';
import { checkTrackRequest, trackCommand } from '@mo/core/media/track-command.ts';
import { workTempPath } from '@mo/core/media/work-journal.ts';
import { trackActionSchema, type Config } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { jsonBody } from '../http/body.ts';
import { runJob } from '../http/jobs.ts';

function guard(path: unknown, cfg: Config) {
  return guardMediaPath(path, { roots: mediaRoots(cfg), extensions: cfg.library.video_extensions });
}

export function mediaRoutes({ config, jobs }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/media/probe', async (c) => {
      const file = await guard(c.req.query('path'), config.current());
      const { container, duration_seconds, size_bytes, streams } = await probeFile(file.real);
      return c.json({ path: file.requested, container, duration_seconds, size_bytes, streams });
    })
    .post('/media/tracks', async (c) => {
      const parsed = trackActionSchema.safeParse(await jsonBody(c));
      if (!parsed.success) throw validationError(parsed.error);
      const req = parsed.data;
      const cfg = config.current();
      const file = await guard(req.path, cfg);
      const muxer = remuxMuxer(file.real);
      // Probed here so that a wrong stream is a 400 now, not a failed job later.
      const probe = await probeFile(file.real);
      checkTrackRequest(probe.streams, req, muxer);
      if (cfg.app.dry_run) {
        // The temp name a worker would pick; its random part differs from run to run.
        const temp = workTempPath(file.real, 'remux', randomBytes(6).toString('hex'));
        return c.json({ dry_run: true, path: file.requested, command: trackCommand(probe, req, file.real, temp, muxer) });
      }
      return runJob(c, jobs, 'media-tracks', { ...req, path: file.requested, before: probe.streams });
    });
}
