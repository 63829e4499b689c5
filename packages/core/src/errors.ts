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
  /** The issue in words a person reads, naming the field by its label (settings refusals: settingsSentence). */
  sentence?: string;
}

/** Words for one issue at its key path; the zod issue itself, which says what kind of refusal it is. */
export type IssueWords = (path: string, issue: z.core.$ZodIssue) => string;

/**
 * zod reports an unknown key at its parent's path; a user needs the key itself named. A value that
 * fits no branch of a union is reported at the union's own path ("(root): Invalid input" for a whole
 * body); the branch it came closest to (fewest issues, the first on a tie) names the field instead.
 */
export function keyIssues(error: z.ZodError, prefix: readonly PropertyKey[] = [], words?: IssueWords): KeyIssue[] {
  return issuesAt(error.issues, prefix, words);
}

function issuesAt(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[], words: IssueWords | undefined): KeyIssue[] {
  const keyIssue = (path: string, message: string, i: z.core.$ZodIssue): KeyIssue => (words ? { path, message, sentence: words(path, i) } : { path, message });
  return issues.flatMap((i) => {
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => keyIssue(issuePath([...i.path, k], prefix), 'unknown key', i));
    if (i.code === 'invalid_union' && i.errors.length > 0) {
      const branches = i.errors.map((branch) => issuesAt(branch, [...prefix, ...i.path], words));
      return branches.reduce((closest, b) => (b.length < closest.length ? b : closest));
    }
    return [keyIssue(issuePath(i.path, prefix), i.message, i)];
  });
}

/** A 400 whose message leads with the first offending key path, with every issue in details. */
export function validationError(error: z.ZodError, prefix: readonly PropertyKey[] = [], words?: IssueWords): AppError {
  const issues = keyIssues(error, prefix, words);
  const first = issues[0];
  return new AppError('bad_request', first ? `${first.path}: ${first.message}` : 'invalid input', { ...(first ? { key: first.path } : {}), issues });
}

/** Failures a retry would not fix: the job ends at once, and its code reaches the API's client. */
const FINAL_CODES: readonly ErrorCode[] = ['bad_request', 'forbidden', 'not_found', 'conflict'];

export function isFinalError(err: unknown): err is AppError {
  return err instanceof AppError && FINAL_CODES.includes(err.code);
}

/** A job's failure reason is a plain string in BullMQ; a leading `[code]` carries the code across. */
export function jobFailureReason(err: AppError): string {
  return `[${err.code}] ${err.message}`;
}

/** The code a failure reason carries, and the message without it; code null for any other failure. */
export function readJobFailure(reason: string): { code: ErrorCode | null; message: string } {
  const m = /^\[([a-z_]+)\] ([\s\S]*)$/.exec(reason);
  const code = m && FINAL_CODES.find((c) => c === m[1]);
  return code ? { code, message: m[2]! } : { code: null, message: reason };
}
