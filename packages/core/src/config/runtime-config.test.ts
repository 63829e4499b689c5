import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG, type Config, type SettingsPatch } from '@mo/shared';
import { AppError } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import { ConfigError } from './load.ts';
import { createRuntimeConfig, type RuntimeConfig } from './runtime-config.ts';

let dir: string;
let configFile: string;
let dataDir: string;
let stateJson: string;
const instances: RuntimeConfig[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'runtime-config-'));
  configFile = path.join(dir, 'config', 'config.toml');
  dataDir = path.join(dir, 'data');
  stateJson = path.join(dataDir, 'state.json');
  await mkdir(path.dirname(configFile), { recursive: true });
  await writeFile(configFile, toml());
});

afterEach(async () => {
  for (const rt of instances.splice(0)) rt.close();
  await rm(dir, { recursive: true, force: true });
});

function toml(extra = ''): string {
  return `[app]
settle_seconds = 60
scan_interval_seconds = 300

[paths]
downloads = "${path.join(dir, 'downloads')}"
config = "${path.join(dir, 'config')}"
data = "${path.join(dir, 'data')}"

[[drives]]
name = "toml"
path = "${path.join(dir, 'media', 'toml')}"

[transcoder]
video_encoder = "h264_qsv"
${extra}`;
}

async function open(logger?: Logger): Promise<RuntimeConfig> {
  const rt = await createRuntimeConfig({ configFile, pollMs: 50, ...(logger ? { logger } : {}) });
  instances.push(rt);
  return rt;
}

async function writeState(settings: unknown, extra: Record<string, unknown> = {}): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(stateJson, JSON.stringify({ version: 1, settings, last_scan_at: null, last_library_scan_at: null, ...extra }, null, 2));
}

async function snapshot(file: string): Promise<{ bytes: Buffer; mtimeMs: number } | null> {
  if (!existsSync(file)) return null;
  return { bytes: await readFile(file), mtimeMs: (await stat(file)).mtimeMs };
}

function fakeLogger() {
  const error = vi.fn();
  const logger = { error, warn: vi.fn(), info: vi.fn(), debug: vi.fn() } as unknown as Logger;
  return { logger, error };
}

