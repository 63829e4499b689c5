import { z } from 'zod';
import type { SubtitleExtension, VideoExtension } from '../media/extensions.ts';

// Field schemas carry no defaults: DEFAULT_CONFIG is merged under the TOML and the saved settings
// before validation, so one set of schemas serves the config file, the settings patch and the result.

const absolutePath = z
  .string()
  .min(1)
  .refine((p) => p.startsWith('/') && !p.includes('\0'), { message: 'must be an absolute path' });

const folderName = z
  .string()
  .min(1)
  .refine((n) => !/[/\\\0]/.test(n) && n !== '.' && n !== '..', { message: 'must be a single folder name' });

const extension = z.string().regex(/^\.[a-z0-9]+$/, { message: 'must be a lower-case extension starting with a dot, like ".mkv"' });

const relativeFile = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[/\\]/).includes('..') && !p.includes('\0'), {
    message: 'must be a file name relative to paths.config',
  });

// A Host header's name, without a port: `media.example.org`, `192.168.1.5`, `[::1]`. Both cases are
// spelled out rather than left to a flag: the document's `pattern` carries the source alone.
const hostName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/, { message: 'must be a host name or address, without a port' });

// A reverse proxy's address or network: `10.0.0.5`, `172.16.0.0/12`, `fd00::/8`, `::ffff:10.0.0.1`.
// A /0 would believe every client's X-Forwarded-For, which is no proxy at all.
const proxyAddress = z
  .string()
  .max(64)
  .refine((a) => [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((s) => s.safeParse(a).success), {
    message: 'must be an IP address or a CIDR range, like "10.0.0.5" or "172.16.0.0/12"',
  })
  .refine((a) => !/\/0$/.test(a), { message: "a /0 range trusts every address; name the proxy's address or network" });

/**
 * An origin allowed to frame the web page, as CSP's frame-ancestors takes it: `'self'`, or
 * `http(s)://host[:port]` (a leading `*.` label allowed), nothing after it. The value goes into a
 * response header as it is, so anything beyond this (spaces, `;`, `,`, quotes, a path) is refused.
 */
const frameAncestor = z
  .string()
  .max(300)
  .refine(
    (o) => {
      if (o === "'self'") return true;
      const m = /^https?:\/\/(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(o);
      return m !== null && (m[1] === undefined || (Number(m[1]) >= 1 && Number(m[1]) <= 65535));
    },
    { message: `must be an origin like "https://dash.example.com" or "http://192.168.1.5:8080" (no path, no wildcard but a leading "*."), or 'self'` },
  );

export const AUTH_MODES = ['required', 'local_open'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const VIDEO_ENCODERS = ['libx264', 'h264_nvenc', 'h264_qsv', 'h264_vaapi'] as const;

export const appSection = z.strictObject({
  dry_run: z.boolean(),
  scan_interval_seconds: z.number().int().min(0).max(31_536_000),
  settle_seconds: z.number().int().min(0).max(31_536_000),
  /** Watch the downloads folder and pass once changes settle; the periodic pass stays either way. */
  watch: z.boolean(),
  library_scan_max_files: z.number().int().min(1).max(100_000_000),
  library_scan_timeout_seconds: z.number().int().min(1).max(604_800),
  log_level: z.enum(LOG_LEVELS),
  api_key: z.string().max(512),
  auth: z.enum(AUTH_MODES),
  allowed_hosts: z.array(hostName).max(64),
  /** TOML only: the folders `paths.*` and drive paths set at run time must lie inside. */
  allowed_roots: z.array(absolutePath).max(64),
  /** TOML only: reverse proxies whose X-Forwarded-For names the client (the failure limit, `local_open`). */
  trusted_proxies: z.array(proxyAddress).max(64),
  /** Origins that may show the web page in a frame (dashboards); empty: no page can be framed. */
  frame_ancestors: z.array(frameAncestor).max(32),
  /** How many ffprobe processes one process runs at once. */
  probe_concurrency: z.number().int().min(1).max(32),
});

export const pathsSection = z.strictObject({
  downloads: absolutePath,
  config: absolutePath,
  data: absolutePath,
});

export const driveSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._-]+$/, { message: 'letters, digits, ".", "_" or "-" only' }),
  path: absolutePath,
});

