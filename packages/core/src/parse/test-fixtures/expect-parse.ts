import { expect } from 'vitest';
import { parseRelease, type ParsedMedia } from '../release-name.ts';

/** Checks the given fields only. */
export function expectParsed(name: string, want: Partial<ParsedMedia>): void {
  const r = parseRelease(name);
  expect(r, name).toMatchObject({ ok: true });
  const got = r.ok ? r.media : null;
  const picked: Partial<ParsedMedia> = {};
  for (const k of Object.keys(want) as (keyof ParsedMedia)[]) (picked as Record<string, unknown>)[k] = got?.[k];
  expect(picked, name).toEqual(want);
}

/** The name is refused, and the refusal says why. */
export function expectRefused(name: string, why: RegExp = /./): void {
  const r = parseRelease(name);
  expect(r.ok, `${name} → ${JSON.stringify(r)}`).toBe(false);
  if (!r.ok) expect(r.detail, name).toMatch(why);
}

export const episode = (title: string, season: number | null, episodes: number[], more: Partial<ParsedMedia> = {}): Partial<ParsedMedia> => ({
  kind: 'episode',
  title,
  season,
  episodes,
  ...more,
});

export const absolute = (title: string, numbers: number[], more: Partial<ParsedMedia> = {}): Partial<ParsedMedia> => ({
  kind: 'episode',
  title,
  season: null,
  episodes: [],
  absolute_episodes: numbers,
  ...more,
});

export const daily = (title: string, air_date: string): Partial<ParsedMedia> => ({
  kind: 'episode',
  title,
  season: null,
  episodes: [],
  air_date,
});

export const movie = (title: string, year: number, more: Partial<ParsedMedia> = {}): Partial<ParsedMedia> => ({
  kind: 'movie',
  title,
  year,
  ...more,
});
