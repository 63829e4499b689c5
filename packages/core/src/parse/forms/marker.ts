// What a form finds in a name: where the title ends, and the numbers the marker stands for.

export interface Marker {
  kind: 'episode' | 'season' | 'movie';
  /** The title is the text before `start` (from `titleStart`, 0 unless the name begins with a number). */
  start: number;
  titleStart: number;
  /** Release words, episode titles and the like follow from `end`. */
  end: number;
  season: number | null;
  episodes: number[];
  absolute: number[];
  airDate: string | null;
  /** A year the marker carries itself: a movie's year, `S2016E01`. */
  year: number | null;
  /** Numbers without a season (`E05`, `- 05`, `Part 3`): a season folder around the file may claim them. */
  weak: boolean;
  /** Set when the name says two things that cannot both be true: the name is refused with this. */
  conflict: string | null;
}

export interface FormContext {
  /** The name began with a `[Group]`: fansub conventions apply. */
  group: string | null;
  /** The name carried a CRC32 checksum (`[A3C9BD54]`), as fansub releases do. */
  checksum: boolean;
}

export interface Form {
  name: string;
  /**
   * A cheap test every name the form can read passes. The forms' own expressions start with
   * lookbehinds that V8 tries at every position; this lets most names skip them (a tenth of the cost).
   */
  hint: { test(s: string): boolean };
  find(s: string, ctx: FormContext): Marker | null;
}

// Every field written out, in one order: one object shape for V8, no spread per marker.
export function marker(kind: Marker['kind'], start: number, end: number, fields: Partial<Marker> = {}): Marker {
  return {
    kind,
    start: fields.start ?? start,
    titleStart: fields.titleStart ?? 0,
    end: fields.end ?? end,
    season: fields.season ?? null,
    episodes: fields.episodes ?? [],
    absolute: fields.absolute ?? [],
    airDate: fields.airDate ?? null,
    year: fields.year ?? null,
    weak: fields.weak ?? false,
    conflict: fields.conflict ?? null,
  };
}

/** The most episodes one file or range may span; more is a misread, not a release. */
export const MAX_SPAN = 100;

/**
 * Why the range `from`–`to` cannot be episodes of one file: one that ends before it starts, or
 * spans more than MAX_SPAN, is a misread or a typo, and which end is wrong cannot be told; null
 * when it can.
 */
export function badRange(from: number, to: number): string | null {
  if (to < from) return 'a range of episodes that ends before it starts';
  return to - from > MAX_SPAN ? `a range of more than ${MAX_SPAN} episodes` : null;
}

export function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

export function sortedUnique(list: readonly number[]): number[] {
  let increasing = true;
  for (let i = 1; i < list.length && increasing; i++) increasing = list[i]! > list[i - 1]!;
  // Most lists are one number or a range already in order: no set, no sort.
  if (increasing) return list.slice();
  return [...new Set(list)].sort((a, b) => a - b);
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10 };
const WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
export const SMALL_NUMBER = `\\d{1,2}|[ivx]{1,6}|${WORDS.join('|')}`;

/** 1–39 as digits, Roman numerals (`Part IV`) or English words up to twelve; null for anything else. */
export function smallNumber(text: string): number | null {
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const t = text.toLowerCase();
  const word = WORDS.indexOf(t);
  if (word >= 0) return word + 1;
  if (!/^[ivx]{1,6}$/.test(t)) return null;
  let total = 0;
  for (let i = 0; i < t.length; i++) {
    const v = ROMAN[t[i]!]!;
    const next = ROMAN[t[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total > 0 && total < 40 ? total : null;
}

/** ` `, tab, `.`, `_` or `-`, by code: a one-character string per step cost more than the rest. */
const isSeparator = (c: number): boolean => c === 32 || c === 9 || c === 46 || c === 95 || c === 45;

/**
 * The last `n` words of `text` (lower case, last word last), words being runs between separators.
 * Expressions anchored at the end of a string are tried from every position of it: the forms ask
 * this instead, several times per name.
 */
export function lastWords(text: string, n: number): string[] {
  const out: string[] = [];
  let end = text.length;
  while (out.length < n) {
    while (end > 0 && isSeparator(text.charCodeAt(end - 1))) end--;
    if (end === 0) break;
    let start = end;
    while (start > 0 && !isSeparator(text.charCodeAt(start - 1))) start--;
    out.unshift(text.slice(start, end).toLowerCase());
    end = start;
  }
  return out;
}
