import { z } from 'zod';
import {
  appSection,
  authApiKeyBody,
  authApiKeyResponse,
  authLoginBody,
  authLogoutResponse,
  authPasswordBody,
  authSessionResponse,
  authSetupBody,
  authStatusResponse,
  dashboardResponse,
  downloadFileSchema,
  downloadsResponse,
  droppedStreamSchema,
  duplicatesResponse,
  errorBodySchema,
  FLAT_APP_KEYS,
  healthResponse,
  jobAcceptedResponse,
  jobRefSchema,
  jobViewResponse,
  librarySummarySchema,
  libraryResponse,
  libraryFilesResponse,
  libraryScanResponse,
  moveSchema,
  planSchema,
  probeResponse,
  providerStatusSchema,
  publicConfigResponse,
  QUEUE_NAMES,
  readyResponse,
  releaseSchema,
  releasesResponse,
  runNextDryRunResponse,
  runNextNothingResponse,
  runNextStartedResponse,
  scanResponse,
  settingsPatchSchema,
  settingsResponse,
  skippedSchema,
  streamSchema,
  subtitlesResponse,
  trackActionSchema,
  tracksDryRunResponse,
  tracksResultResponse,
  transcodeCancelResponse,
  transcodeItemSchema,
  transcoderResponse,
  transcodeRetryBody,
  transcodeRetryResponse,
  workerSchema,
  workersResponse,
} from '@mo/shared';
import { MAX_WAIT_SECONDS } from '../http/jobs.ts';

type Method = 'get' | 'post';

/** The error statuses a route's own handler answers (the middleware's are added for every route by rule). */
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 503;

export interface RouteDoc {
  method: Method;
  /** OpenAPI form: `{param}`. */
  path: string;
  /** Stable and unique: generated clients name their functions after it. */
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: { name: string; in: 'query' | 'path'; required: boolean; schema: z.ZodType; description: string }[];
  /** A schema named in REQUEST_SCHEMAS. */
  body?: z.ZodType;
  /** Status → a schema named in RESPONSE_SCHEMAS, or a media type for non-JSON answers (none: no body). */
  responses: Record<number, z.ZodType | { mediaType?: string; description: string }>;
  /** The error statuses the handler answers, with why; each answers the error body. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Needs no key or session. */
  open?: boolean;
}

const waitParam = {
  name: 'wait',
  in: 'query' as const,
  required: false,
  schema: z.number().min(0).max(MAX_WAIT_SECONDS).default(30),
  description: 'Seconds to wait for the job (0 = answer 202 at once).',
};

// A path parameter is one non-empty segment: an empty or slashed one reaches no route.
const segment = z.string().regex(/^[^/]+$/);

/** The body of POST /api/settings: sections nested, or the legacy flat app keys, or both. */
const settingsBody = settingsPatchSchema.extend(
  Object.fromEntries(FLAT_APP_KEYS.map((k) => [k, appSection.shape[k].optional()])) as {
    [K in (typeof FLAT_APP_KEYS)[number]]: z.ZodOptional<(typeof appSection.shape)[K]>;
  },
);

const tracksAnswer = z.union([tracksDryRunResponse, tracksResultResponse]);
const runNextAnswer = z.union([runNextNothingResponse, runNextDryRunResponse]);

/**
 * Every JSON body named, so that `components.schemas` holds each once and generated clients get a
 * type per name. Answers are described as sent (output); request bodies as accepted (input).
 */
