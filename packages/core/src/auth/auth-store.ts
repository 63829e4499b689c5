import { z } from 'zod';
import type { DataDir } from '../data-dir/data-dir.ts';
import { createStateStore, type StateStore } from '../state/state-store.ts';
import { apiKeyFile, type ApiKeyFile } from './api-key-file.ts';
import { MAX_CLIENT_FIELD } from './session-client.ts';

const clientField = z.string().max(MAX_CLIENT_FIELD).nullable().default(null);
const sessionRecord = z.object({
  id_hash: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.string(),
  expires_at: z.string(),
  // Files written before sessions were listed have none of these three.
  last_seen_at: z.string().nullable().default(null),
  address: clientField,
  user_agent: clientField,
});
export type SessionRecord = z.infer<typeof sessionRecord>;

const authFileSchema = z.object({
  owner: z
    .object({
      username: z.string().min(1).max(64),
      password_hash: z.string().min(1).max(512),
      created_at: z.string(),
      password_changed_at: z.string(),
    })
    .nullable(),
  // Only hashes: a copy of auth.json lets nobody in.
  sessions: z.array(sessionRecord).max(1000),
});
export type AuthFile = z.infer<typeof authFileSchema>;

/** What the auth service keeps, as the data folder hands it out (`DataStores.auth()`). */
export interface AuthStore {
  /** The owner account and its sessions (`auth.json`, mode 0600, rewritten under its lock). */
  accounts: StateStore<AuthFile>;
  /** The key generated when `app.api_key` is not set (`api_key`). */
  apiKey: ApiKeyFile;
}

export function authStore(data: DataDir): AuthStore {
  return {
    accounts: createStateStore({ file: data.path('auth'), schema: authFileSchema, initial: () => ({ owner: null, sessions: [] }), mode: 0o600 }),
    apiKey: apiKeyFile(data),
  };
}
