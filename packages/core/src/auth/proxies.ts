import { BlockList, isIP } from 'node:net';

/** `app.trusted_proxies` ready to ask: whether an address is one of the owner's reverse proxies. */
export interface TrustedProxies {
  readonly empty: boolean;
  has(address: string): boolean;
}

/** An IPv4 client as a dual-stack socket shows it (::ffff:a.b.c.d) is that IPv4 address. */
function unmapped(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : address;
}

const compiled = new WeakMap<readonly string[], TrustedProxies>();

/**
 * The config's list (validated at load) as a matcher, built once per list. An entry the schema let
 * through but Node cannot read is left out rather than guessed at: trusting less is the safe error.
 */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const known = compiled.get(entries);
  if (known) return known;
  const list = new BlockList();
  let count = 0;
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 4 ? 'ipv4' : isIP(address) === 6 ? 'ipv6' : null;
    if (family === null) continue;
    try {
      if (prefix === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(prefix), family);
      count++;
    } catch {
      // Out of range: not trusted.
    }
  }
  const trusted: TrustedProxies = {
    empty: count === 0,
    has(address) {
      if (count === 0) return false;
      const a = unmapped(address);
      const family = isIP(a);
      return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
  compiled.set(entries, trusted);
  return trusted;
}

/**
 * One X-Forwarded-For entry as an address: a bare IPv4 or IPv6 address, also with a port as some
 * proxies add it (`1.2.3.4:5678`, `[2001:db8::1]:443`). Anything else is null.
 */
function hopAddress(entry: string): string | null {
  const e = entry.trim();
  if (isIP(e) !== 0) return unmapped(e);
  const v6 = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(e);
  if (v6 && isIP(v6[1]!) === 6) return unmapped(v6[1]!);
  const v4 = /^([\d.]+):\d{1,5}$/.exec(e);
  if (v4 && isIP(v4[1]!) === 4) return v4[1]!;
  return null;
}

export interface ResolvedClient {
  /** The client's address: the socket's peer, or what trusted proxies said it was; null without a socket. */
  address: string | null;
  /** Whether `address` came from X-Forwarded-For, walked back through trusted proxies only. */
  forwarded: boolean;
}

/**
 * Who sent a request: the socket's peer, unless that peer is a trusted proxy; then X-Forwarded-For
 * is read from the right (each proxy appends the address it was called from), past every entry that
 * is itself a trusted proxy, and the first one that is not is the client. Entries left of it are
 * whatever the client claimed and are never read. An entry that is no address stops the walk at the
 * proxy that relayed it, which is then taken for the client: garbage names no one. RFC 7239
 * `Forwarded` is not read: the proxies this runs behind (nginx, Traefik, Caddy, HAProxy) all send
 * X-Forwarded-For.
 */
export function resolveClient(peer: string | null, forwardedFor: string | undefined, trusted: TrustedProxies): ResolvedClient {
  if (peer === null) return { address: null, forwarded: false };
  let address = unmapped(peer);
  let forwarded = false;
  if (!trusted.has(address) || forwardedFor === undefined) return { address, forwarded };
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0 && trusted.has(address); i--) {
    const hop = hopAddress(hops[i]!);
    if (hop === null) break;
    address = hop;
    forwarded = true;
  }
  return { address, forwarded };
}