const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  ErrorBody: errorBodySchema,
  Health: healthResponse,
  Ready: readyResponse,
  AuthStatus: authStatusResponse,
  AuthSession: authSessionResponse,
  AuthLogout: authLogoutResponse,
  AuthApiKey: authApiKeyResponse,
  PublicConfig: publicConfigResponse,
  Settings: settingsResponse,
  JobRef: jobRefSchema,
  JobAccepted: jobAcceptedResponse,
  Job: jobViewResponse,
  Plan: planSchema,
  Move: moveSchema,
  Skipped: skippedSchema,
  ScanResult: scanResponse,
  LibrarySummary: librarySummarySchema,
  LibraryScanResult: libraryScanResponse,
  Library: libraryResponse,
  LibraryFiles: libraryFilesResponse,
  Dashboard: dashboardResponse,
  DownloadFile: downloadFileSchema,
  Downloads: downloadsResponse,
  Release: releaseSchema,
  ProviderStatus: providerStatusSchema,
  Releases: releasesResponse,
  Stream: streamSchema,
  Probe: probeResponse,
  TracksDryRun: tracksDryRunResponse,
  TracksResult: tracksResultResponse,
  TracksAnswer: tracksAnswer,
  Subtitles: subtitlesResponse,
  TranscodeItem: transcodeItemSchema,
  Transcoder: transcoderResponse,
  DroppedStream: droppedStreamSchema,
  RunNextNothing: runNextNothingResponse,
  RunNextDryRun: runNextDryRunResponse,
  RunNextAnswer: runNextAnswer,
  RunNextStarted: runNextStartedResponse,
  TranscodeRetryResult: transcodeRetryResponse,
  TranscodeCancel: transcodeCancelResponse,
  Duplicates: duplicatesResponse,
  Worker: workerSchema,
  Workers: workersResponse,
};

const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  SettingsPatch: settingsBody,
  TrackAction: trackActionSchema,
  TranscodeRetryRequest: transcodeRetryBody,
  AuthSetupRequest: authSetupBody,
  AuthLoginRequest: authLoginBody,
  AuthPasswordRequest: authPasswordBody,
  AuthApiKeyRequest: authApiKeyBody,
};

/** What a job-backed POST answers when its job failed in the worker: the failure's own code. */
const jobFailed = 'the job failed on its input (the code the worker gave: bad_request, forbidden, not_found or conflict; details name the job)';
const jobErrors = {
  400: `wait is not a number from 0 to ${MAX_WAIT_SECONDS}; or ${jobFailed}`,
  403: jobFailed,
  404: jobFailed,
  409: jobFailed,
  503: 'Redis or the queue cannot be reached',
} satisfies RouteDoc['errors'];

const authFailures = { 429: 'too many wrong set-up tokens, passwords or keys from this address; Retry-After says when to try again' };

