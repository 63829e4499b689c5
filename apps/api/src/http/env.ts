import type { AuthService, JobClient, LibraryCache, Logger, RuntimeConfig } from '@mo/core';
import type { Ownership } from '@mo/core/fs';
import type { RequestClient } from './auth.ts';
import type { LiveEvents } from './live-events.ts';

export interface AppDeps {
  config: RuntimeConfig;
  jobs: JobClient;
  logger: Logger;
  /** The cached library index; the only source of the library, dashboard, releases and tools routes. */
  library: LibraryCache;
  /** The key, the owner's account and its sessions. */
  auth: AuthService;
  /** What GET /api/events streams: job, settings, library and transcode changes, fanned out. */
  live: LiveEvents;
  /** URL_BASE: the prefix a reverse proxy adds in front of /api, for the links and cookies a browser follows. */
  urlBase?: string;
  /** The built web UI (apps/web/dist); null or absent when it is not built: `/` is then a 404. */
  webRoot?: string | null;
  /** PUID/PGID: who gets the folders an undo makes again in the downloads; the process's own ids when absent. */
  owner?: Ownership;
  /** How long POST /api/notifications/test waits for a target; NOTIFY_TIMEOUT_MS when absent. */
  notifyTimeoutMs?: number;
}

export interface AppEnv {
  Variables: {
    log: Logger;
    requestId: string;
    client: RequestClient;
  };
}
