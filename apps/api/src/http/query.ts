import { AppError } from '@mo/core';

/**
 * A `?limit=`: a whole number from 1 to `max`, in plain digits (Number() would also take "1e2",
 * "0x10" and " 5"); absent or empty, `fallback`. Anything else is a 400 naming `key`.
 */
export function limitParam(key: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max)) throw new AppError('bad_request', `${key}: must be a whole number from 1 to ${max}`, { key });
  return n;
}

/** A query parameter that must be one of `values`; absent or empty, null. Anything else is a 400 naming `key`. */
export function choiceParam<T extends string>(key: string, raw: string | undefined, values: readonly T[]): T | null {
  if (raw === undefined || raw === '') return null;
  if (!(values as readonly string[]).includes(raw)) {
    throw new AppError('bad_request', `${key}: must be one of ${values.join(', ')}`, { key });
  }
  return raw as T;
}
