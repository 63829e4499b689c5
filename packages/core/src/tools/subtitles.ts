import type { IndexItem } from '@mo/shared';
import { parseReleaseName } from '../parse/release-name.ts';

// ---------------------------------------------------------------------------------------------
// Languages

const ISO_639_1 = new Set(
  ('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el ' +
    'en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ' +
    'ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na ' +
    'nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so ' +
    'sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '),
);

/** ISO 639-2 codes and English and native names of the languages subtitles come in, to their ISO 639-1 code. */
const LANGUAGE_NAMES: Record<string, string> = Object.fromEntries(
  (
    'en eng english|fr fre fra french francais|de ger deu german deutsch|es spa spanish espanol castellano|' +
    'it ita italian italiano|pt por portuguese portugues|ru rus russian|ja jpn japanese|zh chi zho chinese|' +
    'ko kor korean|nl dut nld dutch nederlands|sv swe swedish svenska|no nor norwegian norsk|nb nob bokmal|' +
    'nn nno nynorsk|da dan danish dansk|fi fin finnish suomi|pl pol polish polski|tr tur turkish|ar ara arabic|' +
    'he heb hebrew|hi hin hindi|cs cze ces czech|el gre ell greek|hu hun hungarian magyar|ro rum ron romanian|' +
    'bg bul bulgarian|hr hrv croatian|sr srp serbian|sl slv slovenian|sk slo slk slovak|uk ukr ukrainian|' +
    'vi vie vietnamese|th tha thai|id ind indonesian|ms may msa malay|fa per fas persian farsi|is ice isl icelandic|' +
    'et est estonian|lv lav latvian|lt lit lithuanian|ca cat catalan|eu baq eus basque|gl glg galician|ta tam tamil|' +
    'te tel telugu|bn ben bengali|ur urd urdu|und undetermined'
  )
    .split('|')
    .flatMap((row) => {
      const names = row.split(' ');
      return names.map((n) => [n, names[0]!]);
    }),
);
const REGION = /^([a-z]{2,3})[-_]([a-z]{2}|[a-z]{4}|\d{3})$/;

/**
 * A language tag as subtitle names carry it (`en`, `eng`, `English`, `pt-BR`, `zh_Hans`), as a
 * lower-case ISO 639-1 code with its region if any (`en`, `pt-br`), or null when it is not one.
 */
