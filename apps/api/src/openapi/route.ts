import { OpenAPIHono, type Hook, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { AppError, keyIssues, type KeyIssue } from '@mo/core';
import { errorBodySchema } from '@mo/shared';
import type { AppEnv } from '../http/env.ts';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, waitSeconds } from '../http/jobs.ts';
import { choiceParam, limitParam } from '../http/query.ts';
import './schemas.ts';

/**
 * A request the route's own schema refuses: the contract's 400, naming the first offending key
 * (`details.key`) and listing every issue, whatever part of the request it was in.
 */
export function refusal(issues: KeyIssue[]): AppError {
  const first = issues[0];
  return new AppError('bad_request', first ? `${first.path}: ${first.message}` : 'invalid input', { ...(first ? { key: first.path } : {}), issues });
}

const refuse: Hook<unknown, AppEnv, string, undefined> = (result) => {
  if (!result.success) throw refusal(keyIssues(result.error));
};

/**
 * A route that declares a required body refuses a request without one (none sent, or only white
 * space) with a 400 that says so. The validator reads an absent body as `{}`: a body whose keys are
 * all optional would pass, and a handler reading the body itself would throw (a 500).
 */
const bodySent: MiddlewareHandler<AppEnv> = async (c, next) => {
  if ((await c.req.text()).trim() === '') {
    throw new AppError('bad_request', 'the body is missing: this route takes a JSON object, sent with Content-Type: application/json');
  }
  await next();
};

/**
 * Each route is declared once, with @hono/zod-openapi: the zod schemas of its parameters and body
 * both validate the request and document it, so the document cannot drift from the code.
 */
export function router() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: refuse });
  const declare = app.openapi;
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) => {
    const own = route.middleware === undefined ? [] : [route.middleware].flat();
    const checked = route.request?.body?.required ? { ...route, middleware: [bodySent, ...own] } : route;
    return (declare as (...args: unknown[]) => unknown)(checked, ...rest);
  }) as typeof app.openapi;
  return app;
}

/** A JSON answer: the schema is named in components.schemas (./schemas.ts). */
export function json<S extends z.ZodType>(schema: S, description = 'OK') {
  return { description, content: { 'application/json': { schema } } } as const;
}

/** What a GET that sends an ETag (../http/cached-json.ts) answers to a client's If-None-Match naming it. */
export const NOT_MODIFIED = { 304: { description: 'Not modified: If-None-Match names the current ETag; no body' } } as const;

/** An answer that is not JSON (a page, a stylesheet, a stream): text. */
export function other(mediaType: string, description: string) {
  return { description, content: { [mediaType]: { schema: z.string() } } };
}

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 502 | 503;

/**
 * The error statuses a route's own handler answers, with why; each answers the error body. The
 * middleware's (host, credentials, body, cross-site, 500) are added to every route by rule when the
 * document is built.
 */
export function errors(why: Partial<Record<ErrorStatus, string>>) {
  return Object.fromEntries(Object.entries(why).map(([status, description]) => [status, json(errorBodySchema, description)])) as {
    [K in keyof typeof why]: ReturnType<typeof json<typeof errorBodySchema>>;
  };
}

/** A required JSON request body. */
export function body<S extends z.ZodType>(schema: S) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}

/** Needs no key or session. */
export const OPEN = { security: [] as Record<string, string[]>[] };

/** A path parameter is one non-empty segment: an empty or slashed one reaches no route. */
export const segment = z.string().regex(/^[^/]+$/);

/**
 * A query value read by `parse`, which throws for what it refuses (its message leads with the key);
 * described as `doc` says, since what it reads is text but what it means is a number or a choice.
 */
export function queryValue<T>(parse: (raw: string | undefined) => T, doc: Record<string, unknown>) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return parse(raw);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message.replace(/^\w+: /, '') });
        return z.NEVER;
      }
    })
    .meta(doc);
}

/** `?wait=` of the job-backed POSTs: a JSON number of seconds, 0 to 300 (CONTRACT.md). */
export const waitQuery = z.object({
  wait: queryValue(waitSeconds, {
    type: 'number',
    minimum: 0,
    maximum: MAX_WAIT_SECONDS,
    default: DEFAULT_WAIT_SECONDS,
    description: 'Seconds to wait for the job (0 = answer 202 at once).',
  }),
});

/** `?limit=`: a whole number from 1 to `max`; absent or empty, `fallback`. */
export function limitValue(max: number, fallback: number, description: string) {
  return queryValue((raw) => limitParam('limit', raw, fallback, max), { type: 'integer', minimum: 1, maximum: max, default: fallback, description });
}

/** A query value that must be one of `values`; absent or empty, null. */
export function choiceValue<T extends string>(key: string, values: readonly T[], description: string) {
  return queryValue((raw) => choiceParam(key, raw, values), { type: 'string', enum: [...values], description });
}

const jobFailed = 'the job failed on its input (the code the worker gave: bad_request, forbidden, not_found or conflict; details name the job)';

/** What a job-backed POST answers when its job failed in the worker, or Redis is away. */
export const JOB_ERRORS = {
  400: `wait is not a number from 0 to ${MAX_WAIT_SECONDS}; or ${jobFailed}`,
  403: jobFailed,
  404: jobFailed,
  409: jobFailed,
  503: 'Redis or the queue cannot be reached',
} as const;

/** What the auth routes that check a secret add: too many wrong ones from one address. */
export const AUTH_FAILURES = { 429: 'too many wrong set-up tokens, passwords or keys from this address; Retry-After says when to try again' } as const;
