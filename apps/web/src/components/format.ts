import type { Schemas } from '@mo/api-client';
import { qualityWords } from '@mo/shared/quality-words';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  let v = n;
  let u = 0;
  while (v >= 1000 && u < UNITS.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 2 : 1)} ${UNITS[u]}`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h ${two(m)}m` : m > 0 ? `${m}m ${two(s % 60)}s` : `${s}s`;
}

export function episodeCode(season: number | null, episodes: readonly number[] | number | null): string {
  const eps = episodes === null ? [] : Array.isArray(episodes) ? episodes : [episodes as number];
  const s = season === null ? '' : `S${String(season).padStart(2, '0')}`;
  return s + eps.map((e) => `E${String(e).padStart(2, '0')}`).join('');
}

/** What a progress bar shows: the fields a transcode's worker reports, worked out for other jobs. */
export type Progress = Pick<NonNullable<Schemas['TranscodeProgress']>, 'percent' | 'speed' | 'eta_seconds'>;

/** ffmpeg's progress (percent done, speed as a multiple of real time) read as percent, speed and ETA. */
export function readProgress(p: unknown): Progress | null {
  if (typeof p === 'number') return { percent: p, speed: null, eta_seconds: null };
  if (typeof p !== 'object' || p === null) return null;
  const o = p as Record<string, unknown>;
  const percent = typeof o.percent === 'number' ? o.percent : null;
  const speed = typeof o.speed === 'number' && o.speed > 0 ? o.speed : null;
  const done = typeof o.out_time_seconds === 'number' ? o.out_time_seconds : null;
  // A transcode's worker reports its own ETA; other jobs' is worked out from percent and speed.
  let eta: number | null = typeof o.eta_seconds === 'number' && o.eta_seconds >= 0 ? o.eta_seconds : null;
  if (eta === null && percent !== null && percent > 0 && speed !== null && done !== null) {
    const total = done / (percent / 100);
    eta = (total - done) / speed;
  }
  return { percent, speed, eta_seconds: eta };
}

/** What a scanner pass, a library scan or an organize apply (`{done, total}`) reports as its progress, in words; null for anything else. */
export function progressNote(p: unknown): string | null {
  if (typeof p !== 'object' || p === null) return null;
  const o = p as Record<string, unknown>;
  if (typeof o.moved === 'number' && typeof o.planned === 'number') return `${o.moved} of ${o.planned} moved`;
  if (typeof o.files === 'number') return `${o.files.toLocaleString('en')} files`;
  if (typeof o.done === 'number' && typeof o.total === 'number') return `${o.done.toLocaleString('en')} of ${o.total.toLocaleString('en')} done`;
  return null;
}

/** The last part of a path: how a person names a file. */
export function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

// ffprobe tags streams with ISO 639-2 codes, bibliographic (ger) or terminologic (deu); Intl names
// languages by their two-letter ISO 639-1 code where one exists.
const ISO_639_2_TO_1: Record<string, string> = {
  eng: 'en',
  jpn: 'ja',
  ger: 'de',
  deu: 'de',
  fre: 'fr',
  fra: 'fr',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  rus: 'ru',
  chi: 'zh',
  zho: 'zh',
  kor: 'ko',
  dut: 'nl',
  nld: 'nl',
  swe: 'sv',
  nor: 'no',
  nob: 'nb',
  nno: 'nn',
  dan: 'da',
  fin: 'fi',
  pol: 'pl',
  cze: 'cs',
  ces: 'cs',
  slo: 'sk',
  slk: 'sk',
  hun: 'hu',
  rum: 'ro',
  ron: 'ro',
  gre: 'el',
  ell: 'el',
  tur: 'tr',
  ara: 'ar',
  heb: 'he',
  hin: 'hi',
  tha: 'th',
  vie: 'vi',
  ind: 'id',
  may: 'ms',
  msa: 'ms',
  ukr: 'uk',
  bul: 'bg',
  hrv: 'hr',
  srp: 'sr',
  slv: 'sl',
  est: 'et',
  lav: 'lv',
  lit: 'lt',
  ice: 'is',
  isl: 'is',
  per: 'fa',
  fas: 'fa',
  cat: 'ca',
  baq: 'eu',
  eus: 'eu',
  glg: 'gl',
  wel: 'cy',
  cym: 'cy',
  gle: 'ga',
  tam: 'ta',
  tel: 'te',
  ben: 'bn',
  urd: 'ur',
  fil: 'fil',
  tgl: 'tl',
  mac: 'mk',
  mkd: 'mk',
  alb: 'sq',
  sqi: 'sq',
  arm: 'hy',
  hye: 'hy',
  geo: 'ka',
  kat: 'ka',
  bos: 'bs',
  lat: 'la',
};

// Codes that name no language: ISO 639-2's "undetermined", "no linguistic content", "multiple".
const NOT_A_LANGUAGE: Record<string, string> = { und: 'Unknown', zxx: 'No language', mul: 'Several languages', mis: 'Unknown' };

