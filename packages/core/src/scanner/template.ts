import { safeName } from './safe-name.ts';

/** What a destination is rendered from: the parse of a download's name. */
export interface TemplateMedia {
  kind: 'movie' | 'episode';
  title: string;
  year: number | null;
  season: number | null;
  episodes: readonly number[];
  air_date: string | null;
  edition: string | null;
  /** Episodes: the series' country code (`US` for The Office (US)), or null. */
  country: string | null;
  /** Episodes: `year` stood after the episode marker (`Young.Sheldon.S07E14.2024`), where it may be the air year. */
  year_after_episode?: boolean;
}

export interface RenderedPath {
  /** Folder names below the library root; the first is the movie's or series' folder. */
  folders: string[];
  /** File name without its extension; sidecars share it. */
  stem: string;
  /** `stem` plus the extension. */
  name: string;
}

/** Room left in a video's file name for the longest sidecar suffix (`.pt-br.forced.sdh.srt`). */
export const SIDECAR_SUFFIX_BYTES = 24;

const TEMPLATE_TOKENS = ['title', 'series', 'year', 'season', 'episode', 'air_date', 'edition', 'ext'] as const;
type Token = (typeof TEMPLATE_TOKENS)[number];

const TOKEN = /\{([a-z_]+)(?::(0+))?\}/g;
// A daily show has no season/episode numbers: its `S{season}E{episode}` part becomes the air date.
const SEASON_EPISODE = /[Ss]?\{season(?::0+)?\}[ ._-]*(?:[Ee][Pp]?|x)?\{episode(?::0+)?\}/;

export class TemplateError extends Error {
  constructor(
    readonly key: string,
    /** What is wrong, without the key. */
    readonly reason: string,
  ) {
    super(`${key}: ${reason}`);
    this.name = 'TemplateError';
  }
}

/** Refuses a template that could not name every file apart; `key` is the config key, for the message. */
export function checkTemplate(template: string, kind: TemplateMedia['kind'], key: string): void {
  const fail = (message: string) => {
    throw new TemplateError(key, message);
  };
  for (const m of template.matchAll(TOKEN)) {
    if (!(TEMPLATE_TOKENS as readonly string[]).includes(m[1]!)) {
      fail(`unknown token {${m[1]}}; known: ${TEMPLATE_TOKENS.map((t) => `{${t}}`).join(' ')}`);
    }
  }
  // A brace the renderer does not replace ("{Title}", "{title:2}", a lone "{") would be left in every name.
  if (/[{}]/.test(template.replace(TOKEN, ''))) fail('has a brace that is not part of a known token like {title} or {season:00}');
  if (!template.endsWith('{ext}') || template.split('{ext}').length !== 2) fail('must end with {ext}, once');
  if (template.startsWith('/') || template.split('/').some((s) => s.trim() === '')) fail('must be a relative path without empty folders');
  if (template.split('/').some((s) => s.trim() === '..' || s.trim() === '.')) fail('must not contain "." or ".." folders');
  if (kind === 'movie' && !template.includes('{title}')) fail('must contain {title}');
  if (kind === 'episode' && !/\{(series|title)\}/.test(template)) fail('must contain {series} or {title}');
  if (kind === 'episode' && !/\{episode(:0+)?\}/.test(template)) fail('must contain {episode}');
}

function pad(n: number, zeros: string | undefined): string {
  return String(n).padStart(zeros?.length ?? 0, '0');
}

/** `01-E03` after an `E`: a contiguous run is a range, anything else is listed (`01E03`). */
function episodeText(episodes: readonly number[], zeros: string | undefined, prefix: string): string {
  const first = episodes[0]!;
  const last = episodes[episodes.length - 1]!;
  if (episodes.length === 1) return pad(first, zeros);
  const contiguous = episodes.every((e, i) => e === first + i);
  if (contiguous) return `${pad(first, zeros)}-${prefix}${pad(last, zeros)}`;
  return episodes.map((e) => pad(e, zeros)).join(prefix || '-');
}

// What a missing value leaves behind: "Title ()" or "Title - " must not become part of a name.
function tidy(s: string): string {
  return s
    .replace(/\(\s*\)|\[\s*\]|\{\s*\}/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s_-]+|[\s_-]+$/g, '');
}

/**
 * As Sonarr names a remade series, so that its folder is the one Sonarr would have made. A new folder
 * without the year would later take the other series of that name (Battlestar.Galactica.1978 into the
 * folder Battlestar.Galactica.2003 made). A template that places `{year}` itself gets the bare title.
 */
function seriesName(media: TemplateMedia, yearToken: boolean): string {
  if (media.country !== null) return `${media.title} (${media.country})`;
  return media.kind === 'episode' && media.year !== null && !yearToken ? `${media.title} (${media.year})` : media.title;
}

function renderSegment(segment: string, media: TemplateMedia, daily: boolean, yearToken: boolean): string {
  const values: Record<Exclude<Token, 'ext' | 'episode'>, string> = {
    title: media.title,
    series: seriesName(media, yearToken),
    year: media.year === null ? '' : String(media.year),
    season: '',
    air_date: media.air_date ?? '',
    edition: media.edition ?? '',
  };
  return tidy(
    segment.replace(TOKEN, (_all, name: Token, zeros: string | undefined, offset: number) => {
      if (name === 'season') {
        const season = daily ? Number(media.air_date!.slice(0, 4)) : media.season;
        return season === null ? '' : pad(season, zeros);
      }
      if (name === 'episode') {
        if (daily) return media.air_date!;
        if (media.episodes.length === 0) return '';
        const prefix = /([Ee][Pp]?)$/.exec(segment.slice(0, offset))?.[1] ?? '';
        return episodeText(media.episodes, zeros, prefix);
      }
      return values[name as keyof typeof values];
    }),
  );
}

/**
 * The library-relative destination of a download, every segment made safe. The template must have
 * passed `checkTemplate`; `ext` is the file's own extension, lower-case with its dot.
 */
export function renderTemplate(template: string, media: TemplateMedia, ext: string): RenderedPath {
  const daily = media.kind === 'episode' && media.episodes.length === 0 && media.air_date !== null;
  const source = daily ? template.replace(SEASON_EPISODE, '{air_date}') : template;
  const segments = source.slice(0, -'{ext}'.length).split('/');
  const yearToken = /\{year(?::0+)?\}/.test(source);
  const rendered = segments.map((s) => renderSegment(s, media, daily, yearToken));
  const folders = rendered.slice(0, -1).map((s) => safeName(s));
  const stem = safeName(rendered[rendered.length - 1]!, { reserveBytes: SIDECAR_SUFFIX_BYTES + Buffer.byteLength(ext) });
  return { folders, stem, name: stem + ext };
}
