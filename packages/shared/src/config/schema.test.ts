import { describe, expect, it } from 'vitest';
import {
  configSchema,
  DEFAULT_CONFIG,
  driveSchema,
  drivesSection,
  FLAT_APP_KEYS,
  LOG_LEVELS,
  notificationsSection,
  RUNTIME_SECTIONS,
  settingsPatchSchema,
  VIDEO_ENCODERS,
  type Config,
} from './schema.ts';

/** A deep copy of the defaults with one change applied, for checking one key at a time. */
function withChange(change: (c: Config) => void): unknown {
  const copy = structuredClone(DEFAULT_CONFIG);
  change(copy);
  return copy;
}

function firstIssuePath(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string {
  expect(result.success).toBe(false);
  return result.error!.issues[0]!.path.map(String).join('.');
}

describe('DEFAULT_CONFIG', () => {
  it('is valid against configSchema and parses to itself', () => {
    expect(configSchema.parse(DEFAULT_CONFIG)).toEqual(DEFAULT_CONFIG);
  });

  it('holds the defaults CONTRACT.md lists', () => {
    expect(DEFAULT_CONFIG).toEqual({
      app: {
        dry_run: true,
        scan_interval_seconds: 900,
        settle_seconds: 120,
        watch: true,
        library_scan_max_files: 500000,
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
        video_extensions: ['.mkv', '.mp4', '.m4v', '.avi', '.mov', '.ts', '.m2ts', '.wmv', '.webm', '.mpg', '.mpeg'],
        subtitle_extensions: ['.srt', '.ass', '.ssa', '.vtt', '.sub', '.idx', '.sup'],
        movie_template: '{title} ({year})/{title} ({year}){ext}',
        episode_template: '{series}/Season {season:00}/{series} - S{season:00}E{episode:00}{ext}',
        sample_max_bytes: 52428800,
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
    });
  });
});

describe('RUNTIME_SECTIONS and FLAT_APP_KEYS', () => {
  it('lists the eight runtime sections, without transcoder', () => {
    expect([...RUNTIME_SECTIONS].sort()).toEqual(['app', 'paths', 'library', 'metadata', 'theme', 'drives', 'release_providers', 'notifications'].sort());
    expect(RUNTIME_SECTIONS).not.toContain('transcoder');
  });

  it('every runtime section is a config section and a settings patch section', () => {
    for (const s of RUNTIME_SECTIONS) {
      expect(Object.keys(configSchema.shape)).toContain(s);
      expect(Object.keys(settingsPatchSchema.shape)).toContain(s);
    }
    expect(Object.keys(settingsPatchSchema.shape).sort()).toEqual([...RUNTIME_SECTIONS].sort());
  });

  it('lists the six flat app keys of SPEC.md, all of them app keys, api_key not among them', () => {
    expect([...FLAT_APP_KEYS].sort()).toEqual(
      ['dry_run', 'scan_interval_seconds', 'settle_seconds', 'library_scan_max_files', 'library_scan_timeout_seconds', 'log_level'].sort(),
    );
    for (const k of FLAT_APP_KEYS) expect(Object.keys(DEFAULT_CONFIG.app)).toContain(k);
    expect(FLAT_APP_KEYS).not.toContain('api_key');
  });
});

describe('configSchema', () => {
  it('refuses a missing section', () => {
    const { metadata: _m, ...rest } = DEFAULT_CONFIG;
    expect(firstIssuePath(configSchema.safeParse(rest))).toBe('metadata');
  });

  it('refuses unknown sections and unknown keys', () => {
    const r1 = configSchema.safeParse({ ...DEFAULT_CONFIG, extra: {} });
    expect(r1.success).toBe(false);
    expect(JSON.stringify(r1.error!.issues)).toContain('extra');
    const r2 = configSchema.safeParse(withChange((c) => ((c.app as Record<string, unknown>).dryrun = true)));
    expect(r2.success).toBe(false);
    expect(r2.error!.issues[0]!.path).toEqual(['app']);
    expect(JSON.stringify(r2.error!.issues)).toContain('dryrun');
  });

  it.each([
    ['app.dry_run', (c: Config) => ((c.app as Record<string, unknown>).dry_run = 'yes')],
    ['app.scan_interval_seconds', (c: Config) => (c.app.scan_interval_seconds = -1)],
    ['app.scan_interval_seconds', (c: Config) => (c.app.scan_interval_seconds = 1.5)],
    ['app.settle_seconds', (c: Config) => (c.app.settle_seconds = 31_536_001)],
    ['app.library_scan_max_files', (c: Config) => (c.app.library_scan_max_files = 0)],
    ['app.library_scan_timeout_seconds', (c: Config) => (c.app.library_scan_timeout_seconds = 0)],
    ['app.library_scan_timeout_seconds', (c: Config) => (c.app.library_scan_timeout_seconds = 604_801)],
    ['app.log_level', (c: Config) => ((c.app as Record<string, unknown>).log_level = 'verbose')],
    ['app.api_key', (c: Config) => (c.app.api_key = 'k'.repeat(513))],
    ['app.auth', (c: Config) => ((c.app as { auth: string }).auth = 'open')],
    ['app.allowed_hosts.0', (c: Config) => (c.app.allowed_hosts = ['media.example.org:8080'])],
    ['app.allowed_roots.0', (c: Config) => (c.app.allowed_roots = ['media'])],
    ['app.probe_concurrency', (c: Config) => (c.app.probe_concurrency = 0)],
    ['paths.downloads', (c: Config) => (c.paths.downloads = 'downloads')],
    ['paths.config', (c: Config) => (c.paths.config = '')],
    ['paths.data', (c: Config) => (c.paths.data = '/da\0ta')],
    ['library.movie_folders.0', (c: Config) => (c.library.movie_folders = ['Movies/Old'])],
    ['library.tv_folders.0', (c: Config) => (c.library.tv_folders = ['..'])],
    ['library.video_extensions', (c: Config) => (c.library.video_extensions = [])],
    ['library.video_extensions.0', (c: Config) => (c.library.video_extensions = ['.MKV'])],
    ['library.subtitle_extensions.0', (c: Config) => (c.library.subtitle_extensions = ['srt'])],
    ['library.movie_template', (c: Config) => (c.library.movie_template = '')],
    ['library.sample_max_bytes', (c: Config) => (c.library.sample_max_bytes = -1)],
    ['library.transfer', (c: Config) => ((c.library as Record<string, unknown>).transfer = 'symlink')],
    ['metadata.read_nfo', (c: Config) => ((c.metadata as Record<string, unknown>).read_nfo = 1)],
    ['metadata.identify.0', (c: Config) => ((c.metadata as Record<string, unknown>).identify = ['tvdb'])],
    ['metadata.identify', (c: Config) => (c.metadata.identify = ['tvmaze', 'tvmaze'])],
    ['metadata.identify', (c: Config) => ((c.metadata as Record<string, unknown>).identify = 'tvmaze')],
    ['theme.css_file', (c: Config) => (c.theme.css_file = '/etc/passwd')],
    ['theme.css_file', (c: Config) => (c.theme.css_file = '../outside.css')],
    ['release_providers.tvmaze.url', (c: Config) => (c.release_providers.tvmaze.url = 'ftp://example.com')],
    ['release_providers.tvmaze.url', (c: Config) => (c.release_providers.tvmaze.url = 'not a url')],
    ['transcoder.video_encoder', (c: Config) => ((c.transcoder as Record<string, unknown>).video_encoder = 'libx265')],
    ['transcoder.keep_original', (c: Config) => ((c.transcoder as Record<string, unknown>).keep_original = 'no')],
  ])('refuses a bad %s', (path, change) => {
    expect(firstIssuePath(configSchema.safeParse(withChange(change)))).toBe(path);
  });

  it('accepts every log level and video encoder it lists', () => {
    for (const level of LOG_LEVELS) {
      expect(configSchema.safeParse(withChange((c) => (c.app.log_level = level))).success).toBe(true);
    }
    for (const enc of VIDEO_ENCODERS) {
      expect(configSchema.safeParse(withChange((c) => (c.transcoder.video_encoder = enc))).success).toBe(true);
    }
    expect([...LOG_LEVELS]).toEqual(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
    expect([...VIDEO_ENCODERS]).toEqual(['libx264', 'h264_nvenc', 'h264_qsv', 'h264_vaapi']);
  });

  it('accepts boundary values', () => {
    const edge = withChange((c) => {
      c.app.scan_interval_seconds = 0;
      c.app.settle_seconds = 0;
      c.app.library_scan_max_files = 1;
      c.library.sample_max_bytes = 0;
      c.library.movie_folders = [];
      c.library.subtitle_extensions = [];
      c.theme.css_file = 'themes/dark.css';
      c.release_providers.tvmaze.url = 'http://localhost:8081/api';
    });
    expect(configSchema.safeParse(edge).success).toBe(true);
  });
});

describe('drives', () => {
  it('accepts valid drives and refuses a bad name or a relative path', () => {
    expect(driveSchema.safeParse({ name: 'disk-1.a_b', path: '/media/disk1' }).success).toBe(true);
    expect(firstIssuePath(driveSchema.safeParse({ name: 'disk 1', path: '/media/disk1' }))).toBe('name');
    expect(firstIssuePath(driveSchema.safeParse({ name: '', path: '/media/disk1' }))).toBe('name');
    expect(firstIssuePath(driveSchema.safeParse({ name: 'd'.repeat(65), path: '/m' }))).toBe('name');
    expect(firstIssuePath(driveSchema.safeParse({ name: 'disk1', path: 'media/disk1' }))).toBe('path');
    expect(firstIssuePath(driveSchema.safeParse({ name: 'disk1', path: '/m', extra: 1 }))).toBe('');
  });

  it('refuses duplicate names at the second occurrence', () => {
    const r = drivesSection.safeParse([
      { name: 'a', path: '/a' },
      { name: 'b', path: '/b' },
      { name: 'a', path: '/c' },
    ]);
    expect(firstIssuePath(r)).toBe('2.name');
    expect(r.error!.issues[0]!.message).toContain('"a"');
    expect(
      drivesSection.safeParse([
        { name: 'a', path: '/a' },
        { name: 'A', path: '/b' },
      ]).success,
    ).toBe(true);
  });

  it('refuses more than 64 drives', () => {
    const many = Array.from({ length: 65 }, (_, i) => ({ name: `d${i}`, path: `/d${i}` }));
    expect(drivesSection.safeParse(many).success).toBe(false);
    expect(drivesSection.safeParse(many.slice(0, 64)).success).toBe(true);
  });
});

describe('settingsPatchSchema', () => {
  it('accepts an empty patch and partial sections', () => {
    expect(settingsPatchSchema.parse({})).toEqual({});
    const patch = {
      app: { dry_run: false },
      paths: { downloads: '/dl' },
      library: { sample_max_bytes: 0 },
      metadata: { include_specials: true },
      theme: { css_file: 'x.css' },
      release_providers: { tvmaze: { enabled: true } },
      drives: [{ name: 'disk1', path: '/media/disk1' }],
    };
    expect(settingsPatchSchema.parse(patch)).toEqual(patch);
  });

  it('keeps the field rules of the full config', () => {
    expect(firstIssuePath(settingsPatchSchema.safeParse({ app: { settle_seconds: -1 } }))).toBe('app.settle_seconds');
    expect(firstIssuePath(settingsPatchSchema.safeParse({ paths: { downloads: 'rel' } }))).toBe('paths.downloads');
    expect(firstIssuePath(settingsPatchSchema.safeParse({ library: { video_extensions: [] } }))).toBe('library.video_extensions');
    expect(firstIssuePath(settingsPatchSchema.safeParse({ release_providers: { tvmaze: { url: 'ftp://x.org' } } }))).toBe('release_providers.tvmaze.url');
    expect(
      firstIssuePath(
        settingsPatchSchema.safeParse({
          drives: [
            { name: 'a', path: '/a' },
            { name: 'a', path: '/b' },
          ],
        }),
      ),
    ).toBe('drives.1.name');
  });

  it('refuses transcoder, unknown sections and unknown keys', () => {
    expect(settingsPatchSchema.safeParse({ transcoder: { keep_original: true } }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ nope: {} }).success).toBe(false);
    expect(firstIssuePath(settingsPatchSchema.safeParse({ app: { foo: 1 } }))).toBe('app');
    expect(settingsPatchSchema.safeParse({ release_providers: { other: {} } }).success).toBe(false);
  });
});

describe('notifications section', () => {
  const target = { name: 'tv', kind: 'jellyfin', url: 'http://192.168.1.20:8096', api_key: 'k' };
  const issues = (v: unknown) => {
    const r = notificationsSection.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('takes a private address (media servers live on the home network) and defaults enabled to true', () => {
    expect(notificationsSection.parse({ targets: [target] }).targets[0]).toEqual({ ...target, enabled: true });
  });

  it.each([
    ['ftp://nas/hook', 'targets.0.url'],
    ['file:///etc/passwd', 'targets.0.url'],
    ['not a url', 'targets.0.url'],
  ])('refuses the URL %s', (url, key) => {
    expect(issues({ targets: [{ ...target, url }] })[0]).toMatch(new RegExp(`^${key.replace(/\./g, '\\.')}: `));
  });

  it('refuses an unknown kind, an unknown key and a duplicate name', () => {
    expect(issues({ targets: [{ ...target, kind: 'sonos' }] })[0]).toMatch(/^targets\.0\.kind: /);
    expect(issues({ targets: [{ ...target, password: 'x' }] })[0]).toMatch(/password/);
    expect(issues({ targets: [target, { ...target, kind: 'kodi' }] })).toEqual(['targets.1.name: duplicate target name "tv"']);
  });

  it.each([
    ['jellyfin', 'api_key'],
    ['emby', 'api_key'],
    ['plex', 'token'],
    ['gotify', 'token'],
  ])('a %s target needs %s; kodi and webhook need none', (kind, key) => {
    const { api_key: _omit, ...bare } = target;
    expect(issues({ targets: [{ ...bare, kind }] })).toEqual([`targets.0.${key}: a ${kind} target needs ${key}`]);
    expect(
      issues({
        targets: [
          { ...bare, kind: 'kodi' },
          { ...bare, name: 'w', kind: 'webhook' },
        ],
      }),
    ).toEqual([]);
  });

  it('a discord target needs the whole webhook URL, an ntfy target its topic, an Apprise key the characters apprise-api takes', () => {
    const chat = (t: Record<string, unknown>) => issues({ targets: [{ name: 'c', ...t }] });
    expect(chat({ kind: 'discord', url: 'https://discord.com/api/webhooks/123/tok' })).toEqual([]);
    expect(chat({ kind: 'discord', url: 'https://discord.com/api/webhooks/123' })).toEqual([
      'targets.0.url: a discord target needs the whole webhook URL (…/api/webhooks/<id>/<token>)',
    ]);
    expect(chat({ kind: 'ntfy', url: 'http://10.0.0.9/alerts' })).toEqual([]);
    expect(chat({ kind: 'ntfy', url: 'https://ntfy.sh/' })).toEqual(['targets.0.url: an ntfy target needs the topic in its URL (https://ntfy.sh/<topic>)']);
    expect(chat({ kind: 'apprise', url: 'http://apprise:8000', token: 'media_1' })).toEqual([]);
    expect(chat({ kind: 'apprise', url: 'http://apprise:8000' })).toEqual([]);
    expect(chat({ kind: 'apprise', url: 'http://apprise:8000', token: '../admin' })[0]).toMatch(/^targets\.0\.token: /);
  });

  it('a settings patch may leave the secret out: the saved one is kept', () => {
    const { api_key: _omit, ...bare } = target;
    expect(settingsPatchSchema.safeParse({ notifications: { targets: [bare] } }).success).toBe(true);
  });
});

describe('library.aliases', () => {
  const aliases = (list: unknown) => settingsPatchSchema.safeParse({ library: { aliases: list } });

  it('takes names and series folders as the owner spells them', () => {
    expect(aliases([{ name: 'Sousou no Frieren', series: "Frieren - Beyond Journey's End (2023)" }]).success).toBe(true);
  });

  it('refuses control and invisible formatting characters, a name with no letter or digit, and one name twice', () => {
    for (const bad of [
      [{ name: 'a\u0000b', series: 'x' }],
      [{ name: 'ab', series: 'x\ny' }],
      [{ name: 'ab', series: 'Doctor\u202eWho' }],
      [{ name: '!!!', series: 'x' }],
      [
        { name: 'Dr Who', series: 'Doctor Who (2005)' },
        { name: 'dr who', series: 'Doctor Who (1963)' },
      ],
    ]) {
      const r = aliases(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
    }
  });
});