let languageNames: Intl.DisplayNames | null | undefined;

/**
 * A stream's language tag as a person names it, in English ("English" for eng or en, "German" for
 * ger or deu); null for no tag. A tag Intl does not know is shown as it is.
 */
export function languageName(code: string | null | undefined): string | null {
  if (!code) return null;
  const c = code.trim().toLowerCase();
  if (NOT_A_LANGUAGE[c]) return NOT_A_LANGUAGE[c];
  const tag = ISO_639_2_TO_1[c] ?? c;
  if (languageNames === undefined) {
    try {
      languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    } catch {
      languageNames = null;
    }
  }
  try {
    return languageNames?.of(tag) ?? code;
  } catch {
    // Not a well-formed language tag (Intl throws): the tag itself is all there is to say.
    return code;
  }
}

// ffprobe's format_name lists every name of the demuxer that read the file ("mov,mp4,m4a,3gp,3g2,mj2").
const CONTAINERS: Record<string, string> = {
  matroska: 'Matroska',
  webm: 'WebM',
  mov: 'MP4',
  mp4: 'MP4',
  avi: 'AVI',
  mpegts: 'MPEG-TS',
  mpeg: 'MPEG-PS',
  asf: 'Windows Media (ASF)',
  flv: 'Flash Video',
  ogg: 'Ogg',
  m4v: 'MP4',
};

/**
 * A container as a person names it: "Matroska" for ffprobe's "matroska,webm" (the demuxer reads
 * both), "MP4" for "mov,mp4,m4a,…"; a name it does not know is shown as ffprobe gave it.
 */
export function containerName(format: string | null | undefined): string | null {
  if (!format) return null;
  const first = format.split(',')[0]!.trim().toLowerCase();
  return CONTAINERS[first] ?? format;
}

const CODECS: Record<string, string> = {
  h264: 'H.264',
  hevc: 'H.265 (HEVC)',
  h265: 'H.265 (HEVC)',
  av1: 'AV1',
  vp9: 'VP9',
  vp8: 'VP8',
  mpeg4: 'MPEG-4 Part 2',
  mpeg2video: 'MPEG-2',
  mpeg1video: 'MPEG-1',
  msmpeg4v3: 'MPEG-4 (DivX 3)',
  vc1: 'VC-1',
  wmv3: 'WMV 9',
  aac: 'AAC',
  ac3: 'Dolby Digital (AC-3)',
  eac3: 'Dolby Digital Plus (E-AC-3)',
  truehd: 'Dolby TrueHD',
  dts: 'DTS',
  mp3: 'MP3',
  mp2: 'MP2',
  flac: 'FLAC',
  opus: 'Opus',
  vorbis: 'Vorbis',
  alac: 'ALAC',
  pcm_s16le: 'PCM',
  pcm_s24le: 'PCM',
  subrip: 'SubRip (SRT)',
  ass: 'ASS',
  ssa: 'SSA',
  webvtt: 'WebVTT',
  mov_text: 'MP4 text',
  hdmv_pgs_subtitle: 'PGS (image)',
  dvd_subtitle: 'VobSub (image)',
  dvb_subtitle: 'DVB (image)',
};

/** A codec as a person names it ("H.264" for h264); one it does not know is shown as ffprobe gave it. */
export function codecName(codec: string | null | undefined): string | null {
  if (!codec) return null;
  return CODECS[codec.toLowerCase()] ?? codec;
}

/** A path cut where it stops mattering: `head` is what a phone leaves out, `tail` what it shows. */
export interface PathParts {
  head: string;
  tail: string;
}

/**
 * The part of `path` worth reading on a narrow screen: below the deepest root it lies in (a drive,
 * the downloads folder), the rest from there; elsewhere, the file name. head + tail is always the
 * whole path, so revealing the head shows it exactly as stored.
 */
export function splitPath(path: string, roots: readonly string[]): PathParts {
  const sep = path.includes('/') ? '/' : '\\';
  let best = '';
  for (const raw of roots) {
    const root = raw.endsWith(sep) ? raw.slice(0, -1) : raw;
    // A root of "/" (or "") would keep the whole path: only a folder below it shortens anything.
    if (root.length > best.length && path.startsWith(root + sep) && path.length > root.length + 1) best = root;
  }
  if (best) return { head: path.slice(0, best.length + 1), tail: path.slice(best.length + 1) };
  const cut = path.lastIndexOf(sep, path.length - 2);
  return cut <= 0 ? { head: '', tail: path } : { head: path.slice(0, cut + 1), tail: path.slice(cut + 1) };
}

/** What a release name says of its quality (GET /api/downloads `media.quality`, duplicate copies). */
export type Quality = NonNullable<Schemas['Downloads']['files'][number]['media']>['quality'];

/** "1080p BluRay x264 · PROPER · GRP", as release names write it; null where the name says nothing of its quality. */
export const qualityLabel = (q: Quality | null | undefined): string | null => (q ? qualityWords(q) : null);
