import type { Context } from 'hono';
import { AppError } from '@mo/core';

/** The request's JSON body; an empty body is `undefined`, malformed JSON a 400. */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('bad_request', `the body is not valid JSON: ${(err as Error).message}`);
  }
}
