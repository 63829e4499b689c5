import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';

// POST /api/settings: what the schema accepts may still reach outside the library; each such
// setting is a 400 naming the key, and state.json stays byte for byte as it was.

let t: TestApp;
let stateFile: string;
let before: string;

beforeEach(async () => {
  t = await testApp();
  stateFile = join(t.install.paths.data, 'state.json');
  // A saved setting first, so that "unchanged" is about a file that exists.
  expect((await post({ settle_seconds: 7 })).status).toBe(200);
  before = await readFile(stateFile, 'utf8');
});
afterEach(() => t.close());

function post(body: unknown) {
  return t.app.request('/api/settings', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
}

async function expectRefused(body: unknown, key: string, why?: RegExp) {
  const res = await post(body);
  expect(res.status).toBe(400);
  const { error } = errorBodySchema.parse(await res.json());
  expect(error.code).toBe('bad_request');
  expect(error.message.startsWith(`${key}: `)).toBe(true);
  if (why) expect(error.message).toMatch(why);
  expect(error.details).toMatchObject({ key });
  expect(await readFile(stateFile, 'utf8')).toBe(before);
  expect(t.config.current().app.settle_seconds).toBe(7);
}

describe('POST /api/settings refuses what reaches outside the library', () => {
  it.each([
    [{ app: { api_key: 'mine-now' } }, 'app.api_key'],
    [{ app: { allowed_roots: ['/'] } }, 'app.allowed_roots'],
    [{ release_providers: { tvmaze: { allow_private: true } } }, 'release_providers.tvmaze.allow_private'],
  ])('%j: config-file-only key %s', async (body, key) => {
    await expectRefused(body, key, /only be set in the config file/);
  });

  it.each([
    [{ paths: { config: '/' }, theme: { css_file: 'etc/shadow' } }, 'paths.config', /root folder/],
    [{ paths: { downloads: '/etc' } }, 'paths.downloads', /\/etc, a system folder/],
    [{ paths: { downloads: '/var/lib/docker' } }, 'paths.downloads', /\/var\/lib/],
    [{ paths: { downloads: '/home' } }, 'paths.downloads', /outside the allowed roots/],
    [{ drives: [{ name: 'py', path: '/usr/lib/python3/dist-packages' }] }, 'drives.0.path', /\/usr/],
    [{ drives: [{ name: 'l', path: '/lib64' }] }, 'drives.0.path', /\/lib64/],
  ])('%j names %s', async (body, key, why) => {
    await expectRefused(body, key, why);
  });

  it('refuses pointing the stylesheet, which anyone may fetch, at the API key', async () => {
    await expectRefused({ paths: { config: t.install.paths.data }, theme: { css_file: 'api_key' } }, 'paths.config', /paths\.data/);
    await expectRefused({ theme: { css_file: 'api_key' } }, 'theme.css_file', /\.css/);
    const css = await t.anonymous('/api/theme/custom.css');
    expect(await css.text()).toBe('');
  });

  it('refuses a path inside the roots that a symlink leads out of', async () => {
    await symlink('/etc', join(t.install.paths.downloads, 'etc'));
    await expectRefused({ paths: { downloads: join(t.install.paths.downloads, 'etc') } }, 'paths.downloads', /\/etc/);
    await symlink(t.install.root + '/..', join(t.install.paths.downloads, 'up'));
    await expectRefused({ drives: [{ name: 'x', path: join(t.install.paths.downloads, 'up', 'x') }] }, 'drives.0.path', /outside the allowed roots/);
  });

  it('accepts paths inside the roots, and a new drive beside the config file’s', async () => {
    const disk2 = join(t.install.root, 'media', 'disk2');
    await mkdir(join(t.install.paths.downloads, 'complete'));
    const res = await post({
      paths: { downloads: join(t.install.paths.downloads, 'complete') },
      drives: [
        { name: 'disk1', path: t.install.paths.drive },
        { name: 'disk2', path: disk2 },
      ],
    });
    expect(res.status).toBe(200);
    expect(t.config.current().drives.map((d) => d.path)).toEqual([t.install.paths.drive, disk2]);
  });

  it.each([
    [{ library: { video_extensions: ['.mkv', '.pth'] } }, 'library.video_extensions.1'],
    [{ library: { video_extensions: ['.so'] } }, 'library.video_extensions.0'],
    [{ library: { subtitle_extensions: ['.srt', '.desktop'] } }, 'library.subtitle_extensions.1'],
    [{ library: { subtitle_extensions: ['.nfo'] } }, 'library.subtitle_extensions.0'],
  ])('%j names %s', async (body, key) => {
    await expectRefused(body, key);
  });

  it.each([
    [{ library: { movie_template: '{title}' } }, 'library.movie_template', /must end with \{ext\}/],
    [{ library: { movie_template: '{title}{extension}' } }, 'library.movie_template', /unknown token/],
    [{ library: { movie_template: '../../{title}{ext}' } }, 'library.movie_template', /"\.\."/],
    [{ library: { movie_template: '/etc/{title}{ext}' } }, 'library.movie_template', /relative path/],
    [{ library: { movie_template: '{year}{ext}' } }, 'library.movie_template', /\{title\}/],
    [{ library: { episode_template: '{season}{episode}{ext}' } }, 'library.episode_template', /\{series\}/],
  ])('%j names %s (a template that would fail every pass)', async (body, key, why) => {
    await expectRefused(body, key, why);
  });

  it.each([
    'http://127.0.0.1:6379/',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost:8080/',
    'http://[::1]/',
    'http://2130706433/',
    'http://10.0.0.1/',
  ])('refuses the provider URL %s', async (url) => {
    await expectRefused({ release_providers: { tvmaze: { enabled: true, url } } }, 'release_providers.tvmaze.url', /not a public address/);
  });

  it('refuses a downloads folder inside a library folder, also when the running config holds the other half', async () => {
    await expectRefused({ paths: { downloads: join(t.install.paths.drive, 'Movies') } }, 'paths.downloads', /lies in the library folder/);
    const incoming = join(t.install.paths.drive, 'Incoming');
    expect((await post({ paths: { downloads: incoming } })).status).toBe(200);
    before = await readFile(stateFile, 'utf8');
    await expectRefused({ library: { tv_folders: ['TV', 'Incoming'] } }, 'library.tv_folders', /lies in the library folder/);
    expect(t.config.current().paths.downloads).toBe(incoming);
  });

  it('refuses a drive set to the data folder, or any overlap of the drives, downloads, config and data folders', async () => {
    const { data, config, drive } = t.install.paths;
    await expectRefused(
      {
        drives: [
          { name: 'disk1', path: drive },
          { name: 'state', path: data },
        ],
      },
      'drives.1.path',
      / is paths\.data .*state\.json and the API key/,
    );
    await expectRefused(
      {
        drives: [
          { name: 'disk1', path: drive },
          { name: 'twice', path: `${drive}/` },
        ],
      },
      'drives.1.path',
      / is drives\.0\.path /,
    );
    await expectRefused({ paths: { downloads: data } }, 'paths.downloads', / is paths\.data /);
    await expectRefused({ paths: { downloads: join(config, 'incoming') } }, 'paths.downloads', / lies in paths\.config /);
    expect(t.config.current().drives.map((d) => d.path)).toEqual([drive]);
  });

  it('saves nothing of a body with one refused key among good ones', async () => {
    await expectRefused(
      { dry_run: false, library: { video_extensions: ['.mkv', '.exe'] }, metadata: { include_specials: true } },
      'library.video_extensions.1',
    );
    expect(t.config.current().app.dry_run).toBe(true);
    expect(t.config.current().metadata.include_specials).toBe(false);
  });
});

describe('POST /api/settings says every refusal in a sentence a person reads', () => {
  const sentences = async (body: unknown) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const { error } = errorBodySchema.parse(await res.json());
    expect(error.code).toBe('bad_request');
    expect(await readFile(stateFile, 'utf8')).toBe(before);
    return (error.details as { key: string; issues: { path: string; message: string; sentence: string }[] }).issues.map((i) => [i.path, i.sentence]);
  };

  it('lists each field the schema refuses, nested or flat, with its label and no validator text', async () => {
    expect(await sentences({ app: { scan_interval_seconds: -1, dry_run: 'yes' }, settle_seconds: 'soon', library: { transfer: 'teleport' } })).toEqual([
      ['app.dry_run', 'Dry run must be true or false.'],
      ['app.scan_interval_seconds', 'Scan interval must be a whole number of seconds, 0 or more.'],
      ['library.transfer', 'Import by must be one of "move", "hardlink" or "copy".'],
      ['app.settle_seconds', 'Settle time must be a whole number of seconds, from 0 to 31,536,000.'],
    ]);
  });

  it('says the rules checked after the schema, and a key only the config file sets, after the field’s label', async () => {
    expect(await sentences({ paths: { downloads: '/etc' }, theme: { css_file: 'theme.txt' } })).toEqual([
      ['paths.downloads', expect.stringMatching(/^Downloads folder.* \/etc, a system folder.*\.$/)],
      ['theme.css_file', 'Stylesheet file must name a .css file.'],
    ]);
    expect(await sentences({ app: { api_key: 'mine-now' } })).toEqual([['app.api_key', 'API key can only be set in the config file.']]);
  });
});