export function normalizeLanguage(tag: string): string | null {
  const t = tag.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  if (ISO_639_1.has(t)) return t;
  if (t === 'brazilian') return 'pt-br';
  // Own keys only: a sidecar tagged `constructor` must not find Object.prototype's.
  const named = Object.hasOwn(LANGUAGE_NAMES, t) ? LANGUAGE_NAMES[t] : undefined;
  if (named) return named;
  const region = REGION.exec(t);
  if (region) {
    const primary = ISO_639_1.has(region[1]!) ? region[1]! : Object.hasOwn(LANGUAGE_NAMES, region[1]!) ? LANGUAGE_NAMES[region[1]!] : undefined;
    if (primary) return `${primary}-${region[2]}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Subtitle file names

export interface SubtitleName {
  /** The name before its language and flag tags: a sidecar's video base name; '' for a bare language name (`English.srt`, `2_English.srt`). */
  base: string;
  ext: string;
  language: string | null;
  forced: boolean;
  /** Subtitles for the deaf and hard of hearing: `sdh`, `cc`, or `hi` after a language. */
  sdh: boolean;
}

const FORCED = new Set(['forced', 'foreign']);
const SDH = new Set(['sdh', 'cc']);
const IGNORED_FLAGS = new Set(['default']);
/** Release groups' `Subs/` files: `2_English.srt`, `3_eng_forced.srt`, `English (SDH).srt`. */
const LANGUAGE_ONLY_SEPARATORS = /[\s_()[\]-]+/;

/**
 * `<base>.<lang>[.<forced|sdh|hi|cc>].<ext>` and the bare-language names release groups put in
 * `Subs/` folders. Tags are read from the end: at most one language, any flags; the first word
 * that is neither ends them. `hi` is Hindi on its own and "hearing impaired" after a language.
 */
export function parseSubtitleName(name: string): SubtitleName {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot).toLowerCase() : '';
  const tags = (dot > 0 ? name.slice(0, dot) : name).split('.');
  const out: SubtitleName = { base: '', ext, language: null, forced: false, sdh: false };
  while (tags.length > 1) {
    const t = tags[tags.length - 1]!.toLowerCase();
    const language = out.language === null ? normalizeLanguage(t) : null;
    if (FORCED.has(t)) out.forced = true;
    else if (SDH.has(t) || (t === 'hi' && out.language === null && normalizeLanguage(tags[tags.length - 2]!) !== null)) out.sdh = true;
    else if (language) out.language = language;
    // `default` is a player hint, not part of the base name.
    else if (!IGNORED_FLAGS.has(t)) break;
    tags.pop();
  }
  out.base = tags.join('.');
  if (out.language === null) {
    const words = out.base.split(LANGUAGE_ONLY_SEPARATORS).filter(Boolean);
    if (words.length > 0 && /^\d+$/.test(words[0]!)) words.shift();
    const language = words.length > 0 ? normalizeLanguage(words[0]!) : null;
    const flags = words.slice(1).map((w) => w.toLowerCase());
    if (language && flags.every((f) => FORCED.has(f) || SDH.has(f) || f === 'hi' || IGNORED_FLAGS.has(f))) {
      out.base = '';
      out.language = language;
      out.forced ||= flags.some((f) => FORCED.has(f));
      out.sdh ||= flags.some((f) => SDH.has(f) || f === 'hi');
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The audit

export interface MissingSubtitle {
  path: string;
  kind: 'movie' | 'episode';
  title: string | null;
  season: number | null;
  episode: number | null;
}

export interface SubtitleAudit {
  /** Media files audited: every video in the index that is not an extra or a sample. */
  total: number;
  missing: MissingSubtitle[];
}

/** An audited video and the sidecar subtitles it has. */
export interface CoveredVideo {
  entry: MissingSubtitle;
  sidecars: SubtitleName[];
}

export interface SubtitleCoverage {
  /** In path order. */
  videos: CoveredVideo[];
  /** The languages of full (not forced) sidecars, with and without region: what a language filter can find. */
  languages: Set<string>;
}

interface Video extends CoveredVideo {
  item: IndexItem;
  base: string;
}

interface Folder {
  videos: Video[];
  byBase: Map<string, Video>;
  /** Subtitles beside the videos, in `Subs/`, or in a per-video folder `Subs/<video base>/`. */
  subs: { item: IndexItem; name: string; subfolder: string | null; inSubs: boolean }[];
}

const SUBS_FOLDER = /^(subs|subtitles)$/i;

const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The video a name belongs to: same base name, else the longest video base name the name starts with. */
function ownerByName(folder: Folder, name: string, base: string | null): Video | undefined {
  const lower = name.toLowerCase();
  const exact = base ? folder.byBase.get(base.toLowerCase()) : undefined;
  if (exact) return exact;
  for (let i = lower.length - 1; i > 0; i--) {
    if (/[a-z0-9]/.test(lower[i]!)) continue;
    const v = folder.byBase.get(lower.slice(0, i));
    if (v) return v;
  }
  return undefined;
}

/** The videos a subtitle in a `Subs/` folder belongs to when its names match none. */
function ownersInSubs(folder: Folder, sub: Folder['subs'][number]): Video[] {
  // A release name of the download, after the video was renamed: the episode it names decides.
  const release = sub.subfolder !== null ? parseReleaseName(sub.subfolder) : null;
  const target =
    release?.kind === 'episode'
      ? { season: release.season ?? sub.item.season, episodes: release.episodes }
      : sub.item.episodes.length > 0
        ? sub.item
        : null;
  if (!target) return folder.videos;
  return folder.videos.filter((v) => v.item.season === target.season && v.item.episodes.some((e) => target.episodes.includes(e)));
}

/**
 * Every indexed media file with its sidecar subtitles (CONTRACT.md): a subtitle beside the video
 * whose name starts with the video's base name, or one in a `Subs` / `Subtitles` folder beside it.
 * In a `Subs` folder shared by several videos (a season folder), a subtitle named after one video,
 * in a folder named after it, or naming its episode, belongs to that one; any other belongs to all.
 * Subtitles are told by `library.subtitle_extensions` as it is now, not as the scan typed them.
 */
export function subtitleCoverage(items: readonly IndexItem[], opts: { subtitleExtensions: readonly string[] }): SubtitleCoverage {
  const subtitleExts = new Set(opts.subtitleExtensions);
  const folders = new Map<string, Folder>();
  const folderOf = (dir: string) => {
    let f = folders.get(dir);
    if (!f) folders.set(dir, (f = { videos: [], byBase: new Map(), subs: [] }));
    return f;
  };
  const videos: Video[] = [];
  for (const item of items) {
    if (item.type === 'video' && !item.extra) {
      const dir = dirOf(item.path);
      const name = nameOf(item.path);
      const dot = name.lastIndexOf('.');
      const movie = item.section === 'movies';
      const entry: MissingSubtitle = {
        path: item.path,
        kind: movie ? 'movie' : 'episode',
        title: item.title,
        season: movie ? null : item.season,
        episode: movie ? null : (item.episodes[0] ?? null),
      };
      const v: Video = { entry, sidecars: [], item, base: dot > 0 ? name.slice(0, dot) : name };
      const f = folderOf(dir);
      f.videos.push(v);
      f.byBase.set(v.base.toLowerCase(), v);
      videos.push(v);
    } else if (subtitleExts.has(item.ext)) {
      const name = nameOf(item.path);
      const dir = dirOf(item.path);
      const parent = dirOf(dir);
      if (SUBS_FOLDER.test(nameOf(dir))) folderOf(parent).subs.push({ item, name, subfolder: null, inSubs: true });
      else if (SUBS_FOLDER.test(nameOf(parent))) folderOf(dirOf(parent)).subs.push({ item, name, subfolder: nameOf(dir), inSubs: true });
      else folderOf(dir).subs.push({ item, name, subfolder: null, inSubs: false });
    }
  }

  const languages = new Set<string>();
  for (const folder of folders.values()) {
    if (folder.videos.length === 0) continue;
    for (const sub of folder.subs) {
      const parsed = parseSubtitleName(sub.name);
      const named = sub.subfolder !== null ? ownerByName(folder, sub.subfolder, sub.subfolder) : ownerByName(folder, sub.name, parsed.base);
      const owners = named ? [named] : sub.inSubs ? ownersInSubs(folder, sub) : [];
      for (const v of owners) v.sidecars.push(parsed);
      if (owners.length > 0 && parsed.language && !parsed.forced) languages.add(parsed.language).add(parsed.language.split('-')[0]!);
    }
  }
  videos.sort((a, b) => (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0));
  return { videos, languages };
}

/**
 * The media files without a sidecar subtitle. With a language (as `normalizeLanguage` gives it),
 * only a full subtitle in it counts: a forced one covers foreign dialogue alone, and an untagged
 * one cannot be told.
 */
export function subtitleAudit(coverage: SubtitleCoverage, language: string | null = null): SubtitleAudit {
  const counts = (s: SubtitleName) =>
    language === null || (!s.forced && s.language !== null && (s.language === language || s.language.startsWith(`${language}-`)));
  const missing: MissingSubtitle[] = [];
  for (const v of coverage.videos) if (!v.sidecars.some(counts)) missing.push(v.entry);
  return { total: coverage.videos.length, missing };
}
