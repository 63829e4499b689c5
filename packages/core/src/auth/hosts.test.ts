import { describe, expect, it } from 'vitest';
import { hostOfHeader, isAllowedHost, isLoopbackAddress, isLoopbackHost } from './hosts.ts';

describe('Host headers', () => {
  it.each([
    ['localhost:8080', 'localhost'],
    ['Media.Example.org', 'media.example.org'],
    ['media.example.org.:443', 'media.example.org'],
    ['192.168.1.5:8080', '192.168.1.5'],
    ['[::1]:8080', '[::1]'],
    ['[::1]', '[::1]'],
  ])('%s is the host %s', (header, host) => {
    expect(hostOfHeader(header)).toBe(host);
  });

  it.each([[''], [undefined], ['a b'], ['evil.com/x'], ['user@host'], ['host:port'], ['x'.repeat(400)], ['.'], ['::1']])('%s is no host', (header) => {
    expect(hostOfHeader(header)).toBeNull();
  });
});

describe('loopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '[::1]'])('%s is a loopback address', (a) => {
    expect(isLoopbackAddress(a)).toBe(true);
  });

  it.each(['10.0.0.1', '192.168.1.5', '::2', '::ffff:10.0.0.1', '0.0.0.0', 'localhost', '', null])('%s is not a loopback address', (a) => {
    expect(isLoopbackAddress(a)).toBe(false);
  });

  it('names localhost and names under .localhost loopback hosts, and nothing that merely contains them', () => {
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('app.localhost')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost.evil.com')).toBe(false);
    expect(isLoopbackHost('evillocalhost')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.nip.io')).toBe(false);
  });
});

describe('allowed hosts', () => {
  it('lets in the listed names, case and a trailing dot aside, and loopback always', () => {
    const allowed = ['Media.Example.org', 'nas.lan.'];
    expect(isAllowedHost('media.example.org', allowed)).toBe(true);
    expect(isAllowedHost('nas.lan', allowed)).toBe(true);
    expect(isAllowedHost('localhost', allowed)).toBe(true);
    expect(isAllowedHost('127.0.0.1', allowed)).toBe(true);
    expect(isAllowedHost('evil.example.org', allowed)).toBe(false);
    expect(isAllowedHost('example.org', allowed)).toBe(false);
    expect(isAllowedHost('192.168.1.5', allowed)).toBe(false);
  });
});
