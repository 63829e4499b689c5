import type { ErrorCode } from '@mo/shared';
import type { z } from 'zod';

/** A failure with a stable code that the API turns into its error body; no HTTP types here. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function issuePath(path: readonly PropertyKey[], prefix: readonly PropertyKey[] = []): string {
  return [...prefix, ...path].map(String).join('.') || '(root)';
}

/** A 400 whose message leads with the first offending key path, with every issue in details. */
export function validationError(error: z.ZodError, prefix: readonly PropertyKey[] = []): AppError {
  const issues = error.issues.map((i) => ({ path: issuePath(i.path, prefix), message: i.message }));
  const first = issues[0];
  return new AppError('bad_request', first ? `${first.path}: ${first.message}` : 'invalid input', { issues });
}
