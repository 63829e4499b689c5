import { appendFileSync, chmodSync, mkdirSync, symlinkSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRuntimeConfig, type RuntimeConfig } from '@mo/core';
import type { QueuedPass } from '@mo/core/scanner';
import { tempInstall, type TempInstall } from '@mo/test-support/service';
import { watchDownloads } from './watch-downloads.ts';

let install: TempInstall;
let config: RuntimeConfig;
let watching: ReturnType<typeof watchDownloads> | undefined;
afterEach(async () => {
  await watching?.close();
  watching = undefined;
  config?.close();
  await install?.cleanup();
});

/** A watcher on a real temp folder whose pass requests and log lines are recorded. */
async function start(answer: () => QueuedPass = () => ({ state: 'waiting', startedMs: null })) {
  install = await tempInstall('[app]\nsettle_seconds = 0\n');
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  const requests: number[] = [];
  const logs: { level: number; msg: string; reason?: string }[] = [];
  const logger = createLogger({ name: 'test', level: 'info', destination: { write: (line: string) => void logs.push(JSON.parse(line)) } });
  watching = watchDownloads({ config, logger, rearmMs: 200, requestPass: async () => (requests.push(Date.now()), answer()) });
  await watching.ready;
  // Arming asks for one pass, for whatever arrived while nobody watched.
  await expect.poll(() => requests.length, { timeout: 5000 }).toBe(1);
  return { requests, logs };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watchDownloads', () => {
  it('asks for one pass after a burst of files, once it has been still for settle_seconds', async () => {
    const { requests } = await start();
    // Long enough that a loaded machine pausing between two writes does not split the burst.
    await config.updateSettings({ app: { settle_seconds: 2 } });
    let lastWrite = 0;
    for (let i = 1; i <= 24; i++) {
      mkdirSync(join(install.paths.downloads, 'Show.S01'), { recursive: true });
      writeFileSync(join(install.paths.downloads, 'Show.S01', `Show.S01E${String(i).padStart(2, '0')}.mkv`), 'video');
      lastWrite = Date.now();
      await sleep(20);
    }
    await expect.poll(() => requests.length, { timeout: 8000 }).toBe(2);
    expect(requests[1]! - lastWrite).toBeGreaterThanOrEqual(3000);
    await sleep(3500);
    expect(requests).toHaveLength(2);
  });

  it('waits settle_seconds after the last change, read at run time', async () => {
    const { requests } = await start();
    await config.updateSettings({ app: { settle_seconds: 2 } });
    const wrote = Date.now();
    writeFileSync(join(install.paths.downloads, 'Heat.1995.mkv'), 'video');
    await expect.poll(() => requests.length, { timeout: 6000 }).toBe(2);
    expect(requests[1]! - wrote).toBeGreaterThanOrEqual(3000);
  });

  it('does not follow a symlink out of the downloads folder: changes out there wake nothing', async () => {
    const { requests } = await start();
    const outside = join(install.root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(install.paths.downloads, 'link'));
    // The link itself is a change in the downloads folder.
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(2);
    await sleep(500);
    writeFileSync(join(outside, 'Heat.1995.mkv'), 'video');
    await sleep(2500);
    expect(requests).toHaveLength(2);
  });

  it('does not wake for removals: every import removes files', async () => {
    const { requests } = await start();
    writeFileSync(join(install.paths.downloads, 'Heat.1995.mkv'), 'video');
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(2);
    renameSync(join(install.paths.downloads, 'Heat.1995.mkv'), join(install.root, 'moved.mkv'));
    await sleep(2000);
    expect(requests).toHaveLength(2);
  });

  it('does not wake for changes that leave a file settled, as a pass touching it makes', async () => {
    const { requests } = await start();
    mkdirSync(join(install.paths.downloads, 'Heat.1995'));
    const file = join(install.paths.downloads, 'Heat.1995/Heat.1995.mkv');
    writeFileSync(file, 'video');
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(2);
    const st = statSync(file);
    chmodSync(file, 0o600);
    utimesSync(file, st.atime, st.mtime);
    readFileSync(file);
    await sleep(2000);
    expect(requests).toHaveLength(2);
    appendFileSync(file, 'more');
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(3);
  });

  it('asks again when the pass it joined had begun before the change', async () => {
    let answers = 0;
    const { requests } = await start(() => (++answers <= 2 ? { state: 'active', startedMs: 0 } : { state: 'waiting', startedMs: null }));
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBe(3);
    await sleep(3000);
    expect(requests).toHaveLength(3);
  });

  it('falls back with a warning when the folder goes, and re-arms when it returns', async () => {
    const { requests, logs } = await start();
    rmSync(install.paths.downloads, { recursive: true });
    await expect
      .poll(() => logs.filter((l) => l.level === 40).map((l) => l.msg), { timeout: 5000 })
      .toEqual(['cannot watch the downloads folder: new downloads wait for the periodic pass']);
    await sleep(600);
    // Retries while the folder is missing say nothing more.
    expect(logs.filter((l) => l.level === 40)).toHaveLength(1);
    mkdirSync(install.paths.downloads);
    await expect.poll(() => logs.map((l) => l.msg), { timeout: 5000 }).toContain('watching the downloads folder again');
    const before = requests.length;
    writeFileSync(join(install.paths.downloads, 'Heat.1995.mkv'), 'video');
    await expect.poll(() => requests.length, { timeout: 5000 }).toBeGreaterThan(before);
  });

  it('stops watching when app.watch is turned off, and starts again when it is turned on', async () => {
    const { requests } = await start();
    await config.updateSettings({ app: { watch: false } });
    await sleep(300);
    writeFileSync(join(install.paths.downloads, 'Heat.1995.mkv'), 'video');
    await sleep(2000);
    expect(requests).toHaveLength(1);
    await config.updateSettings({ app: { watch: true } });
    // Turned on, it passes once for what arrived while it was off.
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(2);
    writeFileSync(join(install.paths.downloads, 'Alien.1979.mkv'), 'video');
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(3);
  });

  it('watches the new folder when paths.downloads changes at run time, and not the old one', async () => {
    const { requests } = await start();
    const next = join(install.root, 'downloads2');
    mkdirSync(next);
    await config.updateSettings({ paths: { downloads: next } });
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(2);
    writeFileSync(join(install.paths.downloads, 'old.mkv'), 'video');
    await sleep(2000);
    expect(requests).toHaveLength(2);
    writeFileSync(join(next, 'new.mkv'), 'video');
    await expect.poll(() => requests.length, { timeout: 5000 }).toBe(3);
  });
});
