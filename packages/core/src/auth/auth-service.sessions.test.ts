import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.ts';
import { createRuntimeConfig, type RuntimeConfig } from '../config/runtime-config.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { createAuthService, LAST_SEEN_RESOLUTION_MS, SESSION_DAYS, sessionId, type AuthService } from './auth-service.ts';

// Counted, not replaced: the writes still land on disk.
vi.mock('../fs/atomic-write.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../fs/atomic-write.ts')>();
  return { ...real, writeFileAtomic: vi.fn(real.writeFileAtomic) };
});
const writes = () => vi.mocked(writeFileAtomic).mock.calls.filter(([file]) => String(file).endsWith('auth.json')).length;

let dir: string;
let config: RuntimeConfig;
let clock: Date;
let auth: AuthService;
const PASSWORD = 'a good passphrase';
const laptop = { address: '192.168.1.20', user_agent: 'Firefox 128 on Linux' };
const phone = { address: '192.168.1.30', user_agent: 'Safari 18 on iOS' };
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
const authFile = () => path.join(dir, 'data', 'auth.json');

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mo-sessions-'));
  clock = new Date('2026-11-24T12:00:00Z');
  await writeFile(path.join(dir, 'config.toml'), `[paths]\ndownloads = "${dir}/downloads"\nconfig = "${dir}"\ndata = "${dir}/data"\n`);
  config = await createRuntimeConfig({ configFile: path.join(dir, 'config.toml') });
  auth = createAuthService({ store: config.data.auth(), configuredKey: () => config.current().app.api_key, now: () => clock });
  vi.mocked(writeFileAtomic).mockClear();
});
afterEach(async () => {
  config.close();
  await rm(dir, { recursive: true, force: true });
});

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

