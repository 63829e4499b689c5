import { createApiClient } from '@mo/api-client';
import { serviceOrigin, servicePrefix } from './base.ts';

export const api = createApiClient({ baseUrl: `${serviceOrigin()}${servicePrefix()}` });

export interface FieldIssue {
  path: string;
  message: string;
  /** The issue in words, naming the field by its label (a settings refusal has one for each issue). */
  sentence?: string;
}

/** An answer other than 2xx, as the API's error body names it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** A 400 names its fields as `details.issues` (settings, each with its sentence) or `details.key` (one field); the message leads with it. */
function issuesOf(details: unknown, message: string): FieldIssue[] {
  if (typeof details !== 'object' || details === null) return [];
  if ('key' in details && typeof details.key === 'string' && !('issues' in details && Array.isArray(details.issues))) {
    const prefix = `${details.key}:`;
    return [{ path: details.key, message: message.startsWith(prefix) ? message.slice(prefix.length).trim() : message }];
  }
  if (!('issues' in details) || !Array.isArray(details.issues)) return [];
  return details.issues.flatMap((i: unknown): FieldIssue[] => {
    if (typeof i !== 'object' || i === null || !('path' in i) || !('message' in i) || typeof i.path !== 'string' || typeof i.message !== 'string') return [];
    return [{ path: i.path, message: i.message, ...('sentence' in i && typeof i.sentence === 'string' ? { sentence: i.sentence } : {}) }];
  });
}

/** The data of a typed call, or an ApiError carrying the API's code, message and field issues. */
export async function unwrap<T>(call: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const body =
    typeof error === 'object' && error !== null && 'error' in error ? (error.error as { code?: unknown; message?: unknown; details?: unknown }) : undefined;
  const message = typeof body?.message === 'string' ? body.message : `${response.status} ${response.statusText}`;
  throw new ApiError(response.status, typeof body?.code === 'string' ? body.code : 'internal', message, issuesOf(body?.details, message));
}
