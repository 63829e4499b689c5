import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * The host name of a `Host` (or `X-Forwarded-Host`) header, lower-case, without port or trailing
 * dot; IPv6 literals keep their brackets (`[::1]`). Null when the header is no host at all.
 */
export function hostOfHeader(header: string | null | undefined): string | null {
  const value = (header ?? '').trim().toLowerCase();
  if (value === '' || value.length > 300) return null;
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/.exec(value);
  if (!m) return null;
  const host = m[1]!.endsWith('.') ? m[1]!.slice(0, -1) : m[1]!;
  return host === '' ? null : host;
}

/** An address of this machine's loopback interface: 127.0.0.0/8, ::1, or 127.x mapped into IPv6. */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  if (isIP(v4) === 4) return LOOPBACK.check(v4, 'ipv4');
  return isIP(a) === 6 && LOOPBACK.check(a, 'ipv6');
}

/** `localhost`, a name under `.localhost` (RFC 6761 keeps both on loopback), or a loopback address. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
}

/** Whether `host` (from hostOfHeader) is one `app.allowed_hosts` lets in: loopback always is. */
export function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  if (isLoopbackHost(host)) return true;
  return allowed.some((a) => {
    const name = a.toLowerCase();
    return (name.endsWith('.') ? name.slice(0, -1) : name) === host;
  });
}
