import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config, type SettingsPatch } from '@mo/shared';
import { AppError } from '../errors.ts';
import { mergeSettings, settingsPatchFromBody } from './settings.ts';

/** Runs `fn`, which must throw a bad_request AppError, and returns that error. */
function badRequest(fn: () => unknown): AppError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('bad_request');
  return err as AppError;
}

const refusedBody = (body: unknown) => badRequest(() => settingsPatchFromBody(body));

describe('settingsPatchFromBody', () => {
  it('accepts an empty object as an empty patch', () => {
    expect(settingsPatchFromBody({})).toEqual({});
  });

  it('accepts the nested form of every runtime section', () => {
    const body = {
      app: { dry_run: false, settle_seconds: 30, log_level: 'warn', auth: 'required', probe_concurrency: 4 },
      paths: { downloads: '/dl', config: '/cfg' },
      drives: [
        { name: 'disk1', path: '/media/disk1' },
        { name: 'disk2', path: '/media/disk2' },
      ],
      library: { movie_folders: ['Films'], video_extensions: ['.mkv'], sample_max_bytes: 0 },
      metadata: { read_nfo: false, identify: ['tvmaze'] },
      theme: { css_file: 'dark.css' },
      release_providers: { tvmaze: { enabled: true, url: 'https://tvmaze.example/api' } },
    };
    expect(settingsPatchFromBody(body)).toEqual(body);
  });

  it('accepts the flat legacy form of all six app keys, moving them into app', () => {
    const flat = {
      dry_run: false,
      scan_interval_seconds: 0,
      settle_seconds: 30,
      library_scan_max_files: 10,
      library_scan_timeout_seconds: 20,
      log_level: 'debug',
    };
    expect(settingsPatchFromBody(flat)).toEqual({ app: flat });
  });

  it('accepts a mixed form, merging flat keys into the nested app section', () => {
    expect(
      settingsPatchFromBody({
        dry_run: false,
        app: { settle_seconds: 10 },
        metadata: { include_specials: true },
      }),
    ).toEqual({ app: { settle_seconds: 10, dry_run: false }, metadata: { include_specials: true } });
  });

  it('does not mutate the body', () => {
    const body = { dry_run: false, app: { settle_seconds: 10 } };
    const copy = structuredClone(body);
    settingsPatchFromBody(body);
    expect(body).toEqual(copy);
  });

  it('refuses an unknown top-level key, naming it', () => {
    const err = refusedBody({ dryrun: false });
    expect(err.message).toMatch(/^dryrun\b/);
  });

  it('refuses an unknown top-level key even beside valid ones', () => {
    const err = refusedBody({ app: { dry_run: false }, colour: 'red' });
    expect(err.message).toMatch(/^colour\b/);
  });

  it('refuses an unknown key inside a section, naming the section and the key', () => {
    const err = refusedBody({ app: { foo: 1 } });
    expect(err.message).toBe('app.foo: unknown key');
  });

  it('refuses an unknown key deeper down, naming its section', () => {
    const err = refusedBody({ release_providers: { tvmaze: { enabled: true, apikey: 'x' } } });
    expect(err.message).toBe('release_providers.tvmaze.apikey: unknown key');
  });

  it.each([
    [{ app: { settle_seconds: '30' } }, 'app.settle_seconds'],
    [{ settle_seconds: '30' }, 'app.settle_seconds'],
    [{ settle_seconds: 1.5 }, 'app.settle_seconds'],
    [{ dry_run: 'false' }, 'app.dry_run'],
    [{ dry_run: 0 }, 'app.dry_run'],
    [{ log_level: 'loud' }, 'app.log_level'],
    [{ app: { api_key: 42 } }, 'app.api_key'],
    [{ metadata: { read_nfo: 'yes' } }, 'metadata.read_nfo'],
    [{ metadata: { identify: 'tvmaze' } }, 'metadata.identify'],
    [{ metadata: { identify: ['tvdb'] } }, 'metadata.identify.0'],
    [{ metadata: { identify: ['tvmaze', 'tvmaze'] } }, 'metadata.identify'],
    [{ library: { movie_folders: 'Movies' } }, 'library.movie_folders'],
    [{ library: { video_extensions: ['mkv'] } }, 'library.video_extensions.0'],
    [{ theme: { css_file: '../../etc/passwd' } }, 'theme.css_file'],
    [{ paths: { downloads: 'relative/dir' } }, 'paths.downloads'],
    [{ release_providers: { tvmaze: { url: 'file:///etc/passwd' } } }, 'release_providers.tvmaze.url'],
    [{ app: 'dry' }, 'app'],
    [{ app: null }, 'app'],
    [{ drives: { name: 'a', path: '/a' } }, 'drives'],
  ])('refuses a wrong type or value %j, naming %s', (body, key) => {
    const err = refusedBody(body);
    expect(err.message.startsWith(`${key}:`)).toBe(true);
  });

  it.each([
    ['scan_interval_seconds', -1],
    ['settle_seconds', -5],
    ['library_scan_max_files', -1],
    ['library_scan_timeout_seconds', -60],
  ])('refuses a negative %s, flat or nested', (key, value) => {
    expect(refusedBody({ [key]: value }).message.startsWith(`app.${key}:`)).toBe(true);
    expect(refusedBody({ app: { [key]: value } }).message.startsWith(`app.${key}:`)).toBe(true);
  });

  it('refuses a negative library.sample_max_bytes', () => {
    expect(refusedBody({ library: { sample_max_bytes: -1 } }).message).toMatch(/^library\.sample_max_bytes:/);
  });

  it('lists every issue in details, the first one in the message', () => {
    const err = refusedBody({ app: { settle_seconds: -1, dry_run: 'no' } });
    const issues = (err.details as { issues: { path: string }[] }).issues.map((i) => i.path).sort();
    expect(issues).toEqual(['app.dry_run', 'app.settle_seconds']);
    expect(err.message.split(':')[0]).toMatch(/^app\.(dry_run|settle_seconds)$/);
  });

  it('refuses transcoder as a TOML-only section', () => {
    const err = refusedBody({ transcoder: { keep_original: true } });
    expect(err.message).toMatch(/^transcoder\b/);
    expect(err.message).toContain('config file');
  });

  it('refuses paths.data, even with other valid paths', () => {
    const err = refusedBody({ paths: { downloads: '/dl', data: '/elsewhere' } });
    expect(err.message).toMatch(/^paths\.data\b/);
  });

  it.each(['dry_run', 'settle_seconds', 'log_level'] as const)('refuses %s given both flat and inside app, even with the same value', (key) => {
    const value = { dry_run: false, settle_seconds: 30, log_level: 'info' }[key];
    const err = refusedBody({ [key]: value, app: { [key]: value } });
    expect(err.message).toMatch(new RegExp(`^app\\.${key}\\b`));
  });

  it('refuses a flat key beside an app that is not an object', () => {
    expect(refusedBody({ dry_run: false, app: [] }).message).toMatch(/^app\b/);
    expect(refusedBody({ dry_run: false, app: 'x' }).message).toMatch(/^app\b/);
  });

  it.each([
    ['an array', [{ dry_run: false }]],
    ['null', null],
    ['a string', '{"dry_run": false}'],
    ['a number', 42],
    ['a boolean', true],
    ['undefined', undefined],
  ])('refuses a body that is %s', (_what, body) => {
    refusedBody(body);
  });

  it.each([
    [{ app: { api_key: 'k3y' } }, 'app.api_key'],
    [{ app: { api_key: '' } }, 'app.api_key'],
    [{ dry_run: false, app: { api_key: 'k3y' } }, 'app.api_key'],
    [{ app: { allowed_roots: ['/'] } }, 'app.allowed_roots'],
    [{ app: { allowed_roots: [] } }, 'app.allowed_roots'],
    [{ app: { trusted_proxies: ['10.0.0.0/8'] } }, 'app.trusted_proxies'],
    [{ app: { trusted_proxies: [] } }, 'app.trusted_proxies'],
    [{ release_providers: { tvmaze: { allow_private: true } } }, 'release_providers.tvmaze.allow_private'],
    [{ release_providers: { tvmaze: { url: 'http://127.0.0.1', allow_private: false } } }, 'release_providers.tvmaze.allow_private'],
  ])('refuses %j: %s can only be set in the config file', (body, key) => {
    const err = refusedBody(body);
    expect(err.message).toBe(`${key}: can only be set in the config file`);
    expect(err.details).toEqual({ key });
  });

  it.each([['https://dash.example.com'], ['http://192.168.1.5:8080'], ['https://*.example.com'], ['http://[fd00::5]:3000'], ["'self'"]])(
    'takes %s as a frame ancestor',
    (origin) => {
      expect(settingsPatchFromBody({ app: { frame_ancestors: [origin] } })).toEqual({ app: { frame_ancestors: [origin] } });
    },
  );

  it.each([
    ['a path', 'https://dash.example.com/organizr'],
    ['a trailing slash', 'https://dash.example.com/'],
    ['a query', 'https://dash.example.com?x'],
    ['a wildcard', '*'],
    ['a scheme alone', 'https:'],
    ['a wildcard port', 'https://dash.example.com:*'],
    ['a wildcard inside', 'https://dash.*.com'],
    ['another scheme', 'javascript://x'],
    ['a second directive', "https://dash.example.com; script-src 'unsafe-inline'"],
    ['a list in one entry', 'https://a.example.com https://b.example.com'],
    ['a comma', 'https://a.example.com,https://b.example.com'],
    ['a new line', 'https://a.example.com\nX-Injected: 1'],
    ['a quoted keyword', "'unsafe-inline'"],
    ['none', "'none'"],
    ['a port out of range', 'http://192.168.1.5:70000'],
    ['credentials', 'https://user:pw@dash.example.com'],
    ['nothing', ''],
  ])('refuses %s as a frame ancestor, naming the entry', (_what, origin) => {
    const err = refusedBody({ app: { frame_ancestors: ['https://ok.example.com', origin] } });
    expect(err.message).toMatch(/^app\.frame_ancestors\.1: must be an origin/);
  });

  it('refuses a flat api_key as an unknown key', () => {
    const err = refusedBody({ api_key: 'k3y' });
    expect(err.message).toMatch(/^api_key\b/);
    expect(err.message).toContain('unknown');
  });

  it('validates the drives list, naming drives.0.path', () => {
    expect(refusedBody({ drives: [{ name: 'a', path: 'media/a' }] }).message).toMatch(/^drives\.0\.path:/);
    expect(refusedBody({ drives: [{ name: 'bad name', path: '/a' }] }).message).toMatch(/^drives\.0\.name:/);
    expect(refusedBody({ drives: [{ name: 'a' }] }).message).toMatch(/^drives\.0\.path:/);
    expect(
      refusedBody({
        drives: [
          { name: 'a', path: '/a' },
          { name: 'a', path: '/b' },
        ],
      }).message,
    ).toMatch(/^drives\.1\.name:/);
    expect(refusedBody({ drives: [{ name: 'a', path: '/a', size: 1 }] }).message).toMatch(/^drives\.0\b/);
  });

  it('accepts an empty drives list', () => {
    expect(settingsPatchFromBody({ drives: [] })).toEqual({ drives: [] });
  });
});

