// A subtitle's language and flags are the tags at the end of its name: `Movie.en.forced.srt`,
// `Movie.en.sdh.srt`, and the names release groups put in `Subs/` (`2_English.srt`,
// `3_eng_forced.srt`, `English (SDH).srt`). The scanner reads them to keep them when it renames a
// sidecar, the subtitle audit to know what a file covers: one reading, so a name means the same to both.
//
// `hi` is both Hindi's code and the "hearing impaired" flag. We read it as Jellyfin does
// (Emby.Naming/ExternalFiles/ExternalPathParser.cs and its ExternalPathParserTests; the "External
// files" page of jellyfin.org's docs): `hi` alone is Hindi (`Movie.hi.srt`), `hi` beside another
// language is the flag (`Movie.en.hi.srt`, `Movie.hi.en.srt`). Jellyfin is the media server that
// documents and tests the collision, and what we name is played there; Bazarr, which reads a
// trailing `hi` as the flag whatever precedes it, only ever writes it after a language
// (`Movie.en.hi.srt`), which reads the same both ways. What `tagSuffix` writes uses `sdh`, never
// `hi`, so a renamed file reads back the same in Plex, Jellyfin, Emby and Kodi.

import { normalizeLanguage } from './languages.ts';

export interface SubtitleTags {
  /** As `normalizeLanguage` gives it: `en`, `pt-br`. */
  language: string | null;
  /** Only the foreign-language parts are subtitled: `forced`, `foreign`. */
  forced: boolean;
  /** For the deaf and hard of hearing: `sdh`, `cc`, or `hi` beside another language. */
  sdh: boolean;
}

const FORCED = new Set(['forced', 'foreign']);
const SDH = new Set(['sdh', 'cc']);
const HEARING_IMPAIRED_OR_HINDI = 'hi';
/** A player hint, not part of the name, and nothing to keep: the library decides the default. */
const DEFAULT = 'default';
/** Separators inside one dot-separated part: `2_English`, `English (SDH)`, `3-sdh`. */
const WORD = /[^\s_()[\]-]+/g;
const TRACK_NUMBER = /^\d+$/;

interface Reading extends SubtitleTags {
  /** The language so far is a `hi` that another language would turn into the flag. */
  hindiAlone: boolean;
}

/** The reading with one more tag before those read, or null when the word is not one. */
function withTag(r: Reading, word: string): Reading | null {
  const w = word.toLowerCase();
  if (FORCED.has(w)) return { ...r, forced: true };
  if (SDH.has(w)) return { ...r, sdh: true };
  if (w === DEFAULT) return r;
  if (w === HEARING_IMPAIRED_OR_HINDI) {
    return r.language === null ? { ...r, language: 'hi', hindiAlone: true } : { ...r, sdh: true };
  }
  const language = normalizeLanguage(word);
  if (language === null) return null;
  if (r.language === null) return { ...r, language };
  if (r.hindiAlone) return { ...r, language, hindiAlone: false, sdh: true };
  // One language only: a second is part of the name (`Movie.It.en`).
  return null;
}

/** The words of one dot-separated part, a regional form (`pt-BR`, `zh_Hans`) kept as one word. */
function wordsOf(part: string): string[] {
  const words: string[] = [];
  let end = 0;
  for (const m of part.matchAll(WORD)) {
    const joiner = part.slice(end, m.index);
    const last = words.length - 1;
    // `en_hi` and `en-cc` are a language and a flag, not a region.
    const region = last >= 0 && (joiner === '-' || joiner === '_') && !isFlag(m[0]) && normalizeLanguage(`${words[last]}-${m[0]}`) !== null;
    if (region) words[last] = `${words[last]}-${m[0]}`;
    else words.push(m[0]);
    end = m.index + m[0].length;
  }
  return words;
}

function isFlag(word: string): boolean {
  const w = word.toLowerCase();
  return FORCED.has(w) || SDH.has(w) || w === HEARING_IMPAIRED_OR_HINDI || w === DEFAULT;
}

/**
 * The tags at the end of a subtitle's name without its extension, and the name before them.
 * Dot-separated parts are read from the end while every word of a part is a tag: at most one
 * language, any flags. So a title word is never taken for a tag (`English.Teacher.2010`,
 * `Let It Be`), and in `Movie.It.en` only `en` is. A track number before the tags of a name that
 * is nothing but tags (`2_English`) belongs to them, and the name before them is then ''.
 */
export function readSubtitleTags(stem: string): { base: string; tags: SubtitleTags } {
  let reading: Reading = { language: null, forced: false, sdh: false, hindiAlone: false };
  // Read from the end, a dot-separated part at a time, stopping at the first that is no tag: a long
  // name is never split whole (a name of thousands of dots made an array as long, and the collector's
  // work grew faster than the name).
  let end = stem.length;
  for (;;) {
    const dot = end === 0 ? -1 : stem.lastIndexOf('.', end - 1);
    let words = wordsOf(stem.slice(dot + 1, end));
    if (dot < 0 && words.length > 1 && TRACK_NUMBER.test(words[0]!)) words = words.slice(1);
    let next: Reading | null = words.length > 0 ? reading : null;
    for (let i = words.length - 1; i >= 0 && next; i--) next = withTag(next, words[i]!);
    if (!next) break;
    reading = next;
    if (dot < 0) {
      end = 0;
      break;
    }
    end = dot;
  }
  const { language, forced, sdh } = reading;
  return { base: stem.slice(0, end), tags: { language, forced, sdh } };
}

/** `.en.forced.sdh`, or '' when there is nothing to keep: the order media servers read them in. */
export function tagSuffix(tags: SubtitleTags): string {
  return `${tags.language ? `.${tags.language}` : ''}${tags.forced ? '.forced' : ''}${tags.sdh ? '.sdh' : ''}`;
}
