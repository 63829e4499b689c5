import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../http/env.ts';

type Operation = {
  security?: unknown[];
  requestBody?: { required?: boolean };
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
};

/**
 * The error statuses the app's middleware answers before (or instead of) a route: host checks on
 * every path; body checks and the cross-site refusal on every /api write; credentials on every
 * route that is not open; 500 anywhere.
 */
function middlewareErrors(path: string, method: string, open: boolean, bodyRequired: boolean): Map<number, string> {
  const reasons = new Map<number, string[]>();
  const add = (status: number, why: string) => reasons.set(status, [...(reasons.get(status) ?? []), why]);
  add(403, 'the Host (or X-Forwarded-Host) is not in app.allowed_hosts');
  if (path.startsWith('/api/') && method === 'post') {
    add(400, `${bodyRequired ? 'the body is missing or empty, or ' : 'the body '}is not sent as Content-Type: application/json, or is not valid JSON`);
    add(403, 'a browser page on another site sent it (Sec-Fetch-Site or Origin)');
    add(413, 'the body is larger than 1 MiB');
  }
  if (!open) {
    add(401, 'no API key or session, a wrong key, or an ended session');
    add(429, 'too many wrong keys from this address; Retry-After says when to try again');
  }
  add(500, 'internal error (never with a stack trace)');
  return new Map([...reasons].map(([status, why]) => [status, why.join('; ')]));
}

const SCHEMA_REF = '#/components/schemas/';
const ERROR_REF = { $ref: `${SCHEMA_REF}ErrorBody` };

/**
 * The generator writes a schema named in ./schemas.ts inline, with its name as an `id` field,
 * wherever it is used: each is moved once into components.schemas and referred to from there.
 */
function hoistNamed(node: unknown, named: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((n) => hoistNamed(n, named));
  if (node === null || typeof node !== 'object') return node;
  const { id, ...rest } = node as Record<string, unknown>;
  const inner = Object.fromEntries(Object.entries(typeof id === 'string' ? rest : node).map(([k, v]) => [k, hoistNamed(v, named)]));
  if (typeof id !== 'string') return inner;
  const seen = named[id];
  if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(inner)) throw new Error(`components.schemas: ${id} is described two ways`);
  named[id] = inner;
  return { $ref: SCHEMA_REF + id };
}

/** Adds the middleware's answers to one operation, beside (and after) the route's own reasons. */
function withMiddlewareErrors(path: string, method: string, op: Operation): Operation {
  const responses = { ...op.responses };
  const open = Array.isArray(op.security) && op.security.length === 0;
  for (const [status, why] of middlewareErrors(path, method, open, op.requestBody?.required === true)) {
    const own = responses[status];
    if (own && !own.content?.['application/json']) throw new Error(`${method} ${path}: ${status} is both an answer and an error`);
    responses[status] = own
      ? { ...own, description: `${own.description}; ${why}` }
      : { description: why, content: { 'application/json': { schema: ERROR_REF } } };
  }
  return { ...op, responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))) };
}

/** Every tag an operation may carry, in the order a reference lists them. */
export const TAGS = [
  { name: 'service', description: 'Health, readiness, the live event stream and the theme stylesheet' },
  { name: 'auth', description: 'The owner account: set-up, login, sessions, password and API key' },
  { name: 'settings', description: 'The effective configuration and the runtime settings' },
  { name: 'jobs', description: 'Queued jobs and the workers that run them' },
  { name: 'scanner', description: 'Downloads, scanner passes, manual imports, aliases and the import history' },
  { name: 'library', description: 'The cached library index, its scan, the dashboard and upcoming releases' },
  { name: 'media', description: 'Probing a media file and changing its tracks' },
  { name: 'tools', description: 'Subtitles and duplicates reports, and the transcode queue' },
  { name: 'operations', description: 'Metrics, this document, its reference page and the queue dashboard' },
] as const;

/** The root package.json's `license`: no licence is granted yet. */
export const LICENSE = 'UNLICENSED';

/**
 * The OpenAPI 3.1 document of every route the app declared (each in its own module, with ./route.ts).
 * `urlBase` is the prefix a reverse proxy publishes the service under (URL_BASE): the paths follow it.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, urlBase = ''): object {
  const generated = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'media-organizer',
      version: '1.0.0',
      description:
        'Organizes a home media library: scanner, cached library index, media tracks, tools and runtime settings. ' +
        'A method a path does not list is answered 405 (`method_not_allowed`, with `Allow`), a path no operation lists 404; both with the error body.',
      license: { name: LICENSE },
    },
    servers: [{ url: urlBase || '/', description: urlBase ? 'The path prefix the service is published under (URL_BASE)' : 'This service' }],
    tags: TAGS.map((t) => ({ ...t })),
    security: [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }, { session: [] }],
  });
  const schemas: Record<string, unknown> = {};
  const hoisted = hoistNamed(generated.paths ?? {}, schemas) as Record<string, Record<string, Operation>>;
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, ops] of Object.entries(hoisted)) {
    for (const [method, op] of Object.entries(ops as Record<string, Operation>)) {
      (paths[path] ??= {})[method] = withMiddlewareErrors(path, method, op);
    }
  }
  return {
    ...generated,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: {
        MethodNotAllowed: {
          description: 'The path exists but not with this method; `Allow` and `details.allow` list the methods it takes',
          headers: { Allow: { schema: { type: 'string' }, description: 'The methods the path takes' } },
          content: { 'application/json': { schema: ERROR_REF } },
        },
        NotFound: { description: 'No operation has this path', content: { 'application/json': { schema: ERROR_REF } } },
      },
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        session: { type: 'apiKey', in: 'cookie', name: 'mo_session' },
      },
    },
    paths,
    webhooks: undefined,
  };
}

/**
 * Something the routes are given but building the document must never use: declaring a route
 * only describes it. Any use (a property read, a call) throws, naming what was touched.
 */
function untouchable(name: string): unknown {
  const fail = (): never => {
    throw new Error(`building the OpenAPI document used ${name}`);
  };
  return new Proxy(function () {}, { get: fail, apply: fail, construct: fail, has: fail, set: fail });
}

/** The document without a running service (no config, Redis or files): for the client generator. */
export function standaloneDocument(createApp: (deps: AppDeps) => OpenAPIHono<AppEnv>): object {
  const deps = {
    config: untouchable('config'),
    jobs: untouchable('jobs'),
    logger: untouchable('logger'),
    library: untouchable('library'),
    auth: untouchable('auth'),
    live: untouchable('live'),
  } as unknown as AppDeps;
  return openApiDocument(createApp(deps));
}
