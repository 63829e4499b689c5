import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { isPublicAddress, literalAddress, NOT_PUBLIC_MESSAGE } from './public-address.ts';

// The provider URL was checked when it was saved, but a name can resolve elsewhere by the time it is
// fetched (DNS rebinding), and a public server can redirect to an internal one. So the check is made
// again on every connection the provider's requests open, on the address actually connected to.

/** Why a connection was not opened; the fetch fails with it as its cause. */
export class NotPublicAddressError extends Error {
  readonly code = 'ERR_NOT_PUBLIC_ADDRESS';
  constructor() {
    super(NOT_PUBLIC_MESSAGE);
    this.name = 'NotPublicAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Lookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

export interface PublicOnlyOptions {
  /** DNS as `net.connect` calls it; tests give their own. */
  lookup?: Lookup;
  /** Which addresses may be connected to; tests widen it to one loopback address. */
  isAllowed?: (address: string) => boolean;
}

/**
 * A `lookup` for `net.connect` that answers only when every address the name has is allowed: a
 * name with one internal address among public ones is refused whole.
 */
export function publicOnlyLookup(opts: PublicOnlyOptions = {}): Lookup {
  const lookup = opts.lookup ?? (dnsLookup as unknown as Lookup);
  const isAllowed = opts.isAllowed ?? isPublicAddress;
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const all = addresses as LookupAddress[];
      if (all.length === 0 || !all.every((a) => isAllowed(a.address))) return callback(new NotPublicAddressError(), '');
      if ((options as LookupAllOptions).all) return callback(null, all);
      return callback(null, all[0]!.address, all[0]!.family);
    });
  };
}

/**
 * An undici dispatcher whose every connection goes to an allowed address: names through
 * `publicOnlyLookup`, and literal addresses (which `net.connect` does not look up) checked here.
 */
export function publicOnlyDispatcher(opts: PublicOnlyOptions = {}): Dispatcher {
  const isAllowed = opts.isAllowed ?? isPublicAddress;
  const connect = buildConnector({ lookup: publicOnlyLookup(opts) });
  return new Agent({
    connect(options, callback) {
      const literal = literalAddress(options.hostname);
      if (literal !== null && !isAllowed(literal)) return callback(new NotPublicAddressError(), null);
      return connect(options, callback);
    },
  });
}
