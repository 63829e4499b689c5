import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');

export interface TempInstall {
  root: string;
  configFile: string;
  paths: { downloads: string; config: string; data: string; drive: string };
  cleanup(): Promise<void>;
}

/**
 * The key every temp install answers to: written where the service keeps the key it generates on
 * first start (`<paths.data>/api_key`), so a test's TOML may still set its own `[app]` keys.
 */
export const TEST_API_KEY = 'test-api-key-0123456789abcdef0123456789abcdef';

/** Makes `TEST_API_KEY` the key of an install whose data folder is `dataDir`. */
export async function writeTestKey(dataDir: string): Promise<void> {
  await writeFile(join(dataDir, 'api_key'), `${TEST_API_KEY}\n`, { mode: 0o600 });
}

/** `init` with the temp install's key added, unless it carries credentials of its own. */
export function withTestKey(init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (!headers.has('x-api-key') && !headers.has('authorization') && !headers.has('cookie')) headers.set('x-api-key', TEST_API_KEY);
  return { ...init, headers };
}

/** A config file and folders in a temp dir, laid out as scripts/start lays out ./var. */
export async function tempInstall(extraToml = ''): Promise<TempInstall> {
  const root = await mkdtemp(join(tmpdir(), 'mo-test-'));
  const paths = {
    downloads: join(root, 'downloads'),
    config: join(root, 'config'),
    data: join(root, 'data'),
    drive: join(root, 'media', 'disk1'),
  };
  for (const p of [paths.downloads, paths.config, paths.data, join(paths.drive, 'Movies'), join(paths.drive, 'TV')]) {
    await mkdir(p, { recursive: true });
  }
  await writeTestKey(paths.data);
  const configFile = join(paths.config, 'config.toml');
  await writeFile(
    configFile,
    `[paths]\ndownloads = "${paths.downloads}"\nconfig = "${paths.config}"\ndata = "${paths.data}"\n\n` +
      `[[drives]]\nname = "disk1"\npath = "${paths.drive}"\n\n${extraToml}`,
  );
  return { root, configFile, paths, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export interface RunningProcess {
  proc: ChildProcess;
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts an app as a real process: from its TypeScript through tsx (tests), or with `built` from
 * the bundle `pnpm build` makes, as production runs it (benchmarks; call `buildApps` first).
 */
export function startProcess(app: 'api' | 'worker', env: Record<string, string>, opts: { built?: boolean } = {}): RunningProcess {
  // The same node flags as the start:api / start:worker scripts.
  const args = opts.built
    ? [
        '--enable-source-maps',
        ...(app === 'api' ? ['--max-semi-space-size=2', '--heap-growing-percent=20', '--expose-gc'] : []),
        join(REPO_ROOT, `apps/${app}/dist/main.mjs`),
      ]
    : ['--import', 'tsx', join(REPO_ROOT, `apps/${app}/src/main.ts`)];
  const proc = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return {
    proc,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

export function buildApps(): void {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('pnpm build failed');
}

export async function waitFor<T>(fn: () => Promise<T | undefined | false>, ms = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      lastErr = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
}
