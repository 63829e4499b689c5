// What the benches that start the real API and worker share: starting them and waiting until they
// serve, reading a process's memory from /proc, a plain JSON request, `find` as the baseline, and
// stopping everything on the way out.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startProcess, TEST_API_KEY, waitFor, type RunningProcess } from '@mo/test-support/service';
import { dropPrefix } from '@mo/test-support/redis';
import { get } from './http-load.ts';

/** VmRSS and VmHWM of a process, in bytes. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** `find <roots> -type f [extra]`: the lines it printed and its wall time. */
export function runFind(roots: readonly string[], extra: readonly string[] = []): Promise<{ ms: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn('find', [...roots, '-type', 'f', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    p.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - t0, lines }) : reject(new Error(`find exited with ${code}`))));
  });
}

/** A request with the test key and without Accept-Encoding: the plain JSON answer, read whole. */
export function requestJson(
  agent: Agent,
  host: string,
  port: number,
  method: 'GET' | 'POST',
  path: string,
  body = '{}',
): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host, port, path, method, agent, headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(method === 'POST' ? body : undefined);
  });
}

/** The bundled API and worker on `env`, once the API is ready and the worker has started; both added to `running`. */
export async function startService(
  env: Record<string, string>,
  agent: Agent,
  running: RunningProcess[],
): Promise<{ api: RunningProcess; worker: RunningProcess }> {
  const api = startProcess('api', env, { built: true });
  const worker = startProcess('worker', env, { built: true });
  running.push(api, worker);
  try {
    await waitFor(
      async () => {
        if (api.proc.exitCode !== null) throw new Error(`api exited with ${api.proc.exitCode}`);
        return (await get(agent, env.HOST!, Number(env.PORT), '/api/ready')).status === 200;
      },
      60_000,
      'the API to be ready',
    );
    await waitFor(async () => worker.output().includes('worker started'), 60_000, 'the worker to start');
  } catch (err) {
    console.error(api.output().slice(-4000), worker.output().slice(-4000));
    throw err;
  }
  return { api, worker };
}

/** Stops the processes (SIGKILL after 5 s) and drops the Redis prefixes. */
export async function stopService(running: RunningProcess[], redisUrl: string, prefixes: string[]): Promise<void> {
  for (const p of running.splice(0)) {
    const killer = setTimeout(() => p.proc.kill('SIGKILL'), 5000);
    await p.stop('SIGTERM').catch(() => {});
    clearTimeout(killer);
  }
  for (const p of prefixes.splice(0)) await dropPrefix(redisUrl, p).catch((err) => console.error(`could not drop Redis prefix ${p}: ${String(err)}`));
}
