import { describe, expect, it } from 'vitest';
import { appSection } from '@mo/shared';
import { resolveClient, trustedProxies } from './proxies.ts';

const proxies = trustedProxies(['10.0.0.0/8', '192.168.1.2', 'fd00::/8', '::ffff:172.16.0.1']);

describe('trusted proxies', () => {
  it.each(['10.0.0.1', '10.255.255.255', '::ffff:10.1.2.3', '192.168.1.2', 'fd12:3456::1', '172.16.0.1', '::ffff:172.16.0.1'])('%s is one', (a) => {
    expect(proxies.has(a)).toBe(true);
  });

  it.each(['11.0.0.1', '192.168.1.3', '::1', '127.0.0.1', 'fe80::1', '172.16.0.2', 'garbage', ''])('%s is not', (a) => {
    expect(proxies.has(a)).toBe(false);
  });

  it('an empty list trusts no one', () => {
    const none = trustedProxies([]);
    expect(none.empty).toBe(true);
    expect(none.has('127.0.0.1')).toBe(false);
  });

  it('is the list the schema accepts, no wider', () => {
    const field = appSection.shape.trusted_proxies;
    for (const good of ['10.0.0.5', '172.16.0.0/12', '::1', 'fd00::/8', '::ffff:10.0.0.1', '::ffff:10.0.0.0/104', '10.0.0.1/32']) {
      expect(field.safeParse([good]).success, good).toBe(true);
      expect(trustedProxies([good]).empty, good).toBe(false);
    }
    for (const bad of [
      '10.0.0.0/33',
      '010.0.0.1',
      '1.2.3',
      'localhost',
      ' 10.0.0.1',
      '10.0.0.0/08',
      'fe80::1%eth0',
      '0.0.0.0/0',
      '::/0',
      '10.0.0.0/8,1.2.3.4',
    ]) {
      expect(field.safeParse([bad]).success, bad).toBe(false);
    }
  });
});

describe('the client behind a proxy', () => {
  const resolve = (peer: string | null, xff?: string) => resolveClient(peer, xff, proxies);

  it('is the peer when the peer is no trusted proxy, whatever it claims', () => {
    expect(resolve('203.0.113.9', '127.0.0.1')).toEqual({ address: '203.0.113.9', forwarded: false });
    expect(resolve('::ffff:203.0.113.9')).toEqual({ address: '203.0.113.9', forwarded: false });
  });

  it('is the peer for every request when the list is empty, as before the setting', () => {
    expect(resolveClient('10.0.0.1', '203.0.113.9', trustedProxies([]))).toEqual({ address: '10.0.0.1', forwarded: false });
  });

  it('is the rightmost entry that is not a trusted proxy; what the client wrote left of it is never read', () => {
    expect(resolve('10.0.0.1', '203.0.113.9')).toEqual({ address: '203.0.113.9', forwarded: true });
    expect(resolve('10.0.0.1', '127.0.0.1, 203.0.113.9')).toEqual({ address: '203.0.113.9', forwarded: true });
    expect(resolve('10.0.0.1', '198.51.100.1, 203.0.113.9, 10.9.9.9 ,192.168.1.2')).toEqual({ address: '203.0.113.9', forwarded: true });
  });

  it('reads entries with ports and IPv6 ones, and gives IPv4 clients as IPv4', () => {
    expect(resolve('::ffff:10.0.0.1', '203.0.113.9:51234')).toEqual({ address: '203.0.113.9', forwarded: true });
    expect(resolve('fd00::1', '[2001:db8::7]:443')).toEqual({ address: '2001:db8::7', forwarded: true });
    expect(resolve('fd00::1', '2001:db8::7')).toEqual({ address: '2001:db8::7', forwarded: true });
    expect(resolve('10.0.0.1', '::ffff:198.51.100.4')).toEqual({ address: '198.51.100.4', forwarded: true });
  });

  it('is the leftmost entry when every hop is a trusted proxy', () => {
    expect(resolve('10.0.0.1', '10.0.0.7, 192.168.1.2')).toEqual({ address: '10.0.0.7', forwarded: true });
  });

  it('is the proxy itself when it sends no X-Forwarded-For, or garbage where the next hop should be', () => {
    expect(resolve('10.0.0.1')).toEqual({ address: '10.0.0.1', forwarded: false });
    for (const junk of ['', 'unknown', 'for=203.0.113.9', '203.0.113.9, ', 'not-an-ip', '203.0.113.9 198.51.100.1', '[10.0.0.1', '999.1.1.1']) {
      expect(resolve('10.0.0.1', junk), junk).toEqual({ address: '10.0.0.1', forwarded: false });
    }
    // Garbage behind a proxy the walk has reached: that proxy is the client.
    expect(resolve('10.0.0.1', '203.0.113.9, garbage, 10.0.0.2')).toEqual({ address: '10.0.0.2', forwarded: true });
  });

  it('is unknown without a socket', () => {
    expect(resolve(null, '203.0.113.9')).toEqual({ address: null, forwarded: false });
  });
});