export const ROUTES: RouteDoc[] = [
  {
    method: 'get', path: '/api/health', operationId: 'getHealth', summary: 'Liveness', tags: ['service'], open: true,
    responses: { 200: healthResponse },
  },
  {
    method: 'get', path: '/api/ready', operationId: 'getReady', summary: 'Readiness: is Redis reachable', tags: ['service'], open: true,
    responses: { 200: readyResponse, 503: readyResponse },
  },
  {
    method: 'get', path: '/setup', operationId: 'getSetupPage', summary: 'The page the set-up link printed at start opens', tags: ['auth'], open: true,
    params: [{ name: 'token', in: 'query', required: false, schema: z.string(), description: 'The one-time set-up token (read by the page, not the server)' }],
    responses: { 200: { mediaType: 'text/html', description: 'A form that posts to /api/auth/setup; no data.' } },
  },
  {
    method: 'get', path: '/api/auth/status', operationId: 'getAuthStatus', summary: 'Is there an owner, and who is asking', tags: ['auth'], open: true,
    responses: { 200: authStatusResponse },
  },
  {
    method: 'post', path: '/api/auth/setup', operationId: 'postAuthSetup', summary: 'Create the owner account once, with the set-up token printed at start', tags: ['auth'], open: true,
    description: 'Answers with the session cookie mo_session (HttpOnly, SameSite=Strict).',
    body: authSetupBody, responses: { 201: authSessionResponse },
    errors: { 400: 'user name (1 to 64 characters) or password (10 to 1024) refused', 401: 'the set-up token is not right', 409: 'an owner exists already', ...authFailures },
  },
  {
    method: 'post', path: '/api/auth/login', operationId: 'postAuthLogin', summary: 'Log in as the owner: sets the session cookie', tags: ['auth'], open: true,
    body: authLoginBody, responses: { 200: authSessionResponse },
    errors: { 400: 'the body is not a user name and password', 401: 'the user name or password is not right', ...authFailures },
  },
  {
    method: 'post', path: '/api/auth/logout', operationId: 'postAuthLogout', summary: 'End this session', tags: ['auth'], open: true,
    responses: { 200: authLogoutResponse },
  },
  {
    method: 'post', path: '/api/auth/password', operationId: 'postAuthPassword', summary: 'Change the owner password; every session ends, this client gets a new one', tags: ['auth'], open: true,
    body: authPasswordBody, responses: { 200: authSessionResponse },
    errors: { 400: 'the new password is refused (10 to 1024 characters)', 401: 'the current password is not right', 409: 'no owner account exists yet', ...authFailures },
  },
  {
    method: 'post', path: '/api/auth/api-key', operationId: 'postAuthApiKey', summary: 'Show the API key, or replace the generated one (regenerate: true)', tags: ['auth'], open: true,
    description: 'Needs the owner password. A key set in the config file (app.api_key) wins and cannot be regenerated here.',
    body: authApiKeyBody, responses: { 200: authApiKeyResponse },
    errors: { 400: 'the body is not a password (and regenerate)', 401: 'the password is not right', 409: 'no owner account exists yet, or app.api_key is set in the config file', ...authFailures },
  },
  {
    method: 'get', path: '/api/config', operationId: 'getConfig', summary: 'Effective configuration without secrets', tags: ['settings'],
    responses: { 200: publicConfigResponse },
  },
  {
    method: 'post', path: '/api/settings', operationId: 'postSettings', summary: 'Change runtime settings', tags: ['settings'],
    description: 'Nested sections, legacy flat app keys, or both. Saved in <paths.data>/state.json; an unknown key or wrong type is a 400 naming it and saves nothing.',
    body: settingsBody, responses: { 200: settingsResponse },
    errors: { 400: 'an unknown key, a wrong type or a refused value (a path outside app.allowed_roots included); details.key names it' },
  },
  {
    method: 'get', path: '/api/theme/custom.css', operationId: 'getThemeCss', summary: 'The host-edited stylesheet', tags: ['service'], open: true,
    responses: {
      200: { mediaType: 'text/css', description: 'The stylesheet (empty when missing), with an ETag.' },
      304: { description: 'Not modified: If-None-Match names the current ETag.' },
    },
    errors: { 403: 'theme.css_file resolves outside paths.config' },
  },
  {
    method: 'get', path: '/api/jobs/{queue}/{id}', operationId: 'getJob', summary: 'A job and its result', tags: ['jobs'],
    params: [
      { name: 'queue', in: 'path', required: true, schema: z.enum(QUEUE_NAMES), description: 'Queue name' },
      { name: 'id', in: 'path', required: true, schema: segment, description: 'Job id' },
    ],
    responses: { 200: jobViewResponse },
    errors: { 404: 'no such queue or job (finished jobs are kept for a week)', 503: 'Redis or the queue cannot be reached' },
  },
  {
    method: 'post', path: '/api/scan', operationId: 'postScan', summary: 'Run one scanner pass', tags: ['scanner'], params: [waitParam],
    description: 'With dry_run on, only records plans. Joins a pass that is already waiting or running.',
    responses: { 200: scanResponse, 202: jobAcceptedResponse }, errors: jobErrors,
  },
  {
    method: 'post', path: '/api/library/scan', operationId: 'postLibraryScan', summary: 'Refresh the cached library index', tags: ['library'], params: [waitParam],
    responses: { 200: libraryScanResponse, 202: jobAcceptedResponse }, errors: jobErrors,
  },
  {
    method: 'get', path: '/api/library', operationId: 'getLibrary', summary: 'Cached library summary, movies and series', tags: ['library'],
    responses: { 200: libraryResponse },
  },
  {
    method: 'get', path: '/api/library/files', operationId: 'getLibraryFiles', summary: 'The indexed files of one movie or series folder', tags: ['library'],
    params: [{ name: 'folder', in: 'query', required: true, schema: z.string().regex(/^\//), description: 'A folder exactly as GET /api/library lists it' }],
    responses: { 200: libraryFilesResponse },
    errors: { 400: 'no folder, or not an absolute path', 404: 'the index holds no such movie or series folder' },
  },
  {
    method: 'get', path: '/api/dashboard', operationId: 'getDashboard', summary: 'State, drive usage and cached library figures', tags: ['library'],
    responses: { 200: dashboardResponse },
  },
  {
    method: 'get', path: '/api/downloads', operationId: 'getDownloads', summary: 'Files under the downloads folder and recent plans and moves', tags: ['scanner'],
    responses: { 200: downloadsResponse },
  },
  {
    method: 'get', path: '/api/releases', operationId: 'getReleases', summary: 'Missing and upcoming episodes', tags: ['library'],
    description: 'The library\'s own gaps first, then one block per enabled provider; a provider\'s failures are in `providers`, not an error.',
    responses: { 200: releasesResponse },
  },
  {
    method: 'get', path: '/api/media/probe', operationId: 'getMediaProbe', summary: 'Streams of one media file (ffprobe)', tags: ['media'],
    params: [{ name: 'path', in: 'query', required: true, schema: z.string().regex(/^\//), description: 'Absolute path under the downloads folder or a drive' }],
    responses: { 200: probeResponse },
    errors: { 400: 'no path, a relative one, a NUL byte, or not a media file', 403: 'the path resolves outside the downloads folder and the drives', 404: 'no such file' },
  },
  {
    method: 'post', path: '/api/media/tracks', operationId: 'postMediaTracks', summary: 'Set a default track or remove one (ffmpeg remux)', tags: ['media'],
    description: 'With dry_run on, answers the ffmpeg command and touches nothing; off, a media job whose result lists the streams after.',
    params: [waitParam], body: trackActionSchema,
    responses: { 200: tracksAnswer, 202: jobAcceptedResponse },
    errors: {
      ...jobErrors,
      400: `the body, or the stream is not an audio or subtitle stream of the file; wait is not a number from 0 to ${MAX_WAIT_SECONDS}; or ${jobFailed}`,
      403: 'the path resolves outside the downloads folder and the drives',
      404: 'no such file, or it went away before the job ran',
      409: 'the file changed between the request and the job; nothing was done',
    },
  },
  {
    method: 'get', path: '/api/tools/subtitles', operationId: 'getSubtitles', summary: 'Indexed media without sidecar subtitles', tags: ['tools'],
    params: [{
      name: 'language', in: 'query', required: false, schema: z.string().min(1),
      description: 'A language code or name (en, eng, English, pt-BR): list media lacking a subtitle in that language rather than any subtitle',
    }],
    responses: { 200: subtitlesResponse },
    errors: { 400: 'language is not a language code or name' },
  },
  {
    method: 'get', path: '/api/tools/transcoder', operationId: 'getTranscoder', summary: 'Transcode queue: indexed video that is not .mp4', tags: ['tools'],
    responses: { 200: transcoderResponse },
  },
  {
    method: 'post', path: '/api/tools/transcoder/run-next', operationId: 'postTranscoderRunNext', summary: 'Run the next queued transcode', tags: ['tools'],
    description: 'Dry run: 200 with the ffmpeg command and the streams MP4 would drop. Otherwise 202 with the job. Nothing queued: 200 {"item": null}.',
    responses: { 200: runNextAnswer, 202: runNextStartedResponse },
    errors: {
      400: 'dry run: the next file is not a media file',
      403: 'dry run: the next file resolves outside the downloads folder and the drives',
      404: 'dry run: the next file has gone',
      503: 'Redis or the queue cannot be reached',
    },
  },
  {
    method: 'post', path: '/api/tools/transcoder/retry', operationId: 'postTranscoderRetry', summary: 'Queue a failed transcode again', tags: ['tools'],
    description: 'A failed entry goes back to `queued`, for `run-next` to take in its turn; a queued one stays queued.',
    body: transcodeRetryBody, responses: { 200: transcodeRetryResponse },
    errors: {
      400: 'the body is not {"path"}',
      404: 'the path is not in the transcode queue',
      409: 'the entry is running or done, or its failed job may still run again',
      503: 'Redis or the queue cannot be reached',
    },
  },
  {
    method: 'post', path: '/api/jobs/transcode/{id}/cancel', operationId: 'postTranscodeCancel', summary: 'Cancel a transcode wherever it runs', tags: ['tools'],
    params: [{ name: 'id', in: 'path', required: true, schema: segment, description: 'Job id' }],
    responses: { 202: transcodeCancelResponse },
    errors: { 404: 'no such transcode job', 409: 'the job has already completed or failed', 503: 'Redis or the queue cannot be reached' },
  },
  {
    method: 'get', path: '/api/tools/duplicates', operationId: 'getDuplicates', summary: 'Duplicate movies and series in the index', tags: ['tools'],
    responses: { 200: duplicatesResponse },
  },
  {
    method: 'get', path: '/api/workers', operationId: 'getWorkers', summary: 'Worker processes, and the live workers of each queue', tags: ['jobs'],
    description:
      'Each worker renews its record in Redis every 10 s. `alive` turns false once a heartbeat is three beats late, and the record goes by itself ' +
      '5 minutes after the last one; a worker stopped with SIGTERM leaves the list at once. `queues` names every queue: 0 workers means its jobs ' +
      'wait until a worker for it starts. `encoders`: the video encoders (transcoder.video_encoder, then libx264) a one-second test encode ' +
      'succeeded with when the worker started; `encoder_errors` says why the others failed.',
    responses: { 200: workersResponse },
    errors: { 503: 'Redis cannot be reached' },
  },
  {
    method: 'get', path: '/api/events', operationId: 'getEvents', summary: 'Live events (Server-Sent Events)', tags: ['service'],
    description:
      'One stream per tab. First a `snapshot` (active jobs with progress, `redis` up or not, the settings version, the library index version and time), ' +
      'then `job` ({queue, id, name, state: active|progress|completed|failed, progress?, error?, error_code?}; progress at most about once a second per job), ' +
      '`settings` ({version, sections}), `library` ({version, scanned_at}) and `transcode` ({changed: [{path, entry}]}); each `data` is JSON. ' +
      'A comment every 15 s keeps it open. Missed events are not replayed: re-fetch after each snapshot.',
    responses: { 200: { mediaType: 'text/event-stream', description: 'An event stream that stays open' } },
  },
  {
    method: 'get', path: '/api/metrics', operationId: 'getMetrics', summary: 'Prometheus metrics', tags: ['operations'],
    responses: { 200: { mediaType: 'text/plain', description: 'Prometheus text exposition format' } },
  },
  {
    method: 'get', path: '/api/openapi.json', operationId: 'getOpenApi', summary: 'This document', tags: ['operations'],
    responses: { 200: { mediaType: 'application/json', description: 'OpenAPI 3.1 document' } },
  },
  {
    method: 'get', path: '/api/docs', operationId: 'getDocs', summary: 'API reference page', tags: ['operations'],
    responses: { 200: { mediaType: 'text/html', description: 'HTML page' } },
  },
  {
    method: 'get', path: '/api/admin/queues', operationId: 'getQueueDashboard', summary: 'Queue dashboard (Bull Board)', tags: ['operations'],
    description: 'Open once with ?api_key= when a key is set; the page then keeps it as a cookie.',
    responses: { 200: { mediaType: 'text/html', description: 'HTML page' } },
  },
];

/**
 * The error statuses the app's middleware answers before (or instead of) a route: host checks on
 * every path; body checks and the cross-site refusal on every /api write; credentials on every
 * route that is not open; 500 anywhere.
 */
function middlewareErrors(r: RouteDoc): Map<number, string[]> {
  const reasons = new Map<number, string[]>();
  const add = (status: number, why: string) => reasons.set(status, [...(reasons.get(status) ?? []), why]);
  const api = r.path.startsWith('/api/');
  add(403, 'the Host (or X-Forwarded-Host) is not in app.allowed_hosts');
  if (api && r.method === 'post') {
    add(400, 'the body is not sent as Content-Type: application/json, or is not valid JSON');
    add(403, 'a browser page on another site sent it (Sec-Fetch-Site or Origin)');
    add(413, 'the body is larger than 1 MiB');
  }
  if (!r.open) {
    add(401, 'no API key or session, a wrong key, or an ended session');
    add(429, 'too many wrong keys from this address; Retry-After says when to try again');
  }
  add(500, 'internal error (never with a stack trace)');
  return reasons;
}

const SCHEMA_REF = '#/components/schemas/';

function componentSchemas(named: Record<string, z.ZodType>, io: 'input' | 'output') {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => SCHEMA_REF + id,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      // An answer's plain objects may gain fields (CONTRACT.md): only strict objects refuse more.
      const def = zodSchema._zod.def as { type: string; catchall?: unknown };
      if (io === 'output' && def.type === 'object' && def.catchall === undefined) delete jsonSchema.additionalProperties;
    },
  });
  // OpenAPI 3.1 schemas are JSON Schema 2020-12 already; per-schema $schema and $id lines are noise.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest]));
}

function paramSchema(schema: z.ZodType): object {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
}

function refTo(named: Record<string, z.ZodType>, schema: z.ZodType, where: string): { $ref: string } {
  const id = Object.keys(named).find((k) => named[k] === schema);
  if (id === undefined) throw new Error(`${where}: its schema has no name in components.schemas`);
  return { $ref: SCHEMA_REF + id };
}

const errorContent = { 'application/json': { schema: refTo(RESPONSE_SCHEMAS, errorBodySchema, 'errors') } };

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted: the job runs on; follow status_url', 304: 'Not modified', 503: 'Unavailable',
};

function operation(r: RouteDoc): object {
  const where = `${r.method} ${r.path}`;
  const responses: Record<string, object> = {};
  for (const [status, res] of Object.entries(r.responses)) {
    responses[status] =
      res instanceof z.ZodType
        ? { description: STATUS_TEXT[Number(status)] ?? 'Response', content: { 'application/json': { schema: refTo(RESPONSE_SCHEMAS, res, where) } } }
        : { description: res.description, ...(res.mediaType ? { content: { [res.mediaType]: {} } } : {}) };
  }
  const errors = middlewareErrors(r);
  for (const [status, why] of Object.entries(r.errors ?? {})) errors.set(Number(status), [why, ...(errors.get(Number(status)) ?? [])]);
  for (const [status, reasons] of [...errors].sort(([a], [b]) => a - b)) {
    if (responses[status]) throw new Error(`${where}: ${status} is both an answer and an error`);
    responses[status] = { description: reasons.join('; '), content: errorContent };
  }
  return {
    operationId: r.operationId,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: r.tags,
    ...(r.open ? { security: [] } : {}),
    ...(r.params
      ? { parameters: r.params.map((p) => ({ name: p.name, in: p.in, required: p.required, description: p.description, schema: paramSchema(p.schema) })) }
      : {}),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: refTo(REQUEST_SCHEMAS, r.body, where) } } } } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

export function openApiDocument(): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of ROUTES) (paths[r.path] ??= {})[r.method] = operation(r);
  const answers = componentSchemas(RESPONSE_SCHEMAS, 'output');
  const bodies = componentSchemas(REQUEST_SCHEMAS, 'input');
  const clash = Object.keys(bodies).filter((id) => id in answers);
  if (clash.length > 0) throw new Error(`components.schemas: ${clash.join(', ')} named twice`);
  return {
    openapi: '3.1.0',
    info: {
      title: 'media-organizer',
      version: '1.0.0',
      description: 'Organizes a home media library: scanner, cached library index, media tracks, tools and runtime settings.',
    },
    servers: [{ url: '/' }],
    components: {
      schemas: { ...answers, ...bodies },
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
