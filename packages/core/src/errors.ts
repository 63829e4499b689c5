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

export interface KeyIssue {
  path: string;
  message: string;
}

/** zod reports an unknown key at its parent's path; a user needs the key itself named. */
export function keyIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): KeyIssue[] {
  return error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((k) => ({ path: issuePath([...i.path, k], prefix), message: 'unknown key' }))
      : [{ path: issuePath(i.path, prefix), message: i.message }],
  );
}

/** A 400 whose message leads with the first offending key path, with every issue in details. */
export function validationError(error: z.ZodError, prefix: readonly PropertyKey[] = []): AppError {
  const issues = keyIssues(error, prefix);
  const first = issues[0];
  return new AppError('bad_request', first ? `${first.path}: ${first.message}` : 'invalid input', { issues });
}
