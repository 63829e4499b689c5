import { createServer, type IncomingMessage, type RequestListener, type ServerOptions, type ServerResponse } from 'node:http';

/**
 * A request target (`/media-organizer/setup?token=…`) as a prefix-stripping proxy passes it on
 * (`/setup?token=…`): the API also answers its own URL_BASE, so the set-up link it prints (its own
 * address with URL_BASE) opens, and so does a proxy that forwards the prefix unchanged. A target
 * outside URL_BASE is left as it is.
 */
export function withoutUrlBase(target: string, base: string): string {
  if (base === '' || !target.startsWith(base)) return target;
  const rest = target.slice(base.length);
  if (rest === '') return '/';
  if (rest.startsWith('/')) return rest;
  if (rest.startsWith('?')) return `/${rest}`;
  return target;
}

/** node:http's createServer, each request's target read through withoutUrlBase first (for serve's `createServer`). */
export function serverWithoutUrlBase(base: string): typeof createServer {
  const make = (options: ServerOptions, listener: RequestListener) =>
    createServer(options, (req: IncomingMessage, res: ServerResponse) => {
      req.url = withoutUrlBase(req.url ?? '/', base);
      listener(req, res);
    });
  return make as typeof createServer;
}
