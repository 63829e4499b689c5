import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config, type SettingsPatch } from '@mo/shared';
import { ConfigError, effectiveConfig, loadFileConfig, readConfigFile, validateFileConfig } from './load.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'config-load-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeToml(text: string, name = 'config.toml'): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

/** Loads `text` and returns the ConfigError it must raise. */
async function loadError(text: string): Promise<{ file: string; err: ConfigError }> {
  const file = await writeToml(text);
  const err = await loadFileConfig(file).then(
    () => {
      throw new Error('expected a ConfigError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return { file, err: err as ConfigError };
}

// CONTRACT.md's example, verbatim: the defaults plus one drive.
const CONTRACT_EXAMPLE = `[app]
dry_run = true                      # safe by default
scan_interval_seconds = 900         # 0 = no periodic scanner passes
settle_seconds = 120                # a download must be unchanged this long before it is moved
library_scan_max_files = 500000
library_scan_timeout_seconds = 900
log_level = "info"                  # pino levels
api_key = ""                        # secret; empty: a key is generated into <paths.data>/api_key
auth = "required"                   # or "local_open": loopback clients need no key or session
allowed_hosts = []                  # when set, the only Host names the API answers to (plus loopback)
allowed_roots = []                  # TOML-only; see "Decided for the hardening work"

[paths]
downloads = "/downloads"
config = "/config"                  # holds custom-theme.css
data = "/data"                      # holds state.json and the cached index

[[drives]]                          # zero or more media drives
name = "disk1"
path = "/media/disk1"               # its direct children Movies, TV, TV Shows are the library

[library]
movie_folders = ["Movies"]
tv_folders = ["TV", "TV Shows"]
video_extensions = [".mkv", ".mp4", ".m4v", ".avi", ".mov", ".ts", ".m2ts", ".wmv", ".webm", ".mpg", ".mpeg"]
subtitle_extensions = [".srt", ".ass", ".ssa", ".vtt", ".sub", ".idx", ".sup"]
movie_template = "{title} ({year})/{title} ({year}){ext}"
episode_template = "{series}/Season {season:00}/{series} - S{season:00}E{episode:00}{ext}"
sample_max_bytes = 52428800         # a video this size or smaller is a sample; 0 = no size rule

[metadata]
read_nfo = true                     # Kodi .nfo files feed series/episode metadata
include_specials = false            # season 0 in missing-episode reports

[theme]
css_file = "custom-theme.css"       # relative to paths.config

[release_providers.tvmaze]          # public, keyless; off unless enabled
enabled = false
url = "https://api.tvmaze.com"
allow_private = false

[transcoder]                        # TOML only, not a runtime section
video_encoder = "libx264"           # or h264_nvenc, h264_qsv, h264_vaapi
keep_original = false
`;

// Every key of every section, each set to something other than its default.
const EVERY_KEY_TOML = `[app]
dry_run = false
scan_interval_seconds = 0
settle_seconds = 30
watch = false
library_scan_max_files = 1000
library_scan_timeout_seconds = 60
log_level = "debug"
api_key = "s3cret"
auth = "local_open"
allowed_hosts = ["media.example.org"]
allowed_roots = ["/srv"]
trusted_proxies = ["172.16.0.0/12", "::1"]
frame_ancestors = ["https://dash.example.org", "'self'"]
probe_concurrency = 4

[paths]
downloads = "/srv/downloads"
config = "/srv/config"
data = "/srv/data"

[[drives]]
name = "disk1"
path = "/media/disk1"

[[drives]]
name = "disk_2"
path = "/media/disk 2"

[library]
movie_folders = ["Films"]
tv_folders = ["Series", "Shows"]
video_extensions = [".mkv"]
subtitle_extensions = []
movie_template = "{title}{ext}"
episode_template = "{series}/{series} {season}x{episode}{ext}"
sample_max_bytes = 0
transfer = "copy"
upgrades = "off"
recycle_bin = false
recycle_days = 0

[metadata]
read_nfo = false
include_specials = true
identify = ["tvmaze"]

[theme]
css_file = "themes/dark.css"

[release_providers.tvmaze]
enabled = true
url = "http://tvmaze.local:8080/api"
allow_private = true

[transcoder]
video_encoder = "h264_vaapi"
keep_original = true

[[notifications.targets]]
name = "living-room"
kind = "jellyfin"
url = "http://192.168.1.20:8096"
api_key = "jf-key"

[[notifications.targets]]
name = "hook"
kind = "webhook"
url = "https://hooks.example.org/mo"
secret = "hook-secret"
enabled = false
`;

const EVERY_KEY_CONFIG: Config = {
  app: {
    dry_run: false,
    scan_interval_seconds: 0,
    settle_seconds: 30,
    watch: false,
    library_scan_max_files: 1000,
    library_scan_timeout_seconds: 60,
    log_level: 'debug',
    api_key: 's3cret',
    auth: 'local_open',
    allowed_hosts: ['media.example.org'],
    allowed_roots: ['/srv'],
    trusted_proxies: ['172.16.0.0/12', '::1'],
    frame_ancestors: ['https://dash.example.org', "'self'"],
    probe_concurrency: 4,
  },
  paths: { downloads: '/srv/downloads', config: '/srv/config', data: '/srv/data' },
  drives: [
    { name: 'disk1', path: '/media/disk1' },
    { name: 'disk_2', path: '/media/disk 2' },
  ],
  library: {
    movie_folders: ['Films'],
    tv_folders: ['Series', 'Shows'],
    video_extensions: ['.mkv'],
    subtitle_extensions: [],
    movie_template: '{title}{ext}',
    episode_template: '{series}/{series} {season}x{episode}{ext}',
    sample_max_bytes: 0,
    transfer: 'copy',
    upgrades: 'off',
    aliases: [],
    recycle_bin: false,
    recycle_days: 0,
  },
  metadata: { read_nfo: false, include_specials: true, identify: ['tvmaze'] },
  theme: { css_file: 'themes/dark.css' },
  release_providers: { tvmaze: { enabled: true, url: 'http://tvmaze.local:8080/api', allow_private: true } },
  transcoder: { video_encoder: 'h264_vaapi', keep_original: true },
  notifications: {
    targets: [
      { name: 'living-room', kind: 'jellyfin', url: 'http://192.168.1.20:8096', api_key: 'jf-key', enabled: true },
      { name: 'hook', kind: 'webhook', url: 'https://hooks.example.org/mo', secret: 'hook-secret', enabled: false },
    ],
  },
};

describe('readConfigFile', () => {
  it('returns {} for a missing file', async () => {
    expect(await readConfigFile(path.join(dir, 'absent.toml'))).toEqual({});
  });

  it('returns the parsed TOML', async () => {
    const file = await writeToml('[app]\ndry_run = false\n');
    expect(await readConfigFile(file)).toEqual({ app: { dry_run: false } });
  });

  it('refuses a path that is a folder with a ConfigError naming it', async () => {
    const err = await readConfigFile(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toContain(dir);
  });
});

describe('loadFileConfig', () => {
  it('gives exactly DEFAULT_CONFIG for a missing file, as a copy', async () => {
    const config = await loadFileConfig(path.join(dir, 'missing.toml'));
    expect(config).toEqual(DEFAULT_CONFIG);
    config.library.movie_folders.push('Changed');
    config.app.dry_run = false;
    expect(DEFAULT_CONFIG.library.movie_folders).toEqual(['Movies']);
    expect(DEFAULT_CONFIG.app.dry_run).toBe(true);
  });

  it('gives DEFAULT_CONFIG for an empty file', async () => {
    expect(await loadFileConfig(await writeToml(''))).toEqual(DEFAULT_CONFIG);
  });

  it("reads CONTRACT.md's example as the defaults plus its drive", async () => {
    expect(await loadFileConfig(await writeToml(CONTRACT_EXAMPLE))).toEqual({
      ...DEFAULT_CONFIG,
      drives: [{ name: 'disk1', path: '/media/disk1' }],
    });
  });

  it('round-trips every section and key of the example set to non-default values', async () => {
    expect(await loadFileConfig(await writeToml(EVERY_KEY_TOML))).toEqual(EVERY_KEY_CONFIG);
  });

  it('keeps the defaults of every key a partial file leaves out', async () => {
    const config = await loadFileConfig(
      await writeToml('[app]\nsettle_seconds = 5\n\n[library]\nmovie_folders = ["Films"]\n\n[release_providers.tvmaze]\nenabled = true\n'),
    );
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      app: { ...DEFAULT_CONFIG.app, settle_seconds: 5 },
      library: { ...DEFAULT_CONFIG.library, movie_folders: ['Films'] },
      release_providers: { tvmaze: { enabled: true, url: 'https://api.tvmaze.com', allow_private: false } },
    });
  });

  it('reads [[drives]] tables in order, replacing the default list', async () => {
    const config = await loadFileConfig(
      await writeToml('[[drives]]\nname = "a"\npath = "/mnt/a"\n\n[[drives]]\nname = "b"\npath = "/mnt/b"\n\n[[drives]]\nname = "c"\npath = "/mnt/c"\n'),
    );
    expect(config.drives).toEqual([
      { name: 'a', path: '/mnt/a' },
      { name: 'b', path: '/mnt/b' },
      { name: 'c', path: '/mnt/c' },
    ]);
    expect(config.app).toEqual(DEFAULT_CONFIG.app);
  });

  it('accepts an inline drives array too', async () => {
    const config = await loadFileConfig(await writeToml('drives = [{ name = "x", path = "/x" }]\n'));
    expect(config.drives).toEqual([{ name: 'x', path: '/x' }]);
  });

  it('refuses invalid TOML syntax, naming the file and the line', async () => {
    const { file, err } = await loadError('[app]\ndry_run = true\nsettle_seconds = = 3\n');
    expect(err.file).toBe(file);
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/line 3\b/);
  });

  it('refuses an unclosed table header, naming the line', async () => {
    const { file, err } = await loadError('# comment\n\n\n[app\ndry_run = true\n');
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/line 4\b/);
  });

  it('refuses a wrong type, naming the file and app.dry_run', async () => {
    const { file, err } = await loadError('[app]\ndry_run = "yes"\n');
    expect(err.file).toBe(file);
    expect(err.key).toBe('app.dry_run');
    expect(err.message).toContain(file);
    expect(err.message).toContain('app.dry_run');
  });

  it('refuses a float where an integer is needed', async () => {
    const { err } = await loadError('[app]\nsettle_seconds = 1.5\n');
    expect(err.message).toContain('app.settle_seconds');
  });

  it('refuses an unknown key, naming it', async () => {
    const { file, err } = await loadError('[app]\ndryrun = true\n');
    expect(err.message).toContain(file);
    expect(err.key).toBe('app.dryrun');
    expect(err.message).toContain('at app.dryrun: unknown key');
  });

  it('refuses an unknown section, naming it', async () => {
    const { file, err } = await loadError('[scanner]\ninterval = 5\n');
    expect(err.message).toContain(file);
    expect(err.key).toBe('scanner');
  });

  it('refuses a __proto__ key as unknown instead of treating it as the prototype', async () => {
    const { err } = await loadError('[app]\n__proto__ = { dry_run = false }\n');
    expect(err.key).toBe('app.__proto__');
  });

  it('refuses an unknown release provider, naming it', async () => {
    const { err } = await loadError('[release_providers.thetvdb]\nenabled = true\n');
    expect(err.message).toContain('thetvdb');
  });

  it('refuses a relative path, naming paths.downloads', async () => {
    const { file, err } = await loadError('[paths]\ndownloads = "downloads"\n');
    expect(err.key).toBe('paths.downloads');
    expect(err.message).toContain(file);
    expect(err.message).toContain('paths.downloads');
  });

  it('refuses a relative drive path, naming drives.0.path', async () => {
    const { err } = await loadError('[[drives]]\nname = "a"\npath = "media/a"\n');
    expect(err.message).toContain('drives.0.path');
  });

  it('refuses duplicate drive names, naming drives.1.name', async () => {
    const { file, err } = await loadError('[[drives]]\nname = "disk1"\npath = "/a"\n\n[[drives]]\nname = "disk1"\npath = "/b"\n');
    expect(err.key).toBe('drives.1.name');
    expect(err.message).toContain(file);
    expect(err.message).toContain('drives.1.name');
    expect(err.message).toContain('disk1');
  });

  it('refuses a bad log_level, naming app.log_level', async () => {
    const { file, err } = await loadError('[app]\nlog_level = "verbose"\n');
    expect(err.key).toBe('app.log_level');
    expect(err.message).toContain(file);
    expect(err.message).toContain('app.log_level');
  });

  it('refuses a bad video_encoder, naming transcoder.video_encoder', async () => {
    const { file, err } = await loadError('[transcoder]\nvideo_encoder = "libx265"\n');
    expect(err.key).toBe('transcoder.video_encoder');
    expect(err.message).toContain(file);
    expect(err.message).toContain('transcoder.video_encoder');
  });

  it.each([
    ['movie_template = "{title}"', 'library.movie_template', 'must end with {ext}'],
    ['movie_template = "../{title}{ext}"', 'library.movie_template', '".."'],
    ['episode_template = "{series}/{Season}{ext}"', 'library.episode_template', 'brace'],
  ])('refuses a template no pass could use (%s), naming the key', async (line, key, why) => {
    const { file, err } = await loadError(`[library]\n${line}\n`);
    expect(err.key).toBe(key);
    expect(err.message).toContain(file);
    expect(err.message).toContain(why);
  });

  it.each([
    ['trusted_proxies = ["10.0.0.0/8", "proxy.lan"]', 'app.trusted_proxies.1', 'IP address or a CIDR range'],
    ['trusted_proxies = ["10.0.0.0/33"]', 'app.trusted_proxies.0', 'IP address or a CIDR range'],
    ['trusted_proxies = ["0.0.0.0/0"]', 'app.trusted_proxies.0', 'trusts every address'],
    ['frame_ancestors = ["https://dash.example.org/organizr"]', 'app.frame_ancestors.0', 'origin'],
  ])('refuses %s, naming the entry and the file', async (line, key, why) => {
    const { file, err } = await loadError(`[app]\n${line}\n`);
    expect(err.key).toBe(key);
    expect(err.message).toContain(file);
    expect(err.message).toContain(why);
  });

  it('refuses a section given as a scalar', async () => {
    const { err } = await loadError('app = 5\n');
    expect(err.message).toContain('app');
  });
});

