import { z } from 'zod';
import {
  dashboardResponse,
  downloadsResponse,
  duplicatesResponse,
  errorBodySchema,
  FLAT_APP_KEYS,
  healthResponse,
  jobAcceptedResponse,
  jobViewResponse,
  libraryResponse,
  libraryScanResponse,
  probeResponse,
  publicConfigResponse,
  QUEUE_NAMES,
  readyResponse,
  releasesResponse,
  runNextResponse,
  scanResponse,
  settingsPatchSchema,
  settingsResponse,
  subtitlesResponse,
  tracksDryRunResponse,
  tracksResultResponse,
  trackActionSchema,
  transcoderResponse,
  transcodeCancelResponse,
  transcodeRetryBody,
  transcodeRetryResponse,
  appSection,
  authApiKeyBody,
  authApiKeyResponse,
  authLoginBody,
  authLogoutResponse,
  authPasswordBody,
  authSessionResponse,
  authSetupBody,
  authStatusResponse,
} from '@mo/shared';
import { MAX_WAIT_SECONDS } from '../http/jobs.ts';

type Method = 'get' | 'post';

export interface RouteDoc {
  method: Method;
  /** OpenAPI form: `{param}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: { name: string; in: 'query' | 'path'; required: boolean; schema: z.ZodType; description: string }[];
  body?: z.ZodType;
  /** Status → schema, or a media type for non-JSON answers. */
  responses: Record<number, z.ZodType | { mediaType: string; description: string }>;
  open?: boolean;
}

const waitParam = {
  name: 'wait',
  in: 'query' as const,
  required: false,
  schema: z.number().min(0).max(MAX_WAIT_SECONDS).default(30),
  description: 'Seconds to wait for the job (0 = answer 202 at once).',
};

/** The body of POST /api/settings: sections nested, or the legacy flat app keys, or both. */
const settingsBody = settingsPatchSchema.extend(
  Object.fromEntries(FLAT_APP_KEYS.map((k) => [k, appSection.shape[k].optional()])) as {
    [K in (typeof FLAT_APP_KEYS)[number]]: z.ZodOptional<(typeof appSection.shape)[K]>;
  },
);

const jobErrors = { 400: errorBodySchema, 500: errorBodySchema, 503: errorBodySchema };