export const drivesSection = z
  .array(driveSchema)
  .max(64)
  .superRefine((drives, ctx) => {
    const seen = new Set<string>();
    drives.forEach((d, i) => {
      if (seen.has(d.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate drive name "${d.name}"` });
      seen.add(d.name);
    });
  });

/** How the scanner puts a download into the library; in `hardlink` and `copy` the download stays for seeding. */
export const TRANSFER_MODES = ['move', 'hardlink', 'copy'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];
/** How a history item came to be: a transfer mode's import, or `rename`, a library file or folder renamed in place (POST /api/library/organize). */
export const HISTORY_MODES = [...TRANSFER_MODES, 'rename'] as const;
export type HistoryMode = (typeof HISTORY_MODES)[number];

/** `[library] upgrades`: `better` replaces a held file with a download that ranks higher; `off` never replaces. */
export const UPGRADE_MODES = ['better', 'off'] as const;

/**
 * A series name as downloads spell it, and the library folder's title it means (`Doctor Who (2005)`):
 * what the owner settled once in a manual import, so the next download goes there by itself.
 */
const aliasText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((t) => !/[\p{Cc}\p{Cf}]/u.test(t), { message: 'must not contain control or invisible formatting characters' })
    .refine((t) => /[\p{L}\p{N}]/u.test(t), { message: 'must hold a letter or a digit' });

export const aliasSchema = z.strictObject({ name: aliasText(200), series: aliasText(255) });

// Two aliases of one name would cancel each other out: the scanner follows neither.
const aliasList = z
  .array(aliasSchema)
  .max(10_000)
  .superRefine((aliases, ctx) => {
    const seen = new Set<string>();
    aliases.forEach((a, i) => {
      const name = a.name.toLowerCase();
      if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate alias name "${a.name}"` });
      seen.add(name);
    });
  });

export const librarySection = z.strictObject({
  movie_folders: z.array(folderName).max(32),
  tv_folders: z.array(folderName).max(32),
  video_extensions: z.array(extension).min(1).max(64),
  subtitle_extensions: z.array(extension).max(64),
  movie_template: z.string().min(1).max(512),
  episode_template: z.string().min(1).max(512),
  sample_max_bytes: z.number().int().min(0),
  transfer: z.enum(TRANSFER_MODES),
  /** `better`: a download that ranks above the library's file of its movie or episode replaces it (the old one to the recycle bin). */
  upgrades: z.enum(UPGRADE_MODES),
  aliases: aliasList,
  /** A library file the service replaces or removes goes to `<drive>/.recycle/<date>/` rather than away. */
  recycle_bin: z.boolean(),
  /** Days a recycled file is kept before the daily purge deletes it; 0: deleted by the next purge. */
  recycle_days: z.number().int().min(0).max(36_500),
});

/** Metadata providers that may settle what the library and aliases cannot; `release_providers.tvmaze` holds the URL. */
export const IDENTIFY_PROVIDERS = ['tvmaze'] as const;
export type IdentifyProvider = (typeof IDENTIFY_PROVIDERS)[number];

export const metadataSection = z.strictObject({
  read_nfo: z.boolean(),
  include_specials: z.boolean(),
  /**
   * Asked for a series the library does not hold and for absolute episode numbers. At most as many
   * as there are providers: with one, that also keeps it from being named twice.
   */
  identify: z.array(z.enum(IDENTIFY_PROVIDERS)).max(IDENTIFY_PROVIDERS.length),
});

export const themeSection = z.strictObject({
  css_file: relativeFile,
});

const httpUrl = z.url({ protocol: /^https?$/ });

export const releaseProvidersSection = z.strictObject({
  tvmaze: z.strictObject({
    enabled: z.boolean(),
    url: httpUrl,
    /** Lets the URL point at a loopback, link-local or private address. */
    allow_private: z.boolean(),
  }),
});

export const pathMapEntry = z.strictObject({ from: absolutePath, to: absolutePath });

export const transcoderSection = z.strictObject({
  video_encoder: z.enum(VIDEO_ENCODERS),
  keep_original: z.boolean(),
  /**
   * For a worker box that mounts the media elsewhere: job paths starting with `from` are read
   * under `to`. Optional rather than defaulted, so configs written before it compare unchanged.
   */
  path_map: z.array(pathMapEntry).max(64).optional(),
});

export const NOTIFY_KINDS = ['jellyfin', 'emby', 'plex', 'kodi', 'webhook', 'discord', 'ntfy', 'gotify', 'apprise'] as const;

/** Which secret each kind cannot work without. */
const REQUIRED_SECRET = { jellyfin: 'api_key', emby: 'api_key', plex: 'token', gotify: 'token' } as const;

/** What the URL of a chat kind must hold, and why, checked on the merged config. */
const URL_SHAPE: Partial<Record<(typeof NOTIFY_KINDS)[number], { path: RegExp; why: string }>> = {
  discord: { path: /\/webhooks\/[^/]+\/[^/]+\/?$/, why: 'a discord target needs the whole webhook URL (…/api/webhooks/<id>/<token>)' },
  ntfy: { path: /\/[^/]+\/?$/, why: 'an ntfy target needs the topic in its URL (https://ntfy.sh/<topic>)' },
};
/** apprise-api's configuration keys: 1 to 128 letters, digits, "_" or "-". */
const APPRISE_KEY = /^[\w-]{1,128}$/;

// Media servers and the self-hosted chat services (ntfy, Gotify, Apprise) live on the home network,
// so unlike the release provider any address is allowed here: only the owner can set these, and
// the sender follows no redirect.
export const notifyTargetSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._-]+$/, { message: 'letters, digits, ".", "_" or "-" only' }),
  kind: z.enum(NOTIFY_KINDS),
  url: httpUrl,
  api_key: z.string().min(1).max(512).optional(),
  token: z.string().min(1).max(512).optional(),
  secret: z.string().min(1).max(512).optional(),
  enabled: z.boolean().default(true),
});

