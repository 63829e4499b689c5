import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.gen.ts';

export type { components, operations, paths };

/** Every named schema of the API: `Schemas['Library']`, `Schemas['ErrorBody']`, … */
export type Schemas = components['schemas'];
/** The body of every error answer. */
export type ApiError = Schemas['ErrorBody'];
export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /**
   * Where the service is published, without `/api` (the document's paths carry it): `''` or
   * `location.origin` in the web UI, with the proxy's prefix under URL_BASE.
   */
  baseUrl: string;
  /** Defaults to the global fetch; tests pass the app's in-process `request`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Sent with every request, e.g. `{ 'x-api-key': key }` for scripts; the web UI relies on its session cookie. */
  headers?: Record<string, string>;
}

/** A client typed by the API's OpenAPI document: paths, parameters, bodies and answers per status. */
export function createApiClient({ baseUrl, fetch, headers }: ApiClientOptions): ApiClient {
  return createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}), ...(headers ? { headers } : {}) });
}