describe('open sessions', () => {
  it('each have a public id that is not the cookie secret, and record when and from where they began', async () => {
    const first = await auth.setup((await auth.setupToken())!, 'owner', PASSWORD, laptop);
    later(5000);
    const second = await auth.login('owner', PASSWORD, phone);
    const list = await auth.sessions(second.token);
    expect(list).toEqual([
      { id: sessionId(second.token), created_at: '2026-11-24T12:00:05.000Z', last_seen_at: '2026-11-24T12:00:05.000Z', ...phone, current: true },
      { id: sessionId(first.token), created_at: '2026-11-24T12:00:00.000Z', last_seen_at: '2026-11-24T12:00:00.000Z', ...laptop, current: false },
    ]);
    for (const s of list) expect(s.id).toMatch(/^[0-9a-f]{16}$/);
    expect(list[0]!.id).not.toBe(list[1]!.id);
    // Neither the list nor the file holds a secret, and an id is no secret: it opens nothing.
    const text = JSON.stringify(list) + (await readFile(authFile(), 'utf8'));
    for (const { token } of [first, second]) expect(text).not.toContain(token);
    expect(await auth.session(list[0]!.id)).toBeNull();
    expect((await auth.sessions()).map((s) => s.current)).toEqual([false, false]);
  });

  it('record a use at most once a minute, with the client it came from, and list the most recently used first', async () => {
    const first = await auth.setup((await auth.setupToken())!, 'owner', PASSWORD, laptop);
    later(1000);
    await auth.login('owner', PASSWORD, phone);
    const before = writes();
    const text = await readFile(authFile(), 'utf8');

    later(LAST_SEEN_RESOLUTION_MS - 2000);
    for (let i = 0; i < 20; i++) expect(await auth.session(first.token, laptop)).toBe('owner');
    expect(writes()).toBe(before);
    expect(await readFile(authFile(), 'utf8')).toBe(text);
    expect((await auth.sessions()).map((s) => s.user_agent)).toEqual([phone.user_agent, laptop.user_agent]);

    later(1000);
    const moved = { address: '10.8.0.5', user_agent: 'Firefox 129 on Linux' };
    // A page's requests come together: one write between them.
    const answers = await Promise.all(Array.from({ length: 6 }, () => auth.session(first.token, moved)));
    expect(answers).toEqual(Array(6).fill('owner'));
    expect(writes()).toBe(before + 1);
    const [top, other] = await auth.sessions(first.token);
    expect(top).toMatchObject({
      id: sessionId(first.token),
      created_at: '2026-11-24T12:00:00.000Z',
      last_seen_at: '2026-11-24T12:01:00.000Z',
      ...moved,
      current: true,
    });
    expect(other).toMatchObject({ ...phone, current: false });

    // A use without client details (an event stream's recheck) moves the time only.
    later(LAST_SEEN_RESOLUTION_MS);
    await auth.session(first.token);
    expect((await auth.sessions())[0]).toMatchObject({ last_seen_at: '2026-11-24T12:02:00.000Z', ...moved });
  });

  it('clip what a client says to the stored length', async () => {
    const s = await auth.setup((await auth.setupToken())!, 'owner', PASSWORD, { address: '1'.repeat(300), user_agent: 'u'.repeat(300) });
    later(LAST_SEEN_RESOLUTION_MS);
    await auth.session(s.token, { address: 'a'.repeat(300), user_agent: null });
    const [listed] = await auth.sessions();
    expect(listed!.address).toBe('a'.repeat(100));
    expect(listed!.user_agent).toBeNull();
  });

  it('end one by its id: its cookie stops working, the others go on', async () => {
    const mine = await auth.setup((await auth.setupToken())!, 'owner', PASSWORD, laptop);
    const other = await auth.login('owner', PASSWORD, phone);
    await auth.endSession(sessionId(other.token));
    expect(await auth.session(other.token)).toBeNull();
    expect(await auth.session(mine.token)).toBe('owner');
    expect((await auth.sessions()).map((s) => s.id)).toEqual([sessionId(mine.token)]);
    expect(await code(auth.endSession(sessionId(other.token)))).toBe('not_found');
  });

  it('refuse to end an unknown, malformed or expired id, and write nothing then', async () => {
    const mine = await auth.setup((await auth.setupToken())!, 'owner', PASSWORD, laptop);
    const before = writes();
    for (const id of ['0123456789abcdef', '', sessionId(mine.token).slice(0, 8), `${sessionId(mine.token)}0`, mine.token, 'x'.repeat(5000)]) {
      expect(await code(auth.endSession(id)), id.slice(0, 20)).toBe('not_found');
    }
    expect(writes()).toBe(before);
    expect(await auth.session(mine.token)).toBe('owner');
    later(SESSION_DAYS * 24 * 3600 * 1000 + 1);
    expect(await auth.sessions()).toEqual([]);
    expect(await code(auth.endSession(sessionId(mine.token)))).toBe('not_found');
  });

  it('go when the password changes, but for the new one', async () => {
    await auth.setup((await auth.setupToken())!, 'owner', PASSWORD, laptop);
    await auth.login('owner', PASSWORD, phone);
    const fresh = await auth.changePassword(PASSWORD, 'a new passphrase', laptop);
    expect(await auth.sessions(fresh.token)).toEqual([expect.objectContaining({ id: sessionId(fresh.token), ...laptop, current: true })]);
  });

  it('written before sessions were listed are read, their last use taken as their start', async () => {
    await auth.setup((await auth.setupToken())!, 'owner', PASSWORD);
    const doc = JSON.parse(await readFile(authFile(), 'utf8')) as { owner: unknown };
    const secret = 'an old session secret';
    const id_hash = createHash('sha256').update(secret).digest('hex');
    await writeFile(
      authFile(),
      JSON.stringify({ owner: doc.owner, sessions: [{ id_hash, created_at: '2026-11-20T08:00:00.000Z', expires_at: '2026-12-20T08:00:00.000Z' }] }),
    );
    const reread = createAuthService({ store: config.data.auth(), configuredKey: () => config.current().app.api_key, now: () => clock });
    expect(await reread.sessions()).toEqual([
      {
        id: sessionId(secret),
        created_at: '2026-11-20T08:00:00.000Z',
        last_seen_at: '2026-11-20T08:00:00.000Z',
        address: null,
        user_agent: null,
        current: false,
      },
    ]);
    expect(await reread.session(secret, laptop)).toBe('owner');
    expect((await reread.sessions())[0]).toMatchObject({ last_seen_at: clock.toISOString(), ...laptop });
  });
});
