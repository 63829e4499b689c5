import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { AppError } from '../errors.ts';
import type { AuthFile, AuthStore, SessionRecord } from './auth-store.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './password.ts';
import { MAX_CLIENT_FIELD, type SessionClient } from './session-client.ts';

export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 3600 * 1000;
// Each login adds one; the oldest go first, so a script that logs in in a loop cannot grow the file.
const MAX_SESSIONS = 32;
// How stale another process's view of the sessions may be: a logout there is seen within this.
const RELOAD_MS = 1000;
// A session's last use is written at most this often, so a busy page does not rewrite the file on every request.
export const LAST_SEEN_RESOLUTION_MS = 60_000;
const PUBLIC_ID_LENGTH = 16;

export interface Session {
  token: string;
  expires_at: string;
}

/** An open session as the owner's list shows it; `id` names it without being its secret. */
export interface SessionInfo {
  id: string;
  created_at: string;
  last_seen_at: string;
  address: string | null;
  user_agent: string | null;
  /** The session the asking client's cookie holds. */
  current: boolean;
}

/**
 * A session's public id: the start of the hash its record keeps. Knowing it gets nobody in (the
 * cookie's secret cannot be worked back from a hash), so it may travel in URLs and logs.
 */
export function sessionId(secret: string): string {
  return sha256(secret).slice(0, PUBLIC_ID_LENGTH);
}

const idOf = (x: SessionRecord) => x.id_hash.slice(0, PUBLIC_ID_LENGTH);

const NO_CLIENT: SessionClient = { address: null, user_agent: null };

function clamp(client: SessionClient): Pick<SessionRecord, 'address' | 'user_agent'> {
  return { address: client.address?.slice(0, MAX_CLIENT_FIELD) ?? null, user_agent: client.user_agent?.slice(0, MAX_CLIENT_FIELD) ?? null };
}

export interface AuthService {
  /** The key requests may carry: `app.api_key` when set, else the generated one. */
  apiKey(): Promise<string>;
  keyMatches(given: string): Promise<boolean>;
  /** `app.api_key` is set: the generated key is not the one in use. */
  keyFromConfig(): boolean;
  ownerExists(): Promise<boolean>;
  /** The one-time set-up token while no owner exists, made on first call; null once there is an owner. */
  setupToken(): Promise<string | null>;
  setup(token: string, username: string, password: string, client?: SessionClient): Promise<Session>;
  login(username: string, password: string, client?: SessionClient): Promise<Session>;
  /**
   * The owner's name for a live session token, else null. Records the use (and the client, when
   * given) once the last one recorded is LAST_SEEN_RESOLUTION_MS old.
   */
  session(token: string, client?: SessionClient): Promise<string | null>;
  logout(token: string): Promise<void>;
  /** The live sessions, the most recently used first; `current` marks the one `token` holds. */
  sessions(token?: string): Promise<SessionInfo[]>;
  /** Ends the live session with this public id; a not_found AppError when there is none. */
  endSession(id: string): Promise<void>;
  /** Every session ends; the caller gets a new one. */
  changePassword(current: string, next: string, client?: SessionClient): Promise<Session>;
  /** Throws unless `password` is the owner's. */
  checkPassword(password: string): Promise<void>;
  regenerateApiKey(password: string): Promise<string>;
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export function checkUsername(username: string): string {
  const name = username.normalize('NFC').trim();
  if (name === '' || name.length > 64 || /[\p{Cc}\p{Cf}]/u.test(name)) {
    throw new AppError('bad_request', 'username: 1 to 64 characters, no control characters', { key: 'username' });
  }
  return name;
}

export function checkNewPassword(password: string, key = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new AppError('bad_request', `${key}: ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`, { key });
  }
}

export interface AuthServiceDeps {
  /** `DataStores.auth()`. */
  store: AuthStore;
  /** `app.api_key` as configured now; empty when the generated key is the one in use. */
  configuredKey: () => string;
  now?: () => Date;
}

