// Episodes named by their air date: 2024.03.14, 2024-03-14, 14.03.2024, 10-30-2010 (US order when
// the day tells), 2010.23.11, "10 Nov 2022", "3rd Nov 2014", "16-Feb-17", "November 16, 2016".
// A date that could be read two ways (05.06.2010) is not guessed.
import { MONTH_PREFIXES, monthOf } from '../vocabulary.ts';
import { MAX_YEAR } from '../title.ts';
import { marker, type Form, type Marker } from './marker.ts';

const RE_YMD = /(?<![\p{N}])((?:19|20)\d{2})([ ._-])(\d{1,2})\2(\d{1,2})(?![\p{N}])/u;
const RE_DMY = /(?<![\p{N}])(\d{1,2})([ ._-])(\d{1,2})\2((?:19|20)\d{2})(?![\p{N}])/u;
// 20200116 (and not inside a longer number)
const RE_COMPACT = /(?<![\p{N}])((?:19|20)\d{2})(\d{2})(\d{2})(?![\p{N}])/u;
// 10-19-12: a two-digit year, only with dashes and only when the day tells the order.
const RE_SHORT_YEAR = /(?<![\p{N}.])(\d{1,2})-(\d{1,2})-(\d{2})(?![\p{N}])/u;
// Month names are looked up in code: one alternation of every month in five languages, tried at
// every position, cost more than the rest of a name's reading.
const RE_DAY_MONTH = /(?<![\p{L}\p{N}])(\d{1,2})(?:st|nd|rd|th|er)?[ ._-]+(\p{L}{3,9})[ ._,-]+((?:19|20)\d{2}|\d{2})(?![\p{N}])\)?/gu;
const RE_MONTH_DAY = /(?<![\p{L}\p{N}])(\p{L}{3,9})[ ._-]+(\d{1,2})(?:st|nd|rd|th)?,?[ ._-]+((?:19|20)\d{2})(?![\p{N}])\)?/gu;
// The first three letters of every month name monthOf knows.
const RE_MONTH_START = new RegExp(MONTH_PREFIXES.join('|'), 'gi');
const RE_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const RE_WORD_AT = /\p{L}{3,9}(?!\p{L})/uy;

/**
 * Whether a whole word of `s` names a month: both expressions of `namedMonthDate` need one, and
 * most names hold only words that begin like one ("Marvel", "Sunset"), which this tells apart
 * before the expressions are tried at every position.
 */
function hasMonthWord(s: string): boolean {
  // The Kelvin sign lower-cases to a "k" that a case-blind expression without the unicode flag
  // (three times faster) does not see: such a name takes the long way.
  if (s.includes('\u212a')) return true;
  RE_MONTH_START.lastIndex = 0;
  for (let m = RE_MONTH_START.exec(s); m !== null; m = RE_MONTH_START.exec(s)) {
    if (m.index > 0 && RE_LETTER_OR_DIGIT.test(s[m.index - 1]!)) continue;
    RE_WORD_AT.lastIndex = m.index;
    const word = RE_WORD_AT.exec(s);
    if (word !== null && monthOf(word[0]) !== null) return true;
  }
  return false;
}
// "Fri 24 Jan 2001", "(18th july 2013)": a weekday or bracket before the date is part of it.
const RE_LEAD = /\(?(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*[ ._,-]+)?\(?$/i;

function leadStart(s: string, index: number): number {
  const lead = RE_LEAD.exec(s.slice(Math.max(0, index - 12), index));
  return lead ? index - lead[0].length : index;
}

/** Every date form holds a four-digit year, or a two-digit one after dashed numbers or a month. */
export const RE_DATE_HINT = /(?:19|20)\d\d|\d-\d\d?-\d|\d[ ._-]\p{L}{3,9}[ ._,-]+\d\d/u;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD` when it is a real calendar day no later than next year, else null. */
export function isoDate(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > MAX_YEAR || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d > days ? null : `${y}-${pad(m)}-${pad(d)}`;
}

function dateMarker(start: number, end: number, date: string | null): Marker | null {
  return date === null ? null : marker('episode', start, end, { airDate: date });
}

/** The first air date in `s`, wherever it stands; also used after an S01E02 marker. */
export function findDate(s: string): Marker | null {
  return RE_NUMERIC_SHAPE.test(s) ? (numericDate(s) ?? namedMonthDate(s)) : namedMonthDate(s);
}

// Three numbers in a row, or eight digits: what every numeric date form needs.
const RE_NUMERIC_SHAPE = /\d[ ._-]\d\d?[ ._-]\d|\d{8}/;

function numericDate(s: string): Marker | null {
  let m = RE_YMD.exec(s);
  if (m) {
    const y = Number(m[1]);
    const a = Number(m[3]);
    const b = Number(m[4]);
    // 2010.23.11: a day before the month, when only that reading is a date.
    const date = a <= 12 ? isoDate(y, a, b) : isoDate(y, b, a);
    // "2023.02.30": shaped as a date and none; not a movie of 2023 either.
    if (date === null && y <= MAX_YEAR) return marker('episode', m.index, m.index, { conflict: 'a date that is no calendar day' });
    const found = dateMarker(m.index, m.index + m[0].length, date);
    if (found) return found;
  }
  m = RE_DMY.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = Number(m[4]);
    if (a <= 12 && b <= 12 && a !== b) {
      return marker('episode', m.index, m.index + m[0].length, { conflict: 'a date that reads as two days' });
    }
    const found = dateMarker(m.index, m.index + m[0].length, a > 12 ? isoDate(y, b, a) : isoDate(y, a, b));
    if (found) return found;
  }
  m = RE_COMPACT.exec(s);
  if (m) {
    const found = dateMarker(m.index, m.index + m[0].length, isoDate(Number(m[1]), Number(m[2]), Number(m[3])));
    if (found) return found;
  }
  m = RE_SHORT_YEAR.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    const y = 2000 + Number(m[3]);
    const date = a > 12 && b <= 12 ? isoDate(y, b, a) : b > 12 && a <= 12 ? isoDate(y, a, b) : null;
    const found = dateMarker(m.index, m.index + m[0].length, date);
    if (found) return found;
  }
  return null;
}

function namedMonthDate(s: string): Marker | null {
  if (!hasMonthWord(s)) return null;
  for (const d of s.matchAll(RE_DAY_MONTH)) {
    const month = monthOf(d[2]!);
    if (month === null) continue;
    const y = d[3]!.length === 2 ? 2000 + Number(d[3]) : Number(d[3]);
    const found = dateMarker(leadStart(s, d.index), d.index + d[0].length, isoDate(y, month, Number(d[1])));
    if (found) return found;
  }
  for (const d of s.matchAll(RE_MONTH_DAY)) {
    const month = monthOf(d[1]!);
    if (month === null) continue;
    const found = dateMarker(leadStart(s, d.index), d.index + d[0].length, isoDate(Number(d[3]), month, Number(d[2])));
    if (found) return found;
  }
  return null;
}

export const daily: Form = {
  name: 'air date',
  hint: RE_DATE_HINT,
  find: findDate,
};
