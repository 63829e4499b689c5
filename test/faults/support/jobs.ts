// Real worker processes and what BullMQ keeps of their jobs.
import { startProcess, waitFor, type RunningProcess } from '@mo/test-support/service';
import { send, json } from './http.ts';

export type LogLine = Record<string, unknown> & { msg?: string };

export function logLines(p: RunningProcess): LogLine[] {
  const out: LogLine[] = [];
  for (const line of p.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as LogLine);
    } catch {
      // A line cut at the moment of the kill.
    }
  }
  return out;
}

/** A bundled worker (`buildApps()` first), resolved once it has logged "worker started". */
export async function startWorker(env: Record<string, string>): Promise<RunningProcess> {
  const w = startProcess('worker', env, { built: true });
  await waitFor(
    async () => {
      if (w.proc.exitCode !== null) throw new Error(`the worker exited with ${w.proc.exitCode}: ${w.output().slice(-2000)}`);
      return w.output().includes('"msg":"worker started"');
    },
    20_000,
    'the worker to start',
  );
  return w;
}

/** Resolves with the attempt number once the worker logs "job started" for `id`. Polls every 5 ms. */
export async function jobStarted(w: RunningProcess, id: string, ms = 30_000): Promise<number> {
  const deadline = Date.now() + ms;
  let seen = 0;
  for (;;) {
    const out = w.output();
    if (out.length !== seen) {
      seen = out.length;
      const hit = logLines(w).find((l) => l.msg === 'job started' && String(l.job_id) === id);
      if (hit) return Number(hit.attempt ?? 1);
    }
    if (w.proc.exitCode !== null || w.proc.signalCode !== null) throw new Error(`worker gone before job ${id} started`);
    if (Date.now() > deadline) throw new Error(`job ${id} did not start within ${ms} ms:\n${out.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export interface JobRecord {
  id: string;
  state: string;
  error: string | null;
  result: any;
  progress: unknown;
}

export async function jobRecord(port: number, queue: string, id: string): Promise<JobRecord | null> {
  const a = await send(port, 'GET', `/api/jobs/${queue}/${encodeURIComponent(id)}`);
  if (a.status === 404) return null;
  if (a.status !== 200) throw new Error(`GET /api/jobs/${queue}/${id}: ${a.status} ${a.text}`);
  return json(a) as JobRecord;
}

/**
 * Waits until the job is completed or failed; null when it timed out in another state (stuck).
 * A "failed" record without its error is read again a moment later: GET /api/jobs can answer one
 * while the job is failing (see job-records.test.ts), and that is not what this wait is about.
 */
export async function jobFinal(port: number, queue: string, id: string, ms: number): Promise<JobRecord | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    let r = await jobRecord(port, queue, id).catch(() => null);
    if (r && r.state === 'failed' && !r.error) {
      await new Promise((res) => setTimeout(res, 200));
      r = (await jobRecord(port, queue, id).catch(() => null)) ?? r;
    }
    if (r && (r.state === 'completed' || r.state === 'failed')) return r;
    if (Date.now() > deadline) return null;
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Sends SIGKILL and resolves once the process is gone. */
export async function kill(w: RunningProcess): Promise<void> {
  await w.stop('SIGKILL');
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
