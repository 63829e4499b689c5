import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { removeStaleTemps } from '../fs/atomic-write.ts';
import { createStateStore, StateFileError } from './state-store.ts';
import { counterSchema, idsSchema, payloadFor } from './test-fixtures/schemas.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-fixtures');

let dir: string;
const children = new Set<ChildProcessWithoutNullStreams>();
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'state-store-'));
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  await rm(dir, { recursive: true, force: true });
});

const settingsSchema = z.object({
  app: z.object({ dry_run: z.boolean(), settle_seconds: z.number().int() }),
  drives: z.array(z.object({ name: z.string(), path: z.string() })),
});
type Settings = z.infer<typeof settingsSchema>;
const initialSettings = (): Settings => ({ app: { dry_run: true, settle_seconds: 120 }, drives: [] });
const settingsStore = (file = path.join(dir, 'state.json')) => createStateStore({ file, schema: settingsSchema, initial: initialSettings });

describe('createStateStore', () => {
  it('reads initial() when the file is missing, without creating it', async () => {
    const store = settingsStore();
    expect(await store.read()).toEqual(initialSettings());
    expect(existsSync(store.file)).toBe(false);
  });

  it('persists updates as pretty JSON, creating the folder, for any later store to read', async () => {
    const file = path.join(dir, 'nested', 'data', 'state.json');
    const next = await settingsStore(file).update((s) => ({ ...s, app: { ...s.app, dry_run: false } }));
    expect(next.app.dry_run).toBe(false);
    expect(await readFile(file, 'utf8')).toBe(`${JSON.stringify(next, null, 2)}\n`);
    expect(await settingsStore(file).read()).toEqual(next);
    expect(await readdir(path.dirname(file))).toEqual(['state.json']);
  });

  it('serializes concurrent updates within one process', async () => {
    const store = createStateStore({ file: path.join(dir, 'ids.json'), schema: idsSchema, initial: () => ({ ids: [] }) });
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        store.update(async (v) => {
          await new Promise((r) => setImmediate(r));
          return { ids: [...v.ids, String(i)] };
        }),
      ),
    );
    expect(new Set((await store.read()).ids).size).toBe(200);
  });

  it('rejects an update whose fn throws or returns an invalid value, and keeps working', async () => {
    const store = settingsStore();
    await store.update((s) => s);
    const before = await readFile(store.file, 'utf8');
    await expect(
      store.update(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(store.update((s) => ({ ...s, drives: [{ name: 'disk1', path: 7 }] }) as unknown as Settings)).rejects.toThrow(
      `Refusing to write an invalid value to ${store.file}: drives.0.path:`,
    );
    expect(await readFile(store.file, 'utf8')).toBe(before);
    expect((await store.update((s) => ({ ...s, drives: [{ name: 'd', path: '/d' }] }))).drives).toHaveLength(1);
  });

  it('refuses a file that is not JSON, naming the file, and never overwrites it', async () => {
    const store = settingsStore();
    await writeFile(store.file, '{"app": {"dry_run": fal');
    const error = await store.read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toContain(store.file);
    expect((error as Error).message).toMatch(/not valid JSON/);
    await expect(store.update((s) => s)).rejects.toThrow(store.file);
    expect(await readFile(store.file, 'utf8')).toBe('{"app": {"dry_run": fal');
  });

  it('refuses a file that breaks the schema, naming the file and the key path', async () => {
    const store = settingsStore();
    await writeFile(store.file, JSON.stringify({ app: { dry_run: 'no', settle_seconds: 1 }, drives: [{ name: 'x' }] }));
    const message = await store.read().then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message).toContain(store.file);
    expect(message).toContain('app.dry_run');
    expect(message).toContain('drives.0.path');
  });

  it('removes temp files of dead writers on its first update', async () => {
    const store = settingsStore();
    const pid = spawnSync(process.execPath, ['-e', '']).pid;
    const orphan = path.join(dir, `.state.json.${pid}.abcdef.tmp`);
    await writeFile(orphan, '{"half":');
    await store.update((s) => s);
    expect(await readdir(dir)).toEqual(['state.json']);
  });
});

// ---- multi-process proofs -------------------------------------------------------------------