export const ROUTES: RouteDoc[] = [
  { method: 'get', path: '/api/health', summary: 'Liveness', tags: ['service'], responses: { 200: healthResponse }, open: true },
  {
    method: 'get', path: '/api/ready', summary: 'Readiness: is Redis reachable', tags: ['service'], open: true,
    responses: { 200: readyResponse, 503: readyResponse },
  },
  {
    method: 'get', path: '/setup', summary: 'The page the set-up link printed at start opens', tags: ['auth'], open: true,
    params: [{ name: 'token', in: 'query', required: false, schema: z.string(), description: 'The one-time set-up token' }],
    responses: { 200: { mediaType: 'text/html', description: 'A form that posts to /api/auth/setup; no data.' } },
  },
  {
    method: 'get', path: '/api/auth/status', summary: 'Is there an owner, and who is asking', tags: ['auth'], open: true,
    responses: { 200: authStatusResponse },
  },
  {
    method: 'post', path: '/api/auth/setup', summary: 'Create the owner account once, with the set-up token printed at start', tags: ['auth'], open: true,
    description: 'Answers with the session cookie mo_session (HttpOnly, SameSite=Strict). 409 once an owner exists.',
    body: authSetupBody, responses: { 201: authSessionResponse, 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
  },
  {
    method: 'post', path: '/api/auth/login', summary: "Log in as the owner: sets the session cookie", tags: ['auth'], open: true,
    body: authLoginBody, responses: { 200: authSessionResponse, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
  },
  {
    method: 'post', path: '/api/auth/logout', summary: 'End this session', tags: ['auth'], open: true,
    responses: { 200: authLogoutResponse },
  },
  {
    method: 'post', path: '/api/auth/password', summary: 'Change the owner password; every session ends, this client gets a new one', tags: ['auth'], open: true,
    body: authPasswordBody, responses: { 200: authSessionResponse, 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
  },
  {
    method: 'post', path: '/api/auth/api-key', summary: 'Show the API key, or replace the generated one (regenerate: true)', tags: ['auth'], open: true,
    description: 'Needs the owner password. A key set in the config file (app.api_key) wins and cannot be regenerated here (409).',
    body: authApiKeyBody, responses: { 200: authApiKeyResponse, 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
  },
  { method: 'get', path: '/api/config', summary: 'Effective configuration without secrets', tags: ['settings'], responses: { 200: publicConfigResponse } },
  {
    method: 'post', path: '/api/settings', summary: 'Change runtime settings',
    description: 'Nested sections, legacy flat app keys, or both. Saved in <paths.data>/state.json; an unknown key or wrong type is a 400 naming it and saves nothing.',
    tags: ['settings'], body: settingsBody, responses: { 200: settingsResponse, 400: errorBodySchema, 413: errorBodySchema },
  },
  {
    method: 'get', path: '/api/theme/custom.css', summary: 'The host-edited stylesheet', tags: ['service'], open: true,
    responses: { 200: { mediaType: 'text/css', description: 'The stylesheet (empty when missing); ETag, answers If-None-Match with 304.' } },
  },
  {
    method: 'get', path: '/api/jobs/{queue}/{id}', summary: 'A job and its result', tags: ['jobs'],
    params: [
      { name: 'queue', in: 'path', required: true, schema: z.enum(QUEUE_NAMES), description: 'Queue name' },
      { name: 'id', in: 'path', required: true, schema: z.string(), description: 'Job id' },
    ],
    responses: { 200: jobViewResponse, 404: errorBodySchema, 503: errorBodySchema },
  },
  {
    method: 'post', path: '/api/scan', summary: 'Run one scanner pass', tags: ['scanner'], params: [waitParam],
    description: 'With dry_run on, only records plans. Joins a pass that is already waiting or running.',
    responses: { 200: scanResponse, 202: jobAcceptedResponse, ...jobErrors },
  },
  {
    method: 'post', path: '/api/library/scan', summary: 'Refresh the cached library index', tags: ['library'], params: [waitParam],
    responses: { 200: libraryScanResponse, 202: jobAcceptedResponse, ...jobErrors },
  },
  { method: 'get', path: '/api/library', summary: 'Cached library summary, movies and series', tags: ['library'], responses: { 200: libraryResponse } },
  { method: 'get', path: '/api/dashboard', summary: 'State, drive usage and cached library figures', tags: ['library'], responses: { 200: dashboardResponse } },
  { method: 'get', path: '/api/downloads', summary: 'Files under the downloads folder and recent plans and moves', tags: ['scanner'], responses: { 200: downloadsResponse } },
  { method: 'get', path: '/api/releases', summary: 'Missing and upcoming episodes', tags: ['library'], responses: { 200: releasesResponse } },
  {
    method: 'get', path: '/api/media/probe', summary: 'Streams of one media file (ffprobe)', tags: ['media'],
    params: [{ name: 'path', in: 'query', required: true, schema: z.string(), description: 'Absolute path under the downloads folder or a drive' }],
    responses: { 200: probeResponse, 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
  },
  {
    method: 'post', path: '/api/media/tracks', summary: 'Set a default track or remove one (ffmpeg remux)', tags: ['media'],
    params: [waitParam], body: trackActionSchema,
    responses: { 200: z.union([tracksDryRunResponse, tracksResultResponse]), 202: jobAcceptedResponse, 403: errorBodySchema, 404: errorBodySchema, ...jobErrors },
  },
  { method: 'get', path: '/api/tools/subtitles', summary: 'Indexed media without sidecar subtitles', tags: ['tools'], responses: { 200: subtitlesResponse } },
  { method: 'get', path: '/api/tools/transcoder', summary: 'Transcode queue: indexed video that is not .mp4', tags: ['tools'], responses: { 200: transcoderResponse } },
  {
    method: 'post', path: '/api/tools/transcoder/run-next', summary: 'Run the next queued transcode', tags: ['tools'],
    responses: { 200: runNextResponse, 202: runNextResponse, ...jobErrors },
  },
  {
    method: 'post', path: '/api/tools/transcoder/retry', summary: 'Queue a failed transcode again', tags: ['tools'],
    description: 'A failed entry goes back to `queued`, for `run-next` to take in its turn; a queued one stays queued.',
    body: transcodeRetryBody,
    responses: { 200: transcodeRetryResponse, 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
  },
  {
    method: 'post', path: '/api/jobs/transcode/{id}/cancel', summary: 'Cancel a transcode wherever it runs', tags: ['tools'],
    params: [{ name: 'id', in: 'path', required: true, schema: z.string(), description: 'Job id' }],
    responses: { 202: transcodeCancelResponse, 404: errorBodySchema, 409: errorBodySchema, 503: errorBodySchema },
  },
  { method: 'get', path: '/api/tools/duplicates', summary: 'Duplicate movies and series in the index', tags: ['tools'], responses: { 200: duplicatesResponse } },
  {
    method: 'get', path: '/api/events', summary: 'Live events (Server-Sent Events)', tags: ['service'],
    description:
      'One stream per tab. First a `snapshot` (active jobs with progress, `redis` up or not, the settings version, the library index version and time), ' +
      'then `job` ({queue, id, name, state: active|progress|completed|failed, progress?, error?, error_code?}; progress at most about once a second per job), ' +
      '`settings` ({version, sections}), `library` ({version, scanned_at}) and `transcode` ({changed: [{path, entry}]}); each `data` is JSON. ' +
      'A comment every 15 s keeps it open. Missed events are not replayed: re-fetch after each snapshot.',
    responses: { 200: { mediaType: 'text/event-stream', description: 'An event stream that stays open' } },
  },
  {
    method: 'get', path: '/api/metrics', summary: 'Prometheus metrics', tags: ['operations'],
    responses: { 200: { mediaType: 'text/plain', description: 'Prometheus text exposition format' } },
  },
  {
    method: 'get', path: '/api/openapi.json', summary: 'This document', tags: ['operations'],
    responses: { 200: { mediaType: 'application/json', description: 'OpenAPI 3.1 document' } },
  },
  {
    method: 'get', path: '/api/docs', summary: 'API reference page', tags: ['operations'],
    responses: { 200: { mediaType: 'text/html', description: 'HTML page' } },
  },
  {
    method: 'get', path: '/api/admin/queues', summary: 'Queue dashboard (Bull Board)', tags: ['operations'],
    description: 'Open once with ?api_key= when a key is set; the page then keeps it as a cookie.',
    responses: { 200: { mediaType: 'text/html', description: 'HTML page' } },
  },
];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): object {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12 already; the per-schema $schema line is noise.
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  return rest;
}

function isZod(x: unknown): x is z.ZodType {
  return x instanceof z.ZodType;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 202: 'Accepted: the job runs on; follow status_url', 304: 'Not modified', 400: 'Bad request', 401: 'Unauthorized',
  403: 'Outside the allowed roots', 404: 'Not found', 409: 'Conflict', 413: 'Body over 1 MiB', 500: 'Internal error', 503: 'Redis or the queue is unavailable',
};

export function openApiDocument(): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of ROUTES) {
    const responses: Record<string, object> = {};
    for (const [status, res] of Object.entries(r.responses)) {
      const description = STATUS_TEXT[Number(status)] ?? 'Response';
      responses[status] = isZod(res)
        ? { description, content: { 'application/json': { schema: jsonSchema(res, 'output') } } }
        : { description: res.description, content: { [res.mediaType]: {} } };
    }
    if (!r.open) responses['401'] ??= { description: STATUS_TEXT[401], content: { 'application/json': { schema: jsonSchema(errorBodySchema, 'output') } } };
    (paths[r.path] ??= {})[r.method] = {
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: r.tags,
      ...(r.open ? { security: [] } : {}),
      ...(r.params
        ? {
            parameters: r.params.map((p) => ({
              name: p.name, in: p.in, required: p.required, description: p.description, schema: jsonSchema(p.schema, 'input'),
            })),
          }
        : {}),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'media-organizer',
      version: '1.0.0',
      description: 'Organizes a home media library: scanner, cached library index, media tracks, tools and runtime settings.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        session: { type: 'apiKey', in: 'cookie', name: 'mo_session' },
      },
    },
    security: [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }, { session: [] }],
    paths,
  };
}
