import { describe, expect, it } from 'vitest';
import { addressRange, isPublicAddress, literalAddress, NOT_PUBLIC_MESSAGE, providerUrlProblem, type Resolve } from './public-address.ts';

describe('addressRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.5', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    // IPv4 inside IPv6 counts as the IPv4 address it reaches.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:8.8.8.8', 'unicast'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::808:808', 'unicast'],
    ['8.8.8.8', 'unicast'],
    ['172.32.0.1', 'unicast'],
    ['100.128.0.1', 'unicast'],
    ['2001:4860:4860::8888', 'unicast'],
    ['not an address', 'invalid'],
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(range === 'unicast');
  });

  it('refuses the IPv6 forms that tunnel to addresses it cannot see', () => {
    expect(isPublicAddress('2002:7f00:1::1')).toBe(false); // 6to4
    expect(isPublicAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe(false); // Teredo
  });
});

describe('literalAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['localhost', null],
    ['api.tvmaze.com', null],
    ['127.0.0.1.nip.io', null],
  ])('%s → %s', (host, literal) => {
    expect(literalAddress(host)).toBe(literal);
  });
});

const resolveTo =
  (table: Record<string, string[]>): Resolve =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('providerUrlProblem', () => {
  const resolve = resolveTo({
    'api.tvmaze.com': ['104.18.2.3', '2606:4700::6812:203'],
    'rebind.example': ['127.0.0.1'],
    'mixed.example': ['93.184.216.34', '10.0.0.7'],
    'nat64.example': ['64:ff9b::a9fe:a9fe'],
    localhost: ['127.0.0.1', '::1'],
    'localhost.': ['127.0.0.1'],
  });
  const problem = (url: string, allowPrivate = false) => providerUrlProblem(url, { allowPrivate, resolve });

  it('accepts a public name', async () => {
    expect(await problem('https://api.tvmaze.com')).toBeNull();
    expect(await problem('http://api.tvmaze.com:8080/v1')).toBeNull();
    expect(await problem('https://8.8.8.8/')).toBeNull();
  });

  it.each(['file:///etc/passwd', 'ftp://api.tvmaze.com/', 'gopher://127.0.0.1:6379/', 'javascript:alert(1)', 'not a url'])(
    'refuses %s as no http(s) URL',
    async (url) => {
      expect(await problem(url)).toMatch(/must be/);
      expect(await problem(url, true)).toMatch(/must be/);
    },
  );

  it.each([
    'http://127.0.0.1:6379/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    // What WHATWG URL turns into 127.0.0.1: one number, octal, hex, short forms.
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://017700000001/',
    'http://user:pw@127.0.0.1/',
  ])('refuses the literal address of %s', async (url) => {
    expect(await problem(url)).toBe(NOT_PUBLIC_MESSAGE);
  });

  it.each(['http://localhost:8080/', 'http://localhost./', 'http://LOCALHOST/', 'http://rebind.example/', 'http://mixed.example/', 'http://nat64.example/'])(
    'refuses %s, a name with an address that is not public',
    async (url) => {
      expect(await problem(url)).toBe(NOT_PUBLIC_MESSAGE);
    },
  );

  it('names no address in the message', async () => {
    expect(await problem('http://rebind.example/')).not.toMatch(/127|::1/);
  });

  it('refuses a name that does not resolve, saying why', async () => {
    expect(await problem('https://nowhere.invalid/')).toBe('its host name could not be resolved (ENOTFOUND)');
  });

  it('accepts any http(s) address when allow_private is set, without resolving', async () => {
    const never: Resolve = () => Promise.reject(new Error('must not be called'));
    expect(await providerUrlProblem('http://127.0.0.1:9/', { allowPrivate: true, resolve: never })).toBeNull();
    expect(await providerUrlProblem('http://nas.lan/', { allowPrivate: true, resolve: never })).toBeNull();
  });

  it('uses the system resolver by default: localhost is refused', async () => {
    expect(await providerUrlProblem('http://localhost:9/', { allowPrivate: false })).toBe(NOT_PUBLIC_MESSAGE);
  });
});
