import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config, type SettingsPatch } from '@mo/shared';
import { AppError } from '../errors.ts';
import type { Resolve } from '../releases/public-address.ts';
import { guardSettingsPatch } from './settings-guard.ts';

let dir: string;
let fileConfig: Config;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'settings-guard-')));
  for (const d of ['downloads', 'config', 'data', 'media/disk1', 'outside']) await mkdir(join(dir, d), { recursive: true });
  await symlink('/etc', join(dir, 'media', 'etc-link'));
  fileConfig = {
    ...DEFAULT_CONFIG,
    paths: { downloads: join(dir, 'downloads'), config: join(dir, 'config'), data: join(dir, 'data') },
    drives: [{ name: 'disk1', path: join(dir, 'media', 'disk1') }],
    library: { ...DEFAULT_CONFIG.library, video_extensions: [...DEFAULT_CONFIG.library.video_extensions, '.bdmv'] },
  };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const resolve: Resolve = async (host) => {
  if (host === 'api.tvmaze.com') return [{ address: '104.18.2.3', family: 4 }];
  if (host === 'internal.example') return [{ address: '10.1.2.3', family: 4 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

const guard = (patch: SettingsPatch, config = fileConfig) => guardSettingsPatch(patch, { fileConfig: config, resolve });

async function refused(patch: SettingsPatch, config = fileConfig): Promise<AppError> {
  const err = await guard(patch, config).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('bad_request');
  return err as AppError;
}

describe('guardSettingsPatch', () => {
  it('accepts a patch that touches none of its rules', async () => {
    await expect(guard({ app: { dry_run: false }, metadata: { read_nfo: false } })).resolves.toBeUndefined();
  });

  it('refuses a downloads folder inside a library folder, naming the key the patch changed; the drive itself or a folder beside Movies is fine', async () => {
    const disk1 = join(dir, 'media', 'disk1');
    for (const [patch, key] of [
      [{ paths: { downloads: join(disk1, 'Movies') } }, 'paths.downloads'],
      [{ paths: { downloads: join(disk1, 'TV Shows', 'incoming') } }, 'paths.downloads'],
    ] as [SettingsPatch, string][]) {
      const err = await refused(patch);
      expect((err.details as { key: string }).key, JSON.stringify(patch)).toBe(key);
      expect(err.message).toContain('lies in the library folder');
    }
    // Against the running config, which may already hold the other half of the overlap.
    const running = { ...fileConfig, paths: { ...fileConfig.paths, downloads: join(disk1, 'Incoming') }, drives: [] };
    const against = (patch: SettingsPatch) =>
      guardSettingsPatch(patch, { fileConfig, current: running, resolve }).then(
        () => null,
        (e: AppError) => e.details,
      );
    expect(await against({ library: { tv_folders: ['TV', 'Incoming'] } })).toBeNull();
    expect(
      await against({
        drives: [
          { name: 'disk2', path: join(dir, 'media', 'disk2') },
          { name: 'disk1', path: disk1 },
        ],
        library: { tv_folders: ['Incoming'] },
      }),
    ).toMatchObject({ key: 'drives.1.path' });
    const withDrive = { ...running, drives: fileConfig.drives };
    const err = await guardSettingsPatch({ library: { movie_folders: ['Movies', 'Incoming'] } }, { fileConfig, current: withDrive, resolve }).then(
      () => null,
      (e: AppError) => e,
    );
    expect(err?.details).toMatchObject({ key: 'library.movie_folders' });
    await expect(guard({ paths: { downloads: disk1 } })).resolves.toBeUndefined();
    await expect(guard({ paths: { downloads: join(disk1, 'Downloads') } })).resolves.toBeUndefined();
  });

  it('accepts paths and drives inside the roots, new ones included', async () => {
    await expect(
      guard({
        paths: { downloads: join(dir, 'downloads', 'complete'), config: join(dir, 'config') },
        drives: [
          { name: 'disk1', path: join(dir, 'media', 'disk1') },
          { name: 'disk2', path: join(dir, 'media', 'disk2') },
        ],
      }),
    ).resolves.toBeUndefined();
  });

  it.each([
    [{ paths: { config: '/' } }, 'paths.config', /root folder/],
    [{ paths: { downloads: '/etc' } }, 'paths.downloads', /\/etc/],
    [{ paths: { downloads: '/home' } }, 'paths.downloads', /outside the allowed roots/],
  ] as const)('refuses %j naming %s', async (patch, key, why) => {
    const err = await refused(patch);
    expect(err.message).toMatch(new RegExp(`^${key.replace('.', '\\.')}: `));
    expect(err.message).toMatch(why);
    expect(err.details).toMatchObject({ key });
  });

  it('names the drive by its index', async () => {
    const err = await refused({
      drives: [
        { name: 'disk1', path: join(dir, 'media', 'disk1') },
        { name: 'py', path: '/usr/lib/python3' },
      ],
    });
    expect(err.message).toMatch(/^drives\.1\.path: lies in \/usr, a system folder/);
  });

  it('refuses a drive through a symlink into a system folder', async () => {
    const err = await refused({ drives: [{ name: 'x', path: join(dir, 'media', 'etc-link', 'cron.d') }] });
    expect(err.message).toMatch(/^drives\.0\.path: lies in \/etc/);
  });

  it('lets app.allowed_roots in the file widen the roots, but never to a system folder', async () => {
    const wide = { ...fileConfig, app: { ...fileConfig.app, allowed_roots: [dir] } };
    await expect(guard({ drives: [{ name: 'o', path: join(dir, 'outside') }] }, wide)).resolves.toBeUndefined();
    const everything = { ...fileConfig, app: { ...fileConfig.app, allowed_roots: ['/'] } };
    expect((await refused({ drives: [{ name: 'e', path: '/etc/systemd/system' }] }, everything)).message).toMatch(/^drives\.0\.path: lies in \/etc/);
    // With roots set, the defaults are gone: the drive parent no longer counts.
    const narrow = { ...fileConfig, app: { ...fileConfig.app, allowed_roots: [join(dir, 'downloads')] } };
    expect((await refused({ drives: [{ name: 'd', path: join(dir, 'media', 'disk2') }] }, narrow)).message).toMatch(/outside the allowed roots/);
  });

  it('keeps the stylesheet, which anyone may fetch, away from the data folder and from other files', async () => {
    const data = fileConfig.paths.data;
    expect((await refused({ paths: { config: data } })).message).toMatch(
      /^paths\.config: \S+ is paths\.data \(\S+\), the data folder, which holds state\.json and the API key: /,
    );
    expect((await refused({ paths: { config: join(data, 'sub') } })).message).toMatch(/^paths\.config: \S+ lies in paths\.data /);
    expect((await refused({ theme: { css_file: 'api_key' } })).message).toBe('theme.css_file: must name a .css file');
    expect((await refused({ theme: { css_file: 'state.json' } })).message).toMatch(/^theme\.css_file: /);
    await expect(guard({ paths: { config: fileConfig.paths.config }, theme: { css_file: 'themes/Dark.CSS' } })).resolves.toBeUndefined();
    await expect(guard({ paths: { config: join(dir, 'media', 'themes') } })).resolves.toBeUndefined();
    // The config file's own choice stands, even inside the data folder.
    const together = { ...fileConfig, paths: { ...fileConfig.paths, config: join(data, 'config') } };
    await expect(guard({ paths: { config: join(data, 'config') } }, together)).resolves.toBeUndefined();
  });

  it('refuses drives, downloads, config and data folders that overlap one another, naming the key the patch changed', async () => {
    const { data, downloads, config } = fileConfig.paths;
    const disk1 = { name: 'disk1', path: join(dir, 'media', 'disk1') };
    const cases: [SettingsPatch, string, RegExp][] = [
      [{ drives: [disk1, { name: 'state', path: data }] }, 'drives.1.path', / is paths\.data .*state\.json/],
      [{ paths: { config: join(dir, 'media') } }, 'paths.config', / holds drives\.0\.path /],
      [{ drives: [disk1, { name: 'again', path: join(dir, 'media', 'disk1', '.') }] }, 'drives.1.path', / is drives\.0\.path /],
      [{ drives: [disk1, { name: 'inner', path: join(dir, 'media', 'disk1', 'disk2') }] }, 'drives.1.path', / lies in drives\.0\.path /],
      [{ paths: { downloads: data } }, 'paths.downloads', / is paths\.data /],
      [{ paths: { downloads: join(config, 'incoming') } }, 'paths.downloads', / lies in paths\.config .*stylesheet/],
      [{ paths: { config: join(downloads, 'themes') } }, 'paths.config', / lies in paths\.downloads /],
      [{ paths: { config: join(dir, 'media', 'disk1', 'config') } }, 'paths.config', / lies in drives\.0\.path \(\S+\), the drive disk1: /],
    ];
    for (const [patch, key, why] of cases) {
      const err = await refused(patch);
      expect(err.details, JSON.stringify(patch)).toMatchObject({ key });
      expect(err.message, JSON.stringify(patch)).toMatch(new RegExp(`^${key.replace(/\./g, '\\.')}: \\S+`));
      expect(err.message, JSON.stringify(patch)).toMatch(why);
      expect(err.message).toMatch(/must not overlap$/);
    }
    // Through a link to the data folder, which its path alone does not show.
    await symlink(data, join(dir, 'media', 'data-link'));
    expect((await refused({ drives: [{ name: 'link', path: join(dir, 'media', 'data-link') }] })).message).toMatch(/^drives\.0\.path: \S+ is paths\.data /);
    // Apart they are fine, a drive beside another and a downloads folder on a drive (the library rule judges that) included.
    await expect(
      guard({ drives: [disk1, { name: 'disk2', path: join(dir, 'media', 'disk2') }], paths: { downloads: join(dir, 'media', 'disk1', 'Downloads') } }),
    ).resolves.toBeUndefined();
    // What the config file itself sets stands: only a pair the patch moves is judged.
    const overlapping = { ...fileConfig, drives: [{ name: 'old', path: join(data, 'media') }] };
    await expect(guard({ drives: overlapping.drives, paths: { downloads } }, overlapping)).resolves.toBeUndefined();
  });

  it('refuses unknown media types, naming the entry', async () => {
    expect((await refused({ library: { video_extensions: ['.mkv', '.pth'] } })).message).toMatch(
      /^library\.video_extensions\.1: \.pth is not a known video type/,
    );
    expect((await refused({ library: { subtitle_extensions: ['.so'] } })).message).toMatch(/^library\.subtitle_extensions\.0: /);
    await expect(guard({ library: { video_extensions: ['.mkv', '.bdmv'] } })).resolves.toBeUndefined();
  });

  it('checks templates with the renderer’s own rules', async () => {
    await expect(guard({ library: { movie_template: '{title}{ext}', episode_template: '{series} {season}x{episode:00}{ext}' } })).resolves.toBeUndefined();
    const cases: [SettingsPatch, RegExp][] = [
      [{ library: { movie_template: '{title}' } }, /^library\.movie_template: must end with \{ext\}/],
      [{ library: { movie_template: '{title}{ext}{ext}' } }, /^library\.movie_template: must end with \{ext\}, once/],
      [{ library: { movie_template: '{year}{ext}' } }, /^library\.movie_template: must contain \{title\}/],
      [{ library: { movie_template: '../{title}{ext}' } }, /^library\.movie_template: must not contain "\." or "\.\." folders/],
      [{ library: { movie_template: '{title}/./{title}{ext}' } }, /^library\.movie_template: must not contain/],
      [{ library: { movie_template: '/srv/{title}{ext}' } }, /^library\.movie_template: must be a relative path/],
      [{ library: { movie_template: '{title}{extension}' } }, /^library\.movie_template: unknown token \{extension\}/],
      [{ library: { movie_template: '{Title}{ext}' } }, /^library\.movie_template: has a brace/],
      [{ library: { episode_template: '{season}x{episode}{ext}' } }, /^library\.episode_template: must contain \{series\}/],
    ];
    for (const [patch, message] of cases) expect((await refused(patch)).message).toMatch(message);
  });

  it('keeps the provider URL to public addresses unless the file allows private ones', async () => {
    await expect(guard({ release_providers: { tvmaze: { url: 'https://api.tvmaze.com' } } })).resolves.toBeUndefined();
    for (const url of ['http://127.0.0.1:6379', 'http://169.254.169.254/', 'http://internal.example/', 'http://[::1]/']) {
      expect((await refused({ release_providers: { tvmaze: { url } } })).message).toMatch(/^release_providers\.tvmaze\.url: its host is not a public address/);
    }
    const lan = { ...fileConfig, release_providers: { tvmaze: { ...fileConfig.release_providers.tvmaze, allow_private: true } } };
    await expect(guard({ release_providers: { tvmaze: { url: 'http://127.0.0.1:8080' } } }, lan)).resolves.toBeUndefined();
  });

  it('lists every refusal, the first in the message', async () => {
    const err = await refused({
      paths: { config: '/' },
      theme: { css_file: 'etc/shadow' },
      library: { video_extensions: ['.pth'], movie_template: '{x}{ext}' },
      release_providers: { tvmaze: { url: 'http://127.0.0.1/' } },
    });
    expect(err.message).toMatch(/^paths\.config: /);
    expect((err.details as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'paths.config',
      'theme.css_file',
      'library.video_extensions.0',
      'library.movie_template',
      'release_providers.tvmaze.url',
    ]);
  });
});