describe('validateFileConfig', () => {
  it('merges a raw object over the defaults', () => {
    expect(validateFileConfig('/x.toml', { metadata: { read_nfo: false } }).metadata).toEqual({
      read_nfo: false,
      include_specials: false,
      identify: [],
    });
  });

  it('throws a ConfigError carrying the file and the key', () => {
    let err: unknown;
    try {
      validateFileConfig('/etc/mo.toml', { app: { scan_interval_seconds: -1 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).file).toBe('/etc/mo.toml');
    expect((err as ConfigError).key).toBe('app.scan_interval_seconds');
    expect((err as ConfigError).message).toMatch(/^invalid config \/etc\/mo\.toml at app\.scan_interval_seconds: /);
  });
});

describe('effectiveConfig', () => {
  const fileConfig: Config = {
    ...DEFAULT_CONFIG,
    app: { ...DEFAULT_CONFIG.app, settle_seconds: 60, scan_interval_seconds: 300 },
    drives: [{ name: 'toml', path: '/toml' }],
  };

  it('puts saved settings over the file config, over the defaults', () => {
    const saved: SettingsPatch = { app: { settle_seconds: 30 }, drives: [{ name: 'saved', path: '/saved' }] };
    const config = effectiveConfig(fileConfig, saved);
    expect(config.app.settle_seconds).toBe(30);
    expect(config.app.scan_interval_seconds).toBe(300);
    expect(config.app.library_scan_max_files).toBe(500000);
    expect(config.drives).toEqual([{ name: 'saved', path: '/saved' }]);
  });

  it('gives the file config unchanged for no saved settings, without mutating it', () => {
    const before = structuredClone(fileConfig);
    expect(effectiveConfig(fileConfig, {})).toEqual(fileConfig);
    effectiveConfig(fileConfig, { app: { dry_run: false } });
    expect(fileConfig).toEqual(before);
  });

  it('refuses invalid saved settings', () => {
    expect(() => effectiveConfig(fileConfig, { app: { settle_seconds: -1 } })).toThrow();
    expect(() => effectiveConfig(fileConfig, { transcoder: {} } as SettingsPatch)).toThrow();
  });
});
