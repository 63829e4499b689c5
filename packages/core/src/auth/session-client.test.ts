import { describe, expect, it } from 'vitest';
import { clientAddress, MAX_CLIENT_FIELD, shortUserAgent } from './session-client.ts';

describe('shortUserAgent', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox 128 on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131 on Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge 131 on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
      'Opera 115 on macOS',
    ],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari 18 on macOS'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari 18 on iOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
      'Chrome 131 on iOS',
    ],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/132.0 Mobile/15E148 Safari/605.1.15', 'Firefox 132 on iOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36', 'Chrome 131 on Android'],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
      'Edge 131 on Android',
    ],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131 on ChromeOS'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Headless Chrome 131 on Linux'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/120.0.6099.224 Chrome/120.0.6099.224 Safari/537.36',
      'Chromium 120 on Linux',
    ],
    ['Opera/9.80 (Windows NT 6.1) Presto/2.12.388 Version/12.16', 'Opera 9 on Windows'],
    ['Mozilla/5.0 (compatible; Firefox/115.0)', 'Firefox 115'],
  ])('%s → %s', (ua, short) => {
    expect(shortUserAgent(ua)).toBe(short);
  });

  it('keeps the first product token of a client that is not a browser', () => {
    expect(shortUserAgent('curl/8.5.0')).toBe('curl/8.5.0');
    expect(shortUserAgent('python-requests/2.32.3')).toBe('python-requests/2.32.3');
    expect(shortUserAgent('Go-http-client/1.1')).toBe('Go-http-client/1.1');
    expect(shortUserAgent('node')).toBe('node');
    expect(shortUserAgent('Wget/1.21.4 (linux-gnu)')).toBe('Wget/1.21.4');
  });

  it('is null for nothing, and never longer than a stored field, nor holding control characters', () => {
    expect(shortUserAgent(undefined)).toBeNull();
    expect(shortUserAgent('')).toBeNull();
    expect(shortUserAgent('  \u0000\u200b ')).toBeNull();
    expect(shortUserAgent('x'.repeat(5000))).toHaveLength(MAX_CLIENT_FIELD);
    expect(shortUserAgent('evil\u0007\u202ename/1.0')).toBe('evilname/1.0');
  });
});

describe('clientAddress', () => {
  it('is the peer when no proxy relayed the request', () => {
    expect(clientAddress('192.168.1.20', undefined)).toBe('192.168.1.20');
    expect(clientAddress('::1', undefined)).toBe('::1');
    expect(clientAddress(null, undefined)).toBeNull();
  });

  it('leads with the first forwarded address, keeping the peer in view', () => {
    expect(clientAddress('10.0.0.2', '203.0.113.9')).toBe('203.0.113.9 via 10.0.0.2');
    expect(clientAddress('10.0.0.2', ' 203.0.113.9 , 10.0.0.7')).toBe('203.0.113.9 via 10.0.0.2');
    expect(clientAddress('10.0.0.2', '2001:db8::1')).toBe('2001:db8::1 via 10.0.0.2');
    expect(clientAddress('10.0.0.2', '10.0.0.2')).toBe('10.0.0.2');
    expect(clientAddress(null, '203.0.113.9')).toBe('203.0.113.9');
  });

  it('ignores a forwarded entry that is not an IP address', () => {
    expect(clientAddress('10.0.0.2', 'unknown')).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '<script>alert(1)</script>')).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '')).toBe('10.0.0.2');
    expect(clientAddress(null, 'x'.repeat(500))).toBeNull();
  });
});
