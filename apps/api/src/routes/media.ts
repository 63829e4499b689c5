import { randomBytes } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { guardMediaPath, mediaRoots } from '@mo/core/fs';
import { checkTrackRequest, probeFile, remuxMuxer, trackCommand, workTempPath } from '@mo/core/media';
import { jobAcceptedResponse, probeResponse, trackActionSchema, type Config } from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { runJob } from '../http/jobs.ts';
import { body, errors, JOB_ERRORS, json, router, waitQuery } from '../openapi/route.ts';
import { tracksAnswer } from '../openapi/schemas.ts';

function guard(path: unknown, cfg: Config) {
  return guardMediaPath(path, { roots: mediaRoots(cfg), extensions: cfg.library.video_extensions });
}

const absolutePath = z.string().regex(/^\/[^\0]*$/, 'must be an absolute path without NUL bytes');

const probeMedia = createRoute({
  method: 'get',
  path: '/media/probe',
  operationId: 'getMediaProbe',
  summary: 'Streams of one media file (ffprobe)',
  tags: ['media'],
  request: { query: z.object({ path: absolutePath.meta({ description: 'Absolute path under the downloads folder or a drive' }) }) },
  responses: {
    200: json(probeResponse),
    ...errors({
      400: 'no path, a relative one, a NUL byte, or not a media file',
      403: 'the path resolves outside the downloads folder and the drives',
      404: 'no such file',
    }),
  },
});

const setTracks = createRoute({
  method: 'post',
  path: '/media/tracks',
  operationId: 'postMediaTracks',
  summary: 'Set a default track or remove one (ffmpeg remux)',
  tags: ['media'],
  description:
    'With dry_run on, answers the ffmpeg command and touches nothing; off, a media job whose result lists the streams after. With `library.recycle_bin` on, the file as it was is kept in its drive’s recycle bin (`original_recycled_to`); a bin that cannot take it (another filesystem, no hard links) fails the job with a conflict and the file stays as it was.',
  request: { query: waitQuery, body: body(trackActionSchema) },
  responses: {
    200: json(tracksAnswer),
    202: json(jobAcceptedResponse, 'Accepted: the job runs on; follow status_url'),
    ...errors({
      ...JOB_ERRORS,
      400: `the body, or the stream is not an audio or subtitle stream of the file; ${JOB_ERRORS[400]}`,
      403: 'the path resolves outside the downloads folder and the drives',
      404: 'no such file, or it went away before the job ran',
      409: 'the file changed between the request and the job, or the recycle bin cannot keep it; nothing was done',
    }),
  },
});

export function mediaRoutes({ config, jobs }: AppDeps) {
  return router()
    .openapi(probeMedia, async (c) => {
      const file = await guard(c.req.valid('query').path, config.current());
      const { container, duration_seconds, size_bytes, streams } = await probeFile(file.real);
      return c.json({ path: file.requested, container, duration_seconds, size_bytes, streams }, 200);
    })
    .openapi(setTracks, async (c) => {
      const req = c.req.valid('json');
      const cfg = config.current();
      const file = await guard(req.path, cfg);
      const muxer = remuxMuxer(file.real);
      // Probed here so that a wrong stream is a 400 now, not a failed job later.
      const probe = await probeFile(file.real);
      checkTrackRequest(probe.streams, req, muxer);
      if (cfg.app.dry_run) {
        // The temp name a worker would pick; its random part differs from run to run.
        const temp = workTempPath(file.real, 'remux', randomBytes(6).toString('hex'));
        return c.json({ dry_run: true as const, path: file.requested, command: trackCommand(probe, req, file.real, temp, muxer) }, 200);
      }
      return runJob(c, jobs, 'media-tracks', { ...req, path: file.requested, before: probe.streams }, { wait: c.req.valid('query').wait });
    });
}
