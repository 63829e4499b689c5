// What a download is, decided as Sonarr decides it against its series list: the parser proposes
// readings (parse/readings.ts), and the library's folders, the owner's aliases and (when enabled)
// the metadata provider say which one is meant. A reading is taken when it is the only one that
// something confirms; the parser's own reading, confirmed by nothing, still makes a new folder,
// unless a library folder's title is near it. Everything else is refused with the readings as
// candidates, for the owner to settle with `Import as…`. Pure: the provider's answers are asked
// for beforehand (`ProviderAnswers`).
import type { ParsedMedia } from '../parse/release-name.ts';
import { readingsOf } from '../parse/readings.ts';
import { isLanguageToken } from '../parse/vocabulary.ts';
import { folderTitleKey } from '../library/title-match.ts';
import { identityOf } from '../parse/title-key.ts';
import type { AliasedSeries, AliasTable } from './aliases.ts';
import type { ExistingFolder, Section } from './choose-drive.ts';
import type { FolderLookup, NearFolder } from './folder-lookup.ts';
import { nearness } from './near-title.ts';
import { toTemplateMedia } from './recognise.ts';
import type { TemplateMedia } from './template.ts';

/** A show as the provider names it. */
export interface ProviderSeries extends AliasedSeries {
  id: number;
}

/** Answers of the metadata provider fetched before the plan; null: unknown, or not fetched yet (then asked for). */
export interface ProviderAnswers {
  /** The series a title names, with its canonical title and year, when exactly one show fits. */
  series(title: string, year: number | null, country: string | null): ProviderSeries | null;
  /** The season and episodes that absolute numbers of that series are, when the episode list says. */
  absolute(series: ProviderSeries, absolute: readonly number[]): { season: number; episodes: number[] } | null;
}

/** One reading the scanner weighed, with the library folder it fits (the first, where a show spans drives). */
export interface Reading {
  media: ParsedMedia;
  folder: ExistingFolder | null;
  /** What confirmed it: a library folder, an alias, the provider; null: nothing. */
  via: 'library' | 'alias' | 'provider' | null;
}

export type Identified =
  | { ok: true; media: TemplateMedia; folders: ExistingFolder[]; readings: Reading[] }
  | { ok: false; reason: 'unrecognized' | 'ambiguous'; detail: string; readings: Reading[] };

export interface IdentifyContext {
  folders: FolderLookup;
  aliases: AliasTable;
  provider?: ProviderAnswers;
  /** How a refusal's detail names a folder (its absolute path); absent: its name. */
  folderName?: (folder: ExistingFolder) => string;
}

interface Weighed {
  media: ParsedMedia;
  folders: ExistingFolder[];
  ambiguous: boolean;
  via: Reading['via'];
  /** The show it was confirmed as: a folder's or the alias's or provider's series. */
  show: string | null;
}

const sectionOf = (m: ParsedMedia): Section => (m.kind === 'movie' ? 'movies' : 'tv');

const folderId = (f: ExistingFolder) => identityOf(folderTitleKey(f.name));

const describe = (m: ParsedMedia): string => {
  const numbers =
    m.season !== null && m.episodes.length > 0
      ? ` S${String(m.season).padStart(2, '0')}${m.episodes.map((e) => `E${String(e).padStart(2, '0')}`).join('')}`
      : m.absolute_episodes.length > 0
        ? ` absolute ${m.absolute_episodes.join(', ')}`
        : m.air_date !== null
          ? ` ${m.air_date}`
          : '';
  return `"${m.title}"${m.year !== null ? ` (${m.year})` : ''}${numbers}`;
};

/** The same movie or episode: two readings that agree on everything a destination is made of. */
const sameMeaning = (a: ParsedMedia, b: ParsedMedia) =>
  a.season === b.season && a.episodes.join() === b.episodes.join() && a.absolute_episodes.join() === b.absolute_episodes.join() && a.air_date === b.air_date;

function renamed(m: ParsedMedia, s: AliasedSeries): ParsedMedia {
  return { ...m, title: s.title, year: s.year, country: s.country, year_after_episode: false };
}

/** An absolute-only episode of a confirmed series, numbered by the provider's episode list. */
function numbered(w: Weighed, ctx: IdentifyContext): Weighed {
  const m = w.media;
  if (!ctx.provider || m.kind !== 'episode' || m.season !== null || m.absolute_episodes.length === 0) return w;
  const series = ctx.provider.series(m.title, m.year, m.country);
  const mapped = series && ctx.provider.absolute(series, m.absolute_episodes);
  return mapped ? { ...w, media: { ...m, season: mapped.season, episodes: mapped.episodes } } : w;
}