describe('createRuntimeConfig', () => {
  it('starts from defaults, then the TOML, when nothing is saved', async () => {
    const rt = await open();
    expect(rt.configFile).toBe(configFile);
    expect(rt.state.file).toBe(stateJson);
    expect(rt.current()).toEqual(rt.fileConfig);
    expect(rt.current().app).toEqual({ ...DEFAULT_CONFIG.app, settle_seconds: 60, scan_interval_seconds: 300 });
    expect(rt.current().transcoder).toEqual({ video_encoder: 'h264_qsv', keep_original: false });
    expect(rt.current().library).toEqual(DEFAULT_CONFIG.library);
    expect(existsSync(stateJson)).toBe(false);
  });

  it('puts saved settings over the TOML, over the defaults', async () => {
    const savedDrive = { name: 'saved', path: path.join(dir, 'media', 'saved') };
    await writeState({ app: { settle_seconds: 30 }, drives: [savedDrive], metadata: { include_specials: true } });
    const rt = await open();
    const c = rt.current();
    expect(c.app.settle_seconds).toBe(30); // saved beats TOML
    expect(c.app.scan_interval_seconds).toBe(300); // TOML beats default
    expect(c.app.library_scan_max_files).toBe(DEFAULT_CONFIG.app.library_scan_max_files); // default
    expect(c.drives).toEqual([savedDrive]); // replaced whole
    expect(c.metadata).toEqual({ read_nfo: true, include_specials: true, identify: [] });
    expect(c.transcoder.video_encoder).toBe('h264_qsv');
    // fileConfig stays what the TOML says
    expect(rt.fileConfig.app.settle_seconds).toBe(60);
    expect(rt.fileConfig.drives.map((d) => d.name)).toEqual(['toml']);
  });

  it('fails at start with a ConfigError naming the TOML file when it is invalid', async () => {
    await writeFile(configFile, '[app]\ndry_run = "yes"\n');
    const err = await createRuntimeConfig({ configFile, pollMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(configFile);
    expect((err as Error).message).toContain('app.dry_run');
  });

  it('updateSettings saves to <data>/state.json, applies at once and never touches the TOML file', async () => {
    const rt = await open();
    const listener = vi.fn();
    rt.onChange(listener);
    const tomlBefore = await snapshot(configFile);
    await sleep(20); // so that any write to the TOML would move its mtime
    const next = await rt.updateSettings({ app: { dry_run: false, settle_seconds: 15 } });

    expect(next.app.dry_run).toBe(false);
    expect(next.app.settle_seconds).toBe(15);
    expect(rt.current()).toEqual(next);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]![0].app.dry_run).toBe(false);
    expect(listener.mock.calls[0]![1].app.dry_run).toBe(true);

    const state = JSON.parse(await readFile(stateJson, 'utf8'));
    expect(state.version).toBe(1);
    expect(state.settings).toEqual({ app: { dry_run: false, settle_seconds: 15 } });

    const tomlAfter = await snapshot(configFile);
    expect(tomlAfter!.bytes.equals(tomlBefore!.bytes)).toBe(true);
    expect(tomlAfter!.mtimeMs).toBe(tomlBefore!.mtimeMs);
    expect(rt.fileConfig.app.settle_seconds).toBe(60);
  });

  it('accumulates patches, replaces drives whole and keeps unknown state fields', async () => {
    await writeState(
      {
        drives: [
          { name: 'a', path: '/a' },
          { name: 'b', path: '/b' },
        ],
      },
      {
        last_scan_at: '2024-01-01T00:00:00.000Z',
        written_by_newer_version: { x: 1 },
      },
    );
    const rt = await open();
    await rt.updateSettings({ app: { dry_run: false } });
    await rt.updateSettings({ app: { log_level: 'debug' }, drives: [{ name: 'c', path: '/c' }] });
    expect(rt.current().app.dry_run).toBe(false);
    expect(rt.current().app.log_level).toBe('debug');
    expect(rt.current().drives).toEqual([{ name: 'c', path: '/c' }]);
    const state = JSON.parse(await readFile(stateJson, 'utf8'));
    expect(state.settings).toEqual({ app: { dry_run: false, log_level: 'debug' }, drives: [{ name: 'c', path: '/c' }] });
    expect(state.last_scan_at).toBe('2024-01-01T00:00:00.000Z');
    expect(state.written_by_newer_version).toEqual({ x: 1 });
  });

  it('does not fire onChange for a patch that changes nothing, and stops after unsubscribing', async () => {
    const rt = await open();
    const listener = vi.fn();
    const off = rt.onChange(listener);
    await rt.updateSettings({ app: { settle_seconds: 60 } }); // same as the TOML
    expect(listener).not.toHaveBeenCalled();
    off();
    await rt.updateSettings({ app: { settle_seconds: 61 } });
    expect(listener).not.toHaveBeenCalled();
    expect(rt.current().app.settle_seconds).toBe(61);
  });

  it('keeps calling the other listeners when one throws, logging the failure', async () => {
    const { logger, error } = fakeLogger();
    const rt = await open(logger);
    const good = vi.fn();
    rt.onChange(() => {
      throw new Error('listener broke');
    });
    rt.onChange(good);
    await rt.updateSettings({ app: { dry_run: false } });
    expect(good).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalled();
  });

  it('a second instance on the same files sees the change after refresh(), firing onChange with next and prev', async () => {
    await mkdir(dataDir, { recursive: true });
    const a = await open();
    const b = await open();
    const listener = vi.fn<(next: Config, prev: Config) => void>();
    b.onChange(listener);
    await a.updateSettings({ app: { dry_run: false }, library: { movie_folders: ['Films'] } });
    await b.refresh();
    expect(b.current().app.dry_run).toBe(false);
    expect(b.current().library.movie_folders).toEqual(['Films']);
    expect(b.current()).toEqual(a.current());
    expect(listener).toHaveBeenCalledTimes(1);
    const [next, prev] = listener.mock.calls[0]!;
    expect(next.app.dry_run).toBe(false);
    expect(next.library.movie_folders).toEqual(['Films']);
    expect(prev.app.dry_run).toBe(true);
    expect(prev.library.movie_folders).toEqual(['Movies']);
    // a refresh with nothing new changes nothing
    await b.refresh();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('fires onStateChange for a transcode record another process wrote, without onChange when settings stayed', async () => {
    await writeState({});
    const rt = await open();
    const onState = vi.fn();
    const onConfig = vi.fn();
    const off = rt.onStateChange(onState);
    rt.onChange(onConfig);
    const log = path.join(dataDir, 'transcodes.jsonl');
    const entry = { status: 'running', job_id: '7', updated_at: '2024-01-01T00:00:00.000Z', output: null, error: null };
    await appendFile(log, `${JSON.stringify({ path: '/m/a.avi', entry })}\n`);
    await rt.refresh();
    expect(onState).toHaveBeenCalledTimes(1);
    const [next, prev] = onState.mock.calls[0]!;
    // A record written before priorities and results existed reads with their defaults.
    expect(next.transcodes).toEqual({
      '/m/a.avi': { ...entry, priority: 0, before: null, after: null, seconds: null, original: null, original_recycled_to: null },
    });
    expect(prev.transcodes).toEqual({});
    expect(onConfig).not.toHaveBeenCalled();
    // The same content written again is no change.
    await appendFile(log, `${JSON.stringify({ path: '/m/a.avi', entry })}\n`);
    await rt.refresh();
    expect(onState).toHaveBeenCalledTimes(1);
    await rt.updateSettings({ app: { dry_run: false } });
    expect(onState).toHaveBeenCalledTimes(2);
    expect(onConfig).toHaveBeenCalledTimes(1);
    off();
    await appendFile(log, `${JSON.stringify({ path: '/m/a.avi', entry: null })}\n`);
    await rt.refresh();
    expect(onState).toHaveBeenCalledTimes(2);
  });

  it('sees its own writes through state and transcodes at once, without refresh()', async () => {
    const rt = await open();
    const onState = vi.fn();
    rt.onStateChange(onState);
    const entry = {
      status: 'queued' as const,
      job_id: 'tr-1',
      updated_at: '2024-01-01T00:00:00.000Z',
      output: null,
      error: null,
      priority: 0,
      before: null,
      after: null,
      seconds: null,
      original: null,
      original_recycled_to: null,
    };
    await rt.transcodes.update(() => [{ path: '/m/a.avi', entry }, { paused: true }]);
    expect(rt.currentState().transcodes['/m/a.avi']).toEqual(entry);
    expect(rt.currentState().transcoder_paused).toBe(true);
    await rt.state.update((s) => ({ ...s, last_scan_at: '2024-01-02T00:00:00.000Z' }));
    expect(rt.currentState().last_scan_at).toBe('2024-01-02T00:00:00.000Z');
    expect(onState).toHaveBeenCalledTimes(2);
  });

  it('moves the transcode records and the pause of an older state.json into their own log on start', async () => {
    const entry = { status: 'done', job_id: null, updated_at: '2024-01-01T00:00:00.000Z', output: '/m/a.mp4', error: null };
    await writeState({ app: { dry_run: false } }, { recent: [], transcodes: { '/m/a.avi': entry }, transcoder_paused: true });
    const rt = await open();
    expect(rt.currentState().transcodes['/m/a.avi']).toMatchObject(entry);
    expect(rt.currentState().transcoder_paused).toBe(true);
    expect(rt.current().app.dry_run).toBe(false);
    const saved = JSON.parse(await readFile(stateJson, 'utf8'));
    expect(saved).not.toHaveProperty('transcodes');
    expect(saved).not.toHaveProperty('transcoder_paused');
    await rt.updateSettings({ app: { dry_run: true } });
    expect(JSON.parse(await readFile(stateJson, 'utf8'))).not.toHaveProperty('transcodes');
    expect((await rt.state.read()).transcodes['/m/a.avi']).toMatchObject(entry);
  });

  it('a second instance picks the change up on its own (watch or poll), without refresh()', async () => {
    const a = await open();
    const b = await open(); // the data folder does not exist yet: the poll must cover it
    const listener = vi.fn();
    b.onChange(listener);
    await a.updateSettings({ app: { settle_seconds: 5 } });
    await vi.waitFor(() => expect(b.current().app.settle_seconds).toBe(5), { timeout: 3000, interval: 20 });
    expect(listener).toHaveBeenCalledTimes(1);
    await a.updateSettings({ app: { settle_seconds: 6 } });
    await vi.waitFor(() => expect(b.current().app.settle_seconds).toBe(6), { timeout: 3000, interval: 20 });
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('stops following state.json after close()', async () => {
    const a = await open();
    const b = await open();
    b.close();
    await a.updateSettings({ app: { settle_seconds: 7 } });
    await sleep(300);
    expect(b.current().app.settle_seconds).toBe(60);
  });

  it('a new instance (a restart) starts with the saved settings', async () => {
    const first = await open();
    await first.updateSettings({ app: { dry_run: false }, drives: [{ name: 'new', path: '/media/new' }] });
    first.close();
    const restarted = await open();
    expect(restarted.current().app.dry_run).toBe(false);
    expect(restarted.current().drives).toEqual([{ name: 'new', path: '/media/new' }]);
    expect(restarted.current().app.settle_seconds).toBe(60);
    expect(restarted.current()).toEqual(first.current());
  });

  it('an invalid patch saves nothing when no state.json exists yet', async () => {
    const rt = await open();
    const listener = vi.fn();
    rt.onChange(listener);
    const before = rt.current();
    const err = await rt.updateSettings({ app: { settle_seconds: -1 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('bad_request');
    expect((err as AppError).message).toMatch(/^app\.settle_seconds:/);
    expect(existsSync(stateJson)).toBe(false);
    expect(rt.current()).toEqual(before);
    expect(listener).not.toHaveBeenCalled();
  });

  it('an invalid patch leaves an existing state.json byte for byte and the config as it was', async () => {
    const rt = await open();
    await rt.updateSettings({ app: { dry_run: false } });
    const before = await snapshot(stateJson);
    const config = rt.current();
    await sleep(20);
    const bad: SettingsPatch[] = [
      { app: { settle_seconds: -1 } },
      { paths: { downloads: 'relative' } },
      {
        drives: [
          { name: 'x', path: '/x' },
          { name: 'x', path: '/y' },
        ],
      },
      { transcoder: { keep_original: true } } as unknown as SettingsPatch,
    ];
    for (const patch of bad) {
      await expect(rt.updateSettings(patch)).rejects.toBeInstanceOf(AppError);
    }
    const after = await snapshot(stateJson);
    expect(after!.bytes.equals(before!.bytes)).toBe(true);
    expect(after!.mtimeMs).toBe(before!.mtimeMs);
    expect(rt.current()).toEqual(config);
    expect(rt.current().app.dry_run).toBe(false);
  });

  it('a state.json edited into invalid JSON leaves a running instance on its current config', async () => {
    const { logger, error } = fakeLogger();
    const rt = await open(logger);
    await rt.updateSettings({ app: { dry_run: false, settle_seconds: 9 } });
    const config = rt.current();
    const listener = vi.fn();
    rt.onChange(listener);

    await writeFile(stateJson, '{ "version": 1, "settings": { "app": { "dry_run": tru');
    await expect(rt.refresh()).resolves.toBeUndefined();
    await sleep(200); // let the watcher and the poll see it too
    expect(rt.current()).toEqual(config);
    expect(listener).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalled();
    expect(JSON.stringify(error.mock.calls)).toContain(stateJson);

    // a new instance refuses to start, naming the state file
    const err = await createRuntimeConfig({ configFile, pollMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(stateJson);
    // and the file is left as the user wrote it
    expect(await readFile(stateJson, 'utf8')).toBe('{ "version": 1, "settings": { "app": { "dry_run": tru');

    // once repaired, the running instance follows again
    await writeState({ app: { settle_seconds: 11 } });
    await rt.refresh();
    expect(rt.current().app.settle_seconds).toBe(11);
    expect(rt.current().app.dry_run).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a state.json with invalid settings leaves a running instance as it was and stops a new one', async () => {
    const { logger } = fakeLogger();
    const rt = await open(logger);
    await rt.updateSettings({ app: { settle_seconds: 9 } });
    await writeState({ app: { settle_seconds: -3 } });
    await rt.refresh();
    expect(rt.current().app.settle_seconds).toBe(9);
    const err = await createRuntimeConfig({ configFile, pollMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(stateJson);
    expect((err as Error).message).toContain('settings.app.settle_seconds');
  });

  it('an invalid state.json also makes updateSettings fail without overwriting it', async () => {
    const { logger } = fakeLogger();
    const rt = await open(logger);
    await mkdir(dataDir, { recursive: true });
    await writeFile(stateJson, 'not json');
    await expect(rt.updateSettings({ app: { dry_run: false } })).rejects.toThrow(stateJson);
    expect(await readFile(stateJson, 'utf8')).toBe('not json');
    expect(rt.current().app.dry_run).toBe(true);
  });
});