describe('mergeSettings', () => {
  const fileConfig: Config = {
    ...DEFAULT_CONFIG,
    drives: [{ name: 'toml', path: '/toml' }],
  };

  it('merges a patch into the saved settings key by key', () => {
    const saved: SettingsPatch = { app: { dry_run: false, settle_seconds: 10 }, metadata: { read_nfo: false } };
    const next = mergeSettings(fileConfig, saved, { app: { settle_seconds: 20 }, theme: { css_file: 'a.css' } });
    expect(next).toEqual({
      app: { dry_run: false, settle_seconds: 20 },
      metadata: { read_nfo: false },
      theme: { css_file: 'a.css' },
    });
  });

  describe('notification targets', () => {
    const jf = { name: 'jf', kind: 'jellyfin', url: 'http://10.0.0.2:8096', enabled: true } as const;

    it('keeps the saved secret of a target sent back without it, by name, and replaces the list whole', () => {
      const saved: SettingsPatch = {
        notifications: {
          targets: [
            { ...jf, api_key: 'old-key' },
            { name: 'wh', kind: 'webhook', url: 'http://h/x', secret: 's', enabled: true },
          ],
        },
      };
      const next = mergeSettings(fileConfig, saved, { notifications: { targets: [{ ...jf, enabled: false }] } });
      expect(next.notifications).toEqual({ targets: [{ ...jf, enabled: false, api_key: 'old-key' }] });
    });

    it('takes a new secret over the saved one, and keeps those of the config file when nothing is saved', () => {
      const file: Config = { ...fileConfig, notifications: { targets: [{ ...jf, api_key: 'file-key' }] } };
      expect(mergeSettings(file, {}, { notifications: { targets: [{ ...jf, api_key: 'new' }] } }).notifications?.targets?.[0]?.api_key).toBe('new');
      expect(mergeSettings(file, {}, { notifications: { targets: [jf] } }).notifications?.targets?.[0]?.api_key).toBe('file-key');
    });

    it('keeps the credentials of a URL sent back as GET /api/config shows it, and takes a changed URL as sent', () => {
      const kodi = { name: 'kd', kind: 'kodi', url: 'http://kodi:pw@10.0.0.4:8080/', enabled: true } as const;
      const hook = { name: 'go', kind: 'webhook', url: 'https://gotify.lan/message?token=T0k&priority=5', enabled: true } as const;
      const saved: SettingsPatch = { notifications: { targets: [kodi, hook] } };
      const back = mergeSettings(fileConfig, saved, {
        notifications: {
          targets: [
            { ...kodi, url: 'http://10.0.0.4:8080/', enabled: false },
            { ...hook, url: 'https://gotify.lan/message?priority=5' },
          ],
        },
      });
      expect(back.notifications?.targets?.map((t) => t.url)).toEqual([kodi.url, hook.url]);
      const moved = mergeSettings(fileConfig, saved, { notifications: { targets: [{ ...kodi, url: 'http://10.0.0.5:8080/' }] } });
      expect(moved.notifications?.targets?.[0]?.url).toBe('http://10.0.0.5:8080/');
    });

    it('keeps a Discord webhook token and an ntfy topic when the URL comes back as GET /api/config shows it', () => {
      const dc = { name: 'dc', kind: 'discord', url: 'https://discord.com/api/webhooks/1/T0k', enabled: true } as const;
      const nt = { name: 'nt', kind: 'ntfy', url: 'https://ntfy.sh/topic-x', enabled: true } as const;
      const saved: SettingsPatch = { notifications: { targets: [dc, nt] } };
      const back = mergeSettings(fileConfig, saved, {
        notifications: {
          targets: [
            { ...dc, url: 'https://discord.com/api/webhooks/1' },
            { ...nt, url: 'https://ntfy.sh/' },
          ],
        },
      });
      expect(back.notifications?.targets?.map((t) => t.url)).toEqual([dc.url, nt.url]);
    });

    it('refuses a new jellyfin target without an api_key, naming the key', () => {
      const err = badRequest(() => mergeSettings(fileConfig, {}, { notifications: { targets: [jf] } }));
      expect(err.message).toBe('notifications.targets.0.api_key: a jellyfin target needs api_key');
    });
  });

  it('merges release_providers.tvmaze key by key', () => {
    const next = mergeSettings(
      fileConfig,
      { release_providers: { tvmaze: { url: 'https://mirror.example' } } },
      { release_providers: { tvmaze: { enabled: true } } },
    );
    expect(next).toEqual({ release_providers: { tvmaze: { url: 'https://mirror.example', enabled: true } } });
  });

  it('replaces drives whole', () => {
    const saved: SettingsPatch = {
      drives: [
        { name: 'a', path: '/a' },
        { name: 'b', path: '/b' },
      ],
    };
    expect(mergeSettings(fileConfig, saved, { drives: [{ name: 'c', path: '/c' }] }).drives).toEqual([{ name: 'c', path: '/c' }]);
    expect(mergeSettings(fileConfig, saved, { drives: [] }).drives).toEqual([]);
    expect(mergeSettings(fileConfig, saved, { app: { dry_run: false } }).drives).toEqual(saved.drives);
  });

  it('does not mutate the saved settings or the patch', () => {
    const saved: SettingsPatch = { app: { settle_seconds: 10 }, drives: [{ name: 'a', path: '/a' }] };
    const patch: SettingsPatch = { app: { dry_run: false }, drives: [] };
    const savedCopy = structuredClone(saved);
    const patchCopy = structuredClone(patch);
    mergeSettings(fileConfig, saved, patch);
    expect(saved).toEqual(savedCopy);
    expect(patch).toEqual(patchCopy);
  });

  it('refuses a patch that is invalid only once checked against the whole config, naming the key', () => {
    // mergeSettings does not trust its patch: a value that skipped settingsPatchFromBody is caught here.
    const err = badRequest(() => mergeSettings(fileConfig, { app: { dry_run: false } }, { app: { settle_seconds: -1 } } as SettingsPatch));
    expect(err.message).toMatch(/^app\.settle_seconds:/);
  });

  it('refuses when the saved settings themselves no longer validate after merging', () => {
    // e.g. a hand-edited state.json; the patch alone is fine.
    const saved = { paths: { downloads: 'relative' } } as SettingsPatch;
    const err = badRequest(() => mergeSettings(fileConfig, saved, { app: { dry_run: false } }));
    expect(err.message).toMatch(/^paths\.downloads:/);
  });

  it('refuses duplicate drives in the merged result', () => {
    const err = badRequest(() =>
      mergeSettings(
        fileConfig,
        {},
        {
          drives: [
            { name: 'x', path: '/x' },
            { name: 'x', path: '/y' },
          ],
        },
      ),
    );
    expect(err.message).toMatch(/^drives\.1\.name:/);
  });

  it('refuses transcoder smuggled into a patch', () => {
    const err = badRequest(() => mergeSettings(fileConfig, {}, { transcoder: { keep_original: true } } as unknown as SettingsPatch));
    expect(err.message).toContain('transcoder');
  });
});