function spawnFixture(script: string, args: string[]) {
  // tsx resolves from the fixture folder upwards (it is installed at the workspace root).
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(fixtures, script), ...args], {
    cwd: fixtures,
    stdio: 'pipe',
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const waitFor = (pattern: RegExp, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (!match) return;
        cleanup();
        resolve(match[0]);
      };
      const onExit = () => {
        cleanup();
        reject(new Error(`${script} exited before ${pattern}: ${err || out}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${script}: no ${pattern} within ${timeoutMs} ms; stderr: ${err}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.off('exit', onExit);
      };
      child.stdout.on('data', check);
      child.once('exit', onExit);
      check();
    });
  return { child, exited, waitFor };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('across processes', () => {
  it('two processes × 500 concurrent updates: every id lands exactly once', async () => {
    const file = path.join(dir, 'state.json');
    const writers = ['a', 'b'].map((prefix) => spawnFixture('concurrent-writer.ts', [file, prefix, '500']));
    await Promise.all(writers.map((w) => w.waitFor(/ready/, 20_000)));
    for (const w of writers) w.child.stdin.end('go\n');
    const done = await Promise.all(writers.map((w) => w.waitFor(/done \d+/, 45_000)));
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
    const { ids } = await createStateStore({ file, schema: idsSchema, initial: () => ({ ids: [] }) }).read();
    const switches = ids.filter((id, i) => i > 0 && id[0] !== ids[i - 1]?.[0]).length;
    console.info(`[state-store] 2 × 500 updates: ${done.join(', ')} ms; lock changed hands ${switches} times`);
    expect(ids).toHaveLength(1000);
    const expected = ['a', 'b'].flatMap((p) => Array.from({ length: 500 }, (_, i) => `${p}-${i}`));
    expect([...ids].sort()).toEqual(expected.sort());
    expect((await readdir(dir)).sort()).toEqual(['state.json']);
  }, 60_000);

  it('SIGKILLed writers never leave a torn file, and their stale lock and temps are recovered', async () => {
    // Every kill almost always lands while the writer holds the lock, so the next writer waits out
    // `stale` (2 s, proper-lockfile's floor). Independent lanes (one file each) run side by side to
    // get 30 kills in ~25 s instead of ~70 s.
    const LANES = 3;
    const KILLS_PER_LANE = 10;
    const STALE_MS = 2000;
    const stats = { kills: 0, lockLeft: 0, tempsLeft: 0, removedTemps: 0 };

    const lane = async (n: number) => {
      const laneDir = path.join(dir, `lane${n}`);
      const file = path.join(laneDir, 'state.json');
      const reader = createStateStore({ file, schema: counterSchema, initial: () => ({ counter: 0, writer: 0, payload: payloadFor(0) }) });
      let last = 0;
      for (let i = 0; i < KILLS_PER_LANE; i++) {
        const w = spawnFixture('kill-writer.ts', [file, String(STALE_MS)]);
        await w.waitFor(/wrote/, 15_000);
        await sleep(20 + Math.random() * 130);
        w.child.kill('SIGKILL');
        await w.exited;
        stats.kills++;
        if (existsSync(`${file}.lock`)) stats.lockLeft++;
        stats.tempsLeft += (await readdir(laneDir)).filter((f) => f.endsWith('.tmp')).length;

        // Old or new value, never torn: it parses, validates (payload matches counter) and never goes back.
        const value = await reader.read();
        expect(value.counter).toBeGreaterThanOrEqual(Math.max(last, 1));
        last = value.counter;
      }

      // Temps of the dead writers are recognised as stale.
      stats.removedTemps += (await removeStaleTemps(file)).length;
      expect((await readdir(laneDir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

      // A fresh store in another process (this one) takes over the dead holder's lock.
      const fresh = createStateStore({ file, schema: counterSchema, initial: () => ({ counter: 0, writer: 0, payload: payloadFor(0) }), staleMs: STALE_MS });
      const next = await fresh.update((v) => ({ counter: v.counter + 1, writer: process.pid, payload: payloadFor(v.counter + 1) }));
      expect(next.counter).toBe(last + 1);
      expect(await readdir(laneDir)).toEqual(['state.json']);
    };

    const started = Date.now();
    await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
    console.info(`[state-store] kill loop ${JSON.stringify(stats)} in ${Date.now() - started} ms`);
    expect(stats.kills).toBe(LANES * KILLS_PER_LANE);
  }, 60_000);
});
