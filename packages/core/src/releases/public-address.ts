import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// A release provider's URL is fetched by the server, so whoever sets it chooses where the server
// connects. Unless `allow_private` is set in the config file, only public unicast addresses may be
// reached: not the host itself, the LAN, a cloud metadata service (169.254.169.254) or a CGNAT peer.

/** What an address is, in ipaddr.js's range names ("unicast" is a public one), after unwrapping IPv4 in IPv6. */
export function addressRange(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'invalid';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    // ::ffff:a.b.c.d reaches a.b.c.d itself; 64:ff9b::/96 (NAT64, what DNS64 answers on IPv6-only
    // networks) reaches the IPv4 address in its last 32 bits.
    if (range === 'ipv4Mapped') return v6.toIPv4Address().range();
    if (range === 'rfc6052') return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range();
    return range;
  }
  return parsed.range();
}

export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** The address a URL host names literally (`[::1]` → `::1`), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

export const NOT_PUBLIC_MESSAGE =
  'its host is not a public address (loopback, link-local, private or reserved); set release_providers.tvmaze.allow_private = true in the config file to allow it';

export type Resolve = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolve: Resolve = (hostname) =>
  new Promise((res, rej) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? rej(err) : res(addresses))));

const RESOLVE_TIMEOUT_MS = 5000;

/**
 * Why a provider URL is refused when saved, or null. The host is resolved now and every address it
 * gives must be public; the fetch checks again at connect time (`publicOnlyDispatcher`), as the
 * answer may change in between. No address is named in the message: it would tell a caller what
 * internal names resolve to.
 */
export async function providerUrlProblem(url: string, opts: { allowPrivate: boolean; resolve?: Resolve }): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (opts.allowPrivate) return null;
  const literal = literalAddress(parsed.hostname);
  if (literal !== null) return isPublicAddress(literal) ? null : NOT_PUBLIC_MESSAGE;
  let addresses: readonly LookupAddress[];
  let timer: NodeJS.Timeout | undefined;
  try {
    addresses = await Promise.race([
      (opts.resolve ?? systemResolve)(parsed.hostname),
      new Promise<never>((_, rej) => {
        timer = setTimeout(() => rej(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })), RESOLVE_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    return `its host name could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return 'its host name could not be resolved (no address)';
  return addresses.every((a) => isPublicAddress(a.address)) ? null : NOT_PUBLIC_MESSAGE;
}