describe('POST /api/settings: metadata.identify', () => {
  it('turns TVmaze look-ups on and off at run time, saved like any setting', async () => {
    expect((await post({ metadata: { identify: ['tvmaze'] } })).status).toBe(200);
    expect(t.config.current().metadata.identify).toEqual(['tvmaze']);
    expect(await readFile(stateFile, 'utf8')).toContain('"identify"');
    expect((await post({ metadata: { identify: [] } })).status).toBe(200);
    expect(t.config.current().metadata.identify).toEqual([]);
  });

  it.each([
    [{ metadata: { identify: ['tvdb'] } }, 'metadata.identify.0'],
    [{ metadata: { identify: 'tvmaze' } }, 'metadata.identify'],
    [{ metadata: { identify: ['tvmaze', 'tvmaze'] } }, 'metadata.identify'],
  ])('%j names %s', async (body, key) => {
    await expectRefused(body, key);
  });
});

describe('POST /api/settings with a config file that allows private provider addresses', () => {
  it('accepts a LAN provider URL', async () => {
    await t.close();
    t = await testApp({ toml: '[release_providers.tvmaze]\nallow_private = true\n' });
    const res = await post({ release_providers: { tvmaze: { url: 'http://127.0.0.1:8080' } } });
    expect(res.status).toBe(200);
    expect(t.config.current().release_providers.tvmaze.url).toBe('http://127.0.0.1:8080');
  });
});