const targetList = z
  .array(notifyTargetSchema)
  .max(32)
  .superRefine((targets, ctx) => {
    const seen = new Set<string>();
    targets.forEach((t, i) => {
      if (seen.has(t.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate target name "${t.name}"` });
      seen.add(t.name);
    });
  });

// A settings patch may leave a secret out (the saved one is kept), so only the merged config must have it.
export const notificationsSection = z.strictObject({
  targets: targetList.superRefine((targets, ctx) => {
    targets.forEach((t, i) => {
      const needed = t.kind in REQUIRED_SECRET ? REQUIRED_SECRET[t.kind as keyof typeof REQUIRED_SECRET] : null;
      if (needed && t[needed] === undefined) ctx.addIssue({ code: 'custom', path: [i, needed], message: `a ${t.kind} target needs ${needed}` });
      const shape = URL_SHAPE[t.kind];
      if (shape && URL.canParse(t.url) && !shape.path.test(new URL(t.url).pathname)) ctx.addIssue({ code: 'custom', path: [i, 'url'], message: shape.why });
      if (t.kind === 'apprise' && t.token !== undefined && !APPRISE_KEY.test(t.token)) {
        ctx.addIssue({ code: 'custom', path: [i, 'token'], message: 'an Apprise configuration key is 1 to 128 letters, digits, "_" or "-"' });
      }
    });
  }),
});

export const configSchema = z.strictObject({
  app: appSection,
  paths: pathsSection,
  drives: drivesSection,
  library: librarySection,
  metadata: metadataSection,
  theme: themeSection,
  release_providers: releaseProvidersSection,
  transcoder: transcoderSection,
  notifications: notificationsSection,
});

export type Config = z.infer<typeof configSchema>;
export type Drive = z.infer<typeof driveSchema>;
export type Alias = z.infer<typeof aliasSchema>;
export type NotifyTarget = z.infer<typeof notifyTargetSchema>;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];
export type AuthMode = (typeof AUTH_MODES)[number];

export const DEFAULT_CONFIG: Config = {
  app: {
    dry_run: true,
    scan_interval_seconds: 900,
    settle_seconds: 120,
    watch: true,
    library_scan_max_files: 500_000,
    library_scan_timeout_seconds: 900,
    log_level: 'info',
    api_key: '',
    auth: 'required',
    allowed_hosts: [],
    allowed_roots: [],
    trusted_proxies: [],
    frame_ancestors: [],
    probe_concurrency: 2,
  },
  paths: { downloads: '/downloads', config: '/config', data: '/data' },
  drives: [],
  library: {
    movie_folders: ['Movies'],
    tv_folders: ['TV', 'TV Shows'],
    video_extensions: ['.mkv', '.mp4', '.m4v', '.avi', '.mov', '.ts', '.m2ts', '.wmv', '.webm', '.mpg', '.mpeg'] satisfies VideoExtension[],
    subtitle_extensions: ['.srt', '.ass', '.ssa', '.vtt', '.sub', '.idx', '.sup'] satisfies SubtitleExtension[],
    movie_template: '{title} ({year})/{title} ({year}){ext}',
    episode_template: '{series}/Season {season:00}/{series} - S{season:00}E{episode:00}{ext}',
    sample_max_bytes: 52_428_800,
    transfer: 'move',
    upgrades: 'better',
    aliases: [],
    recycle_bin: true,
    recycle_days: 30,
  },
  metadata: { read_nfo: true, include_specials: false, identify: [] },
  theme: { css_file: 'custom-theme.css' },
  release_providers: { tvmaze: { enabled: false, url: 'https://api.tvmaze.com', allow_private: false } },
  transcoder: { video_encoder: 'libx264', keep_original: false },
  notifications: { targets: [] },
};

/** The sections `POST /api/settings` may change; `transcoder` is TOML only. */
export const RUNTIME_SECTIONS = ['app', 'paths', 'library', 'metadata', 'theme', 'drives', 'release_providers', 'notifications'] as const;
export type RuntimeSection = (typeof RUNTIME_SECTIONS)[number];

/** The legacy flat keys of SPEC.md, accepted at the top level of a settings body. */
export const FLAT_APP_KEYS = [
  'dry_run',
  'scan_interval_seconds',
  'settle_seconds',
  'library_scan_max_files',
  'library_scan_timeout_seconds',
  'log_level',
] as const;

/**
 * A saved or requested change: every runtime section optional, every key inside it optional;
 * `drives` is replaced whole because a partial list has no clear meaning.
 */
export const settingsPatchSchema = z.strictObject({
  app: appSection.partial().optional(),
  paths: pathsSection.partial().optional(),
  drives: drivesSection.optional(),
  library: librarySection.partial().optional(),
  metadata: metadataSection.partial().optional(),
  theme: themeSection.partial().optional(),
  release_providers: z.strictObject({ tvmaze: releaseProvidersSection.shape.tvmaze.partial().optional() }).optional(),
  /** `targets` is replaced whole, like `drives`. */
  notifications: z.strictObject({ targets: targetList }).partial().optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
