// Episodes named by their air date: 2024.03.14, 2024-03-14, 14.03.2024, 10-30-2010 (US order when
// the day tells), 2010.23.11, "10 Nov 2022", "3rd Nov 2014", "16-Feb-17", "November 16, 2016".
// A date that could be read two ways (05.06.2010) is not guessed.
import { MONTH_PATTERN, monthOf } from '../vocabulary.ts';
import { MAX_YEAR } from '../title.ts';
import { marker, type Form, type Marker } from './marker.ts';

const RE_YMD = /(?<![\p{N}])((?:19|20)\d{2})([ ._-])(\d{1,2})\2(\d{1,2})(?![\p{N}])/u;
const RE_DMY = /(?<![\p{N}])(\d{1,2})([ ._-])(\d{1,2})\2((?:19|20)\d{2})(?![\p{N}])/u;
const WEEKDAY = '(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*[ ._,-]+)?';
const RE_DAY_MONTH = new RegExp(
  `(?<![\\p{L}\\p{N}])\\(?${WEEKDAY}(\\d{1,2})(?:st|nd|rd|th|er)?[ ._-]+(${MONTH_PATTERN})[ ._,-]+((?:19|20)\\d{2}|\\d{2})(?![\\p{N}])\\)?`,
  'iu',
);
const RE_MONTH_DAY = new RegExp(
  `(?<![\\p{L}\\p{N}])\\(?${WEEKDAY}(${MONTH_PATTERN})[ ._-]+(\\d{1,2})(?:st|nd|rd|th)?,?[ ._-]+((?:19|20)\\d{2})(?![\\p{N}])\\)?`,
  'iu',
);

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
  let m = RE_YMD.exec(s);
  if (m) {
    const y = Number(m[1]);
    const a = Number(m[3]);
    const b = Number(m[4]);
    // 2010.23.11: a day before the month, when only that reading is a date.
    const date = a <= 12 ? isoDate(y, a, b) : isoDate(y, b, a);
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
  m = RE_DAY_MONTH.exec(s);
  if (m) {
    const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    const found = dateMarker(m.index, m.index + m[0].length, isoDate(y, monthOf(m[2]!) ?? 0, Number(m[1])));
    if (found) return found;
  }
  m = RE_MONTH_DAY.exec(s);
  if (m) return dateMarker(m.index, m.index + m[0].length, isoDate(Number(m[3]), monthOf(m[1]!) ?? 0, Number(m[2])));
  return null;
}

export const daily: Form = {
  name: 'air date',
  find: findDate,
};