describe('notification targets', () => {
  const jf = { name: 'living-room', kind: 'jellyfin', url: 'http://192.168.1.20:8096', api_key: 'jf-key-111' };
  const wh = { name: 'hook', kind: 'webhook', url: 'http://10.0.0.9:9000/mo', secret: 'hook-sec-444' };
  const kd = { name: 'kodi', kind: 'kodi', url: 'http://kodi:kodi-pw-333@127.0.0.1:8080' };

  it('takes private addresses, and shows the targets in /api/config and the answer without a secret', async () => {
    const res = await post({ notifications: { targets: [jf, wh, kd] } });
    expect(res.status).toBe(200);
    const answer = JSON.stringify(await res.json());
    const config = await (await t.app.request('/api/config')).json();
    expect(config.notifications.targets).toEqual([
      { name: 'living-room', kind: 'jellyfin', url: 'http://192.168.1.20:8096', enabled: true },
      { name: 'hook', kind: 'webhook', url: 'http://10.0.0.9:9000/mo', enabled: true },
      { name: 'kodi', kind: 'kodi', url: 'http://127.0.0.1:8080/', enabled: true },
    ]);
    for (const secret of ['jf-key-111', 'hook-sec-444', 'kodi-pw-333']) {
      expect(answer).not.toContain(secret);
      expect(JSON.stringify(config)).not.toContain(secret);
    }
    expect(t.config.current().notifications.targets[0]!.api_key).toBe('jf-key-111');
  });

  it('keeps the secrets when /api/config’s targets are posted back changed', async () => {
    expect((await post({ notifications: { targets: [jf, wh] } })).status).toBe(200);
    const shown = (await (await t.app.request('/api/config')).json()).notifications.targets;
    expect((await post({ notifications: { targets: [{ ...shown[0], enabled: false }, shown[1]] } })).status).toBe(200);
    expect(t.config.current().notifications.targets).toEqual([
      { ...jf, enabled: false },
      { ...wh, enabled: true },
    ]);
  });

  it.each([
    [{ ...wh, url: 'ftp://10.0.0.9/mo' }, 'notifications.targets.0.url'],
    [{ ...wh, url: 'javascript:alert(1)' }, 'notifications.targets.0.url'],
    [{ ...wh, url: 'not a url' }, 'notifications.targets.0.url'],
    [{ ...wh, kind: 'sonos' }, 'notifications.targets.0.kind'],
    [{ ...wh, name: 'a b' }, 'notifications.targets.0.name'],
    [{ ...jf, api_key: undefined }, 'notifications.targets.0.api_key'],
    [{ name: 'p', kind: 'plex', url: 'http://10.0.0.3:32400' }, 'notifications.targets.0.token'],
  ])('refuses %j, naming %s, saving nothing', async (target, key) => {
    await expectRefused({ notifications: { targets: [target] } }, key);
  });
});