function weigh(m: ParsedMedia, ctx: IdentifyContext): Weighed {
  const section = sectionOf(m);
  const alias = m.kind === 'episode' ? ctx.aliases(m.title, m.year, m.country) : null;
  const media = alias ? renamed(m, alias) : m;
  const fit = ctx.folders.find(section, media);
  if (fit.folders.length > 0) {
    const show = fit.kind === 'ambiguous' ? null : folderId(fit.folders[0]!);
    return { media, folders: fit.folders, ambiguous: fit.kind === 'ambiguous', via: alias ? 'alias' : 'library', show };
  }
  if (alias) return { media, folders: [], ambiguous: false, via: 'alias', show: JSON.stringify(alias) };
  return { media, folders: [], ambiguous: false, via: null, show: null };
}

/** A series the library does not hold, named by the provider (its folder, if the library has it under that name). */
function byProvider(w: Weighed, ctx: IdentifyContext): Weighed {
  if (!ctx.provider || w.media.kind !== 'episode') return w;
  const series = ctx.provider.series(w.media.title, w.media.year, w.media.country);
  if (!series) return w;
  const media = renamed(w.media, series);
  const fit = ctx.folders.find('tv', media);
  if (fit.folders.length > 0)
    return {
      media,
      folders: fit.folders,
      ambiguous: fit.kind === 'ambiguous',
      via: 'provider',
      show: fit.kind === 'ambiguous' ? null : folderId(fit.folders[0]!),
    };
  return { media, folders: [], ambiguous: false, via: 'provider', show: JSON.stringify(series) };
}

const nameOf = (f: ExistingFolder, ctx: IdentifyContext) => ctx.folderName?.(f) ?? f.name;

/** The readings as a refusal's detail says them: each with the library folder it fits. */
const readingsText = (list: readonly Weighed[], ctx: IdentifyContext) =>
  list.map((w) => `${describe(w.media)}${w.folders[0] ? ` in ${nameOf(w.folders[0], ctx)}` : ''}`).join(' or ');

/** A refusal's reason, and the readings weighed where there were several: what `Import as…` offers. */
function withReadings(detail: string, weighed: readonly Weighed[], ctx: IdentifyContext): string {
  return weighed.length < 2 ? detail : `${detail}; it reads as ${readingsText(weighed, ctx)}`;
}

const readingOf = (w: Weighed): Reading => ({ media: w.media, folder: w.folders[0] ?? null, via: w.via });

/** Every folder of an ambiguous fit as a reading of its own, so each can be picked. */
function spread(list: readonly Weighed[]): Reading[] {
  return list.flatMap((w) => (w.folders.length > 1 && w.ambiguous ? w.folders.map((f) => ({ media: w.media, folder: f, via: w.via })) : [readingOf(w)]));
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'from', 'in', 'into', 'nor', 'of', 'on', 'or', 'the', 'to', 'vs', 'with']);

/**
 * A title all in lower case, as some releases write them (`the.bear.s02e01`), in title case for the
 * folder it names (`The Bear`): the way every other folder of the library is spelled. A title
 * with any capital is the release's own spelling and is kept.
 */
export function titleCase(title: string): string {
  if (title !== title.toLowerCase() || title === title.toUpperCase()) return title;
  let first = true;
  return title.replace(/\p{L}[\p{L}\p{N}'’]*/gu, (word) => {
    const keep = !first && SMALL_WORDS.has(word);
    first = false;
    return keep ? word : word[0]!.toUpperCase() + word.slice(1);
  });
}

/** `refusal`: the parser's, where it refused the name, said rather than what the reading lacks. */
function accept(w: Weighed, weighed: readonly Weighed[], ctx: IdentifyContext, refusal: string | null = null): Identified {
  const template = toTemplateMedia(w.media);
  if (!template.ok) return { ok: false, reason: 'unrecognized', detail: withReadings(refusal ?? template.detail, weighed, ctx), readings: spread(weighed) };
  const media = w.folders.length === 0 && w.via === null ? { ...template.media, title: titleCase(template.media.title) } : template.media;
  return { ok: true, media, folders: w.folders, readings: spread(weighed) };
}

/**
 * The near folders that no other near folder's title holds: beside `Show Name`, `Show` is near
 * `Show Name - Tem 1` only through the words the closer folder has too.
 */
function closest(near: readonly NearFolder[]): NearFolder[] {
  const keys = near.map((n) => folderTitleKey(n.folder.name).key);
  return near.filter((_, i) => !keys.some((k, j) => j !== i && nearness(k, keys[i]!)?.longer === 'name'));
}

