import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Config, SettingsPatch, State } from '@mo/shared';
import type { StateStore } from '../state/state-store.ts';
import type { TranscodeRecords } from '../state/transcode-records.ts';
import { ConfigError, effectiveConfig, loadFileConfig } from './load.ts';
import { mergeSettings } from './settings.ts';
import type { Logger } from '../logging/logger.ts';
import { openDataDir, type DataStores } from './data-stores.ts';

export type ConfigListener = (next: Config, prev: Config) => void;
export type StateListener = (next: State, prev: State) => void;

/**
 * The effective config of a running process: the TOML read once at start, overlaid with the
 * settings saved in state.json. Another process (API or worker) may change state.json at any time,
 * so the file is watched, and polled as well because watches do not fire on network mounts.
 */
export interface RuntimeConfig {
  readonly configFile: string;
  readonly fileConfig: Config;
  /** The data folder and its stores; `paths.data` is set in the config file only, so it stays put. */
  readonly data: DataStores;
  /** state.json and the transcode log seen as one State (`data.stateStores()`). */
  readonly state: StateStore<State>;
  /** The transcode records and the pause flag (`transcodes.jsonl`). */
  readonly transcodes: TranscodeRecords;
  current(): Config;
  /** state.json as last read (it is re-read whenever it changes on disk), without a file read now. */
  currentState(): State;
  onChange(listener: ConfigListener): () => void;
  /**
   * Called whenever state.json as read differs from before (transcode records, last scans, …),
   * whichever process wrote it; settings changes fire `onChange` as well.
   */
  onStateChange(listener: StateListener): () => void;
  /**
   * Validates and saves a settings patch, then applies it here at once. It trusts the patch's
   * content: what a client sends passes `guardSettingsPatch` first (the settings route does that).
   * A function is given the effective config as saved at that moment, under the state file's lock,
   * so that a patch built from it (one alias added to the list) loses no other process's change.
   */
  updateSettings(patch: SettingsPatch | ((saved: Config) => SettingsPatch)): Promise<Config>;
  /** Re-reads state.json and the transcode log now; the watcher calls this too, and so does every write through `state` or `transcodes`. */
  refresh(): Promise<void>;
  close(): void;
}

export async function createRuntimeConfig(opts: { configFile: string; logger?: Logger; pollMs?: number }): Promise<RuntimeConfig> {
  const fileConfig = await loadFileConfig(opts.configFile);
  const data = openDataDir(fileConfig.paths.data);
  const { state: store, transcodes: records } = await data.stateStores().catch((err: Error) => {
    throw new ConfigError(data.path('state'), null, err.message);
  });
  let current: Config;
  let currentState: State;
  try {
    currentState = await store.read();
    current = effectiveConfig(fileConfig, currentState.settings);
  } catch (err) {
    throw new ConfigError(store.file, null, (err as Error).message);
  }
  const listeners = new Set<ConfigListener>();
  const stateListeners = new Set<StateListener>();
  let lastStamp = '';
  let closed = false;

  function apply(next: Config) {
    if (isDeepStrictEqual(next, current)) return;
    const prev = current;
    current = next;
    for (const l of listeners) {
      try {
        l(next, prev);
      } catch (err) {
        opts.logger?.error({ err }, 'config listener failed');
      }
    }
  }

  function applyState(next: State) {
    if (isDeepStrictEqual(next, currentState)) return;
    const prev = currentState;
    currentState = next;
    for (const l of stateListeners) {
      try {
        l(next, prev);
      } catch (err) {
        opts.logger?.error({ err }, 'state listener failed');
      }
    }
  }

  async function stamp(): Promise<string> {
    const file = await stat(store.file).then(
      (s) => `${s.ino}:${s.size}:${s.mtimeMs}`,
      () => 'missing',
    );
    return `${file}|${await records.stamp()}`;
  }

  async function refresh() {
    const now = await stamp();
    if (now === lastStamp) return;
    try {
      const state = await store.read();
      lastStamp = now;
      applyState(state);
      apply(effectiveConfig(fileConfig, state.settings));
    } catch (err) {
      // A bad or half-edited state file must not take a running process down; keep what works.
      opts.logger?.error({ err, file: store.file }, 'saved settings could not be applied; keeping the current ones');
    }
  }

  lastStamp = await stamp();
  const timer = setInterval(() => void refresh(), opts.pollMs ?? 1000);
  timer.unref();
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(store.file), { persistent: false }, (_event, name) => {
      if (!closed && (name === null || name === basename(store.file) || name === basename(records.file))) void refresh();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // The data folder may not exist yet; the poll covers it.
  }

  // A write through these is seen by currentState() (and its listeners) before it returns, so no
  // caller has to refresh after writing.
  const refreshed = {
    state: { ...store, update: async (fn: Parameters<StateStore<State>['update']>[0]) => refreshAfter(await store.update(fn)) },
    transcodes: { ...records, update: async (fn: Parameters<TranscodeRecords['update']>[0]) => refreshAfter(await records.update(fn)) },
  };

  async function refreshAfter<V>(value: V): Promise<V> {
    await refresh();
    return value;
  }

  return {
    configFile: opts.configFile,
    fileConfig,
    data,
    state: refreshed.state,
    transcodes: refreshed.transcodes,
    current: () => current,
    currentState: () => currentState,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    async updateSettings(patch) {
      const state = await store.update((s) => {
        const p = typeof patch === 'function' ? patch(effectiveConfig(fileConfig, s.settings)) : patch;
        return { ...s, settings: mergeSettings(fileConfig, s.settings, p) };
      });
      lastStamp = await stamp();
      applyState(state);
      apply(effectiveConfig(fileConfig, state.settings));
      return current;
    },
    refresh,
    close() {
      closed = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
