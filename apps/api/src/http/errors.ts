import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError } from '@mo/core';
import type { ErrorBody, ErrorCode } from '@mo/shared';
import type { AppEnv } from './env.ts';
import { notJson } from './content-type.ts';

export const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  bad_gateway: 502,
  unavailable: 503,
  internal: 500,
};

const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = Object.fromEntries(Object.entries(STATUS).map(([code, status]) => [status, code as ErrorCode]));

export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorBody {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

export function errorResponse(c: Context, code: ErrorCode, message: string, details?: unknown) {
  return c.json(errorBody(code, message, details), STATUS[code]);
}

/** The one place where thrown errors become the contract's error body; no stack ever leaves. */
export function onError(err: Error, c: Context<AppEnv>) {
  if (err instanceof AppError) return errorResponse(c, err.code, err.message, err.details);
  if (err instanceof HTTPException) {
    // What a declared JSON body's validator refuses before its schema sees it, in this API's words.
    if (err.status === 415) return errorResponse(c, 'bad_request', notJson(c) ?? 'the body must be JSON');
    if (err.status === 400 && /malformed json/i.test(err.message)) return errorResponse(c, 'bad_request', 'the body is not valid JSON');
    const code = CODE_OF_STATUS[err.status] ?? (err.status >= 500 ? 'internal' : 'bad_request');
    return errorResponse(c, code, err.message || code);
  }
  c.get('log')?.error({ err }, 'unhandled error');
  return errorResponse(c, 'internal', 'internal error');
}