/** `longer` is `movie`'s title with a language word added: the other reading of a word before the year. */
function languageTail(movie: ParsedMedia, longer: ParsedMedia): boolean {
  if (movie.kind !== 'movie' || longer.kind !== 'movie' || movie.year !== longer.year || !longer.title.startsWith(`${movie.title} `)) return false;
  return isLanguageToken(longer.title.slice(movie.title.length + 1).toLowerCase());
}

/** A reading that makes a new folder (the parser's own, or the provider's): unless a library folder is near it. */
function newFolder(w: Weighed, weighed: readonly Weighed[], ctx: IdentifyContext): Identified {
  const template = toTemplateMedia(w.media);
  if (!template.ok) return accept(w, weighed, ctx);
  // `Show.Name.2010.123`: read as a movie of 2010, but the library has the series of that name.
  const series = w.media.kind === 'movie' ? ctx.folders.find('tv', { ...template.media, year_after_episode: false }) : null;
  if (series && series.folders.length > 0) {
    return {
      ok: false,
      reason: 'ambiguous',
      detail: `read as the movie ${describe(w.media)}, but the library has a series of that title: ${series.folders.map((f) => nameOf(f, ctx)).join(', ')}`,
      readings: spread(weighed),
    };
  }
  // `The.Good.German.2006` beside `Noah.German.2014`: a language word before the year ends a title as
  // often as it tags a release, and nothing in the library says which.
  const longer = weighed.find((o) => o !== w && languageTail(w.media, o.media));
  if (longer) {
    return {
      ok: false,
      reason: 'ambiguous',
      detail: `the movie may be ${describe(w.media)} or ${describe(longer.media)}: a language word before the year ends a title as often as it tags a release`,
      readings: spread(weighed),
    };
  }
  const near = closest(ctx.folders.near(sectionOf(w.media), template.media));
  if (near.length === 0) return accept(w, weighed, ctx);
  const shows = new Set(near.map((n) => folderId(n.folder)));
  if (shows.size === 1 && near.every((n) => n.marker)) {
    return accept({ ...w, folders: near.map((n) => n.folder), via: 'library', show: [...shows][0]! }, weighed, ctx);
  }
  // The name's own reading first: what is left over is no marker, so another show is the likelier.
  const readings = [readingOf(w), ...near.map((n) => ({ media: w.media, folder: n.folder, via: 'library' as const }))];
  return {
    ok: false,
    reason: 'ambiguous',
    detail: `library folders near ${describe(w.media)}: ${near.map((n) => nameOf(n.folder, ctx)).join(', ')}; a new folder beside them may split one show`,
    readings,
  };
}

export function identify(rel: string, ctx: IdentifyContext): Identified {
  const { primary, alternatives } = readingsOf(rel);
  const all = primary.ok ? [primary.media, ...alternatives] : alternatives;
  if (all.length === 0) return { ok: false, reason: 'unrecognized', detail: primary.ok ? '' : primary.detail, readings: [] };
  let weighed = all.map((m) => weigh(m, ctx));
  if (!weighed.some((w) => w.via !== null)) weighed = weighed.map((w) => byProvider(w, ctx));
  weighed = weighed.map((w) => (w.via === null ? w : numbered(w, ctx)));
  const confirmed = weighed.filter((w) => w.via !== null);

  if (confirmed.length === 0) {
    if (!primary.ok) return { ok: false, reason: 'unrecognized', detail: withReadings(primary.detail, weighed, ctx), readings: spread(weighed) };
    return newFolder(weighed[0]!, weighed, ctx);
  }
  const ambiguous = confirmed.find((w) => w.ambiguous);
  if (ambiguous) {
    const where = ambiguous.folders.map((f) => nameOf(f, ctx)).join(', ');
    const detail = ambiguous.media.year_after_episode
      ? `the year ${ambiguous.media.year} after the episode number may be an air year; library folders of the title: ${where}`
      : `library folders that fit: ${where}`;
    return { ok: false, reason: 'ambiguous', detail, readings: spread(weighed) };
  }
  const shows = new Set(confirmed.map((w) => w.show));
  const meanings = confirmed.filter((w, i) => confirmed.findIndex((o) => sameMeaning(o.media, w.media)) === i);
  if (shows.size > 1 || meanings.length > 1) {
    return {
      ok: false,
      reason: 'ambiguous',
      detail: `the name reads as ${readingsText(confirmed, ctx)}`,
      readings: spread(weighed),
    };
  }
  const chosen = confirmed[0]!;
  // The provider's name for a series the library lacks is no more a reason to split a show than the release's.
  return chosen.via === 'provider' && chosen.folders.length === 0
    ? newFolder(chosen, weighed, ctx)
    : accept(chosen, weighed, ctx, primary.ok ? null : primary.detail);
}