export function createAuthService(opts: AuthServiceDeps): AuthService {
  const now = opts.now ?? (() => new Date());
  const accounts = opts.store.accounts;
  let cached: { doc: AuthFile; mtimeMs: number; checkedAt: number } | null = null;
  let generated: string | null = null;
  let token: string | null = null;
  const touching = new Set<string>();
  // A hash to check a password against when the user name is wrong, so the answer takes as long.
  const decoy = hashPassword(randomBytes(16).toString('hex'));

  async function read(): Promise<AuthFile> {
    const t = Date.now();
    if (cached && t - cached.checkedAt < RELOAD_MS) return cached.doc;
    const mtimeMs = await stat(accounts.file).then(
      (i) => i.mtimeMs,
      () => -1,
    );
    if (!cached || cached.mtimeMs !== mtimeMs) {
      cached = { doc: await accounts.read(), mtimeMs, checkedAt: t };
    } else cached.checkedAt = t;
    return cached.doc;
  }

  async function update(fn: (doc: AuthFile) => AuthFile): Promise<AuthFile> {
    const doc = await accounts.update((d) => fn(d));
    const mtimeMs = await stat(accounts.file).then(
      (i) => i.mtimeMs,
      () => -1,
    );
    cached = { doc, mtimeMs, checkedAt: Date.now() };
    return doc;
  }

  function live(doc: AuthFile, at: Date): AuthFile['sessions'] {
    return doc.sessions.filter((x) => Date.parse(x.expires_at) > at.getTime());
  }

  async function newSession(client: SessionClient, sessions: (doc: AuthFile) => AuthFile['sessions'], change?: (doc: AuthFile) => AuthFile): Promise<Session> {
    const secret = randomBytes(32).toString('base64url');
    const at = now();
    const expires_at = new Date(at.getTime() + SESSION_MS).toISOString();
    const record: SessionRecord = { id_hash: sha256(secret), created_at: at.toISOString(), expires_at, last_seen_at: at.toISOString(), ...clamp(client) };
    await update((doc) => {
      const next = change ? change(doc) : doc;
      const kept = sessions(next).slice(-(MAX_SESSIONS - 1));
      return { ...next, sessions: [...kept, record] };
    });
    return { token: secret, expires_at };
  }

  async function checkOwnerPassword(password: string): Promise<NonNullable<AuthFile['owner']>> {
    const owner = (await read()).owner;
    if (owner === null) throw new AppError('conflict', 'no owner account exists yet; set it up first');
    if (password.length > MAX_PASSWORD_LENGTH || !(await verifyPassword(password, owner.password_hash))) {
      throw new AppError('unauthorized', 'the password is not right');
    }
    return owner;
  }

  async function generatedKey(): Promise<string> {
    generated ??= await opts.store.apiKey.readOrCreate();
    return generated;
  }

  const service: AuthService = {
    keyFromConfig: () => opts.configuredKey() !== '',
    async apiKey() {
      const configured = opts.configuredKey();
      return configured !== '' ? configured : generatedKey();
    },
    async keyMatches(given) {
      if (sameSecret(given, await service.apiKey())) return true;
      // Another process may have regenerated the key: a miss re-reads the file.
      if (service.keyFromConfig() || generated === null) return false;
      generated = null;
      return sameSecret(given, await generatedKey());
    },
    async ownerExists() {
      return (await read()).owner !== null;
    },
    async setupToken() {
      if (await service.ownerExists()) return null;
      token ??= randomBytes(24).toString('base64url');
      return token;
    },
    async setup(given, username, password, client = NO_CLIENT) {
      const name = checkUsername(username);
      checkNewPassword(password);
      const expected = await service.setupToken();
      if (expected === null) throw new AppError('conflict', 'the owner account exists already; log in instead');
      if (!sameSecret(given, expected)) throw new AppError('unauthorized', 'the set-up token is not right (it is printed in the service log at start)');
      const password_hash = await hashPassword(password);
      const at = now().toISOString();
      let raced = false;
      const session = await newSession(
        client,
        () => [],
        (doc) => {
          // Another process may have taken the set-up between the check and this lock.
          if (doc.owner !== null) {
            raced = true;
            return doc;
          }
          return { owner: { username: name, password_hash, created_at: at, password_changed_at: at }, sessions: [] };
        },
      );
      if (raced) throw new AppError('conflict', 'the owner account exists already; log in instead');
      token = null;
      return session;
    },
    async login(username, password, client = NO_CLIENT) {
      const owner = (await read()).owner;
      const name = username.normalize('NFC').trim();
      const right = owner !== null && sameSecret(name, owner.username);
      const ok = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(password, right ? owner.password_hash : await decoy));
      if (!right || !ok) throw new AppError('unauthorized', 'the user name or password is not right');
      return newSession(client, (doc) => live(doc, now()));
    },
    async session(secret, client) {
      if (secret === '' || secret.length > 200) return null;
      const doc = await read();
      if (doc.owner === null) return null;
      const hash = sha256(secret);
      const at = now();
      const found = doc.sessions.find((x) => x.id_hash === hash && Date.parse(x.expires_at) > at.getTime());
      if (!found) return null;
      // A page's requests come several at once: one of them records the use, the others go on.
      if (at.getTime() - Date.parse(found.last_seen_at ?? found.created_at) >= LAST_SEEN_RESOLUTION_MS && !touching.has(hash)) {
        touching.add(hash);
        const seen = { last_seen_at: at.toISOString(), ...(client ? clamp(client) : {}) };
        try {
          await update((d) => ({ ...d, sessions: d.sessions.map((x) => (x.id_hash === hash ? { ...x, ...seen } : x)) }));
        } finally {
          touching.delete(hash);
        }
      }
      return doc.owner.username;
    },
    async logout(secret) {
      const hash = sha256(secret);
      await update((doc) => ({ ...doc, sessions: doc.sessions.filter((x) => x.id_hash !== hash) }));
    },
    async sessions(secret) {
      const hash = secret === undefined ? null : sha256(secret);
      const seen = (x: SessionRecord) => x.last_seen_at ?? x.created_at;
      return live(await read(), now())
        .map((x) => ({
          id: idOf(x),
          created_at: x.created_at,
          last_seen_at: seen(x),
          address: x.address,
          user_agent: x.user_agent,
          current: x.id_hash === hash,
        }))
        .sort((a, b) => Date.parse(b.last_seen_at) - Date.parse(a.last_seen_at) || Date.parse(b.created_at) - Date.parse(a.created_at));
    },
    async endSession(id) {
      if (!live(await read(), now()).some((x) => idOf(x) === id)) {
        throw new AppError('not_found', `no open session has the id ${JSON.stringify(id.slice(0, 64))}`);
      }
      await update((doc) => ({ ...doc, sessions: doc.sessions.filter((x) => idOf(x) !== id) }));
    },
    async changePassword(current, next, client = NO_CLIENT) {
      checkNewPassword(next, 'new_password');
      await checkOwnerPassword(current);
      const password_hash = await hashPassword(next);
      const at = now().toISOString();
      return newSession(
        client,
        () => [],
        (doc) => ({ ...doc, owner: doc.owner && { ...doc.owner, password_hash, password_changed_at: at } }),
      );
    },
    async checkPassword(password) {
      await checkOwnerPassword(password);
    },
    async regenerateApiKey(password) {
      await checkOwnerPassword(password);
      if (service.keyFromConfig()) {
        throw new AppError('conflict', 'app.api_key is set in the config file and wins over a generated key; change it there');
      }
      generated = await opts.store.apiKey.replace();
      return generated;
    },
  };
  return service;
}
