import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '@mo/shared';
import { publicConfig } from './redact.ts';

const asConfig = (v: unknown) => v as Config;

describe('publicConfig', () => {
  it('removes app.api_key and keeps every other app key', () => {
    const config: Config = { ...DEFAULT_CONFIG, app: { ...DEFAULT_CONFIG.app, api_key: 'hunter2' } };
    const pub = publicConfig(config) as { app: Record<string, unknown> };
    expect(pub.app).not.toHaveProperty('api_key');
    const { api_key: _k, ...rest } = config.app;
    expect(pub.app).toEqual(rest);
    expect(JSON.stringify(pub)).not.toContain('hunter2');
  });

  it('removes api_key even when it is empty', () => {
    expect((publicConfig(DEFAULT_CONFIG) as { app: object }).app).not.toHaveProperty('api_key');
  });

  it('drops every notification target secret and the credentials of a target URL, keeping the rest', () => {
    const config: Config = {
      ...DEFAULT_CONFIG,
      notifications: {
        targets: [
          { name: 'jf', kind: 'jellyfin', url: 'http://10.0.0.2:8096', api_key: 'jf-key-1', enabled: true },
          { name: 'px', kind: 'plex', url: 'http://10.0.0.3:32400', token: 'plex-tok-2', enabled: true },
          { name: 'kd', kind: 'kodi', url: 'http://kodi:kodi-pass-3@10.0.0.4:8080', enabled: false },
          { name: 'wh', kind: 'webhook', url: 'https://hooks.example.org/x', secret: 'hook-sec-4', enabled: true },
        ],
      },
    };
    const pub = publicConfig(config) as { notifications: unknown };
    expect(pub.notifications).toEqual({
      targets: [
        { name: 'jf', kind: 'jellyfin', url: 'http://10.0.0.2:8096', enabled: true },
        { name: 'px', kind: 'plex', url: 'http://10.0.0.3:32400', enabled: true },
        { name: 'kd', kind: 'kodi', url: 'http://10.0.0.4:8080/', enabled: false },
        { name: 'wh', kind: 'webhook', url: 'https://hooks.example.org/x', enabled: true },
      ],
    });
    for (const s of ['jf-key-1', 'plex-tok-2', 'kodi-pass-3', 'hook-sec-4']) expect(JSON.stringify(pub)).not.toContain(s);
  });

  it('cuts a Discord webhook token and an ntfy topic out of the URL: there the path is the secret', () => {
    const config: Config = {
      ...DEFAULT_CONFIG,
      notifications: {
        targets: [
          { name: 'dc', kind: 'discord', url: 'https://discord.com/api/webhooks/123456/Wh-T0ken_secret?thread_id=7', enabled: true },
          { name: 'nt', kind: 'ntfy', url: 'https://ntfy.sh/unguessable-topic-42', token: 'tk_ntfy', enabled: true },
          { name: 'go', kind: 'gotify', url: 'http://10.0.0.8/', token: 'GotifyAppTok', enabled: true },
          { name: 'ap', kind: 'apprise', url: 'http://apprise:8000', token: 'cfgkey', enabled: true },
        ],
      },
    };
    const pub = publicConfig(config) as { notifications: { targets: { url: string }[] } };
    expect(pub.notifications.targets.map((t) => t.url)).toEqual([
      'https://discord.com/api/webhooks/123456?thread_id=7',
      'https://ntfy.sh/',
      'http://10.0.0.8/',
      'http://apprise:8000',
    ]);
    for (const s of ['Wh-T0ken_secret', 'unguessable-topic-42', 'tk_ntfy', 'GotifyAppTok', 'cfgkey']) expect(JSON.stringify(pub)).not.toContain(s);
  });

  it('cuts credential query parameters out of a target URL, keeping the others', () => {
    const config: Config = {
      ...DEFAULT_CONFIG,
      notifications: {
        targets: [
          { name: 'go', kind: 'webhook', url: 'https://gotify.lan/message?token=AbC123tok&priority=5', enabled: true },
          { name: 'az', kind: 'webhook', url: 'https://x.logic.azure.com/wf/run?api-version=2016&sp=%2Ftrigger&sig=S1gn4ture', enabled: true },
          { name: 'ha', kind: 'webhook', url: 'http://ha.lan/api?ApiKey=K3y&Auth=Au7h', enabled: true },
        ],
      },
    };
    const pub = JSON.stringify(publicConfig(config));
    for (const s of ['AbC123tok', 'S1gn4ture', 'K3y', 'Au7h']) expect(pub).not.toContain(s);
    expect(pub).toContain('https://gotify.lan/message?priority=5');
    expect(pub).toContain('api-version=2016');
  });

  it('leaves the defaults otherwise exactly as they were', () => {
    const { api_key: _k, ...app } = DEFAULT_CONFIG.app;
    expect(publicConfig(DEFAULT_CONFIG)).toEqual({ ...DEFAULT_CONFIG, app });
  });

  it('removes any key containing key, token, password or secret, at any depth, in any case', () => {
    const pub = publicConfig(
      asConfig({
        top_token: 't',
        Password: 'p',
        nested: {
          deeper: {
            ACCESS_TOKEN: 't2',
            clientSecret: 's',
            apiKey: 'k',
            monkey: 'contains key',
            keys: ['a'],
            db_password_hash: 'h',
            kept: 'yes',
          },
          kept: 1,
        },
        list: [
          { secret: 'x', name: 'n' },
          { SECRET_VALUE: 'y', other: 2 },
        ],
      }),
    );
    expect(pub).toEqual({
      nested: { deeper: { kept: 'yes' }, kept: 1 },
      list: [{ name: 'n' }, { other: 2 }],
    });
  });

  it('strips credentials from URLs, leaving the rest of the URL', () => {
    const pub = publicConfig(
      asConfig({
        ...DEFAULT_CONFIG,
        release_providers: { tvmaze: { enabled: true, url: 'https://user:pw@host/x' } },
      }),
    ) as Config;
    expect(pub.release_providers.tvmaze.url).toBe('https://host/x');
    expect(pub.release_providers.tvmaze.enabled).toBe(true);
  });

  it('strips a user without a password, and a password without a user, anywhere', () => {
    const pub = publicConfig(
      asConfig({
        a: 'https://user@host.example/path?q=1#frag',
        b: ['redis://:pw@redis.local:6380/2'],
        c: { d: 'http://u:p@h.example:8080/a/b' },
      }),
    );
    expect(pub).toEqual({
      a: 'https://host.example/path?q=1#frag',
      b: ['redis://redis.local:6380/2'],
      c: { d: 'http://h.example:8080/a/b' },
    });
    expect(JSON.stringify(pub)).not.toMatch(/pw|user|u:p/);
  });

  it('leaves URLs without credentials and other strings byte for byte', () => {
    const input = {
      url: 'https://api.tvmaze.com',
      upper: 'HTTPS://Example.COM/Path',
      email: 'someone@example.com',
      template: '{title} ({year})/{title} ({year}){ext}',
      path: '/media/disk 1',
      weird: 'http://[not a url',
      empty: '',
    };
    expect(publicConfig(asConfig(input))).toEqual(input);
  });

  it('leaves numbers, booleans, null and arrays as they were', () => {
    const input = { n: 0, f: 1.5, t: true, fl: false, z: null, arr: [1, 'two', [3], { four: 4 }] };
    expect(publicConfig(asConfig(input))).toEqual(input);
  });

  it('does not mutate its input', () => {
    const config = asConfig({
      ...structuredClone(DEFAULT_CONFIG),
      app: { ...DEFAULT_CONFIG.app, api_key: 'secret-value' },
      release_providers: { tvmaze: { enabled: true, url: 'https://user:pw@host/x' } },
      extra: { token: 'abc', list: [{ password: 'p' }] },
    });
    const copy = structuredClone(config);
    const pub = publicConfig(config);
    expect(config).toEqual(copy);
    expect(pub).not.toBe(config);
    expect((pub as Config).app).not.toBe(config.app);
  });
});
