// A closed-loop HTTP load generator: `concurrency` clients, each sending its next request as soon
// as the previous answer has been read in full, over keep-alive connections. node:http with a
// keep-alive Agent rather than fetch: on a 2-core machine the client shares the CPU with the
// server, and node:http costs the client several times less per request than fetch (undici's
// WHATWG layer), so the figures say more about the server.
import { Agent, request } from 'node:http';
import { TEST_API_KEY } from '@mo/test-support/service';

export interface OneAnswer {
  status: number;
  bytes: number;
  ms: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Status codes other than 200, counted. */
  statuses: Record<number, number>;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  bytesPerAnswer: number;
  stoppedByTime: boolean;
  /** Every latency, sorted (ms). */
  latencies: number[];
  bytes: number;
}

export function get(agent: Agent, host: string, port: number, path: string): Promise<OneAnswer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // A browser's Accept-Encoding: a server that compresses (or keeps compressed copies) may use it.
    // The body is counted as it comes over the wire, not decoded.
    const req = request({ host, port, path, method: 'GET', agent, headers: { 'accept-encoding': 'gzip, deflate, br', 'x-api-key': TEST_API_KEY } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export async function closedLoop(opts: {
  host: string;
  port: number;
  path: string;
  concurrency: number;
  requests: number;
  maxSeconds: number;
  agent: Agent;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let issued = 0;
  let errors = 0;
  let bytes = 0;
  let stoppedByTime = false;
  const t0 = performance.now();
  const deadline = t0 + opts.maxSeconds * 1000;
  const client = async () => {
    while (issued < opts.requests) {
      if (performance.now() > deadline) {
        stoppedByTime = true;
        return;
      }
      issued++;
      try {
        const a = await get(opts.agent, opts.host, opts.port, opts.path);
        latencies.push(a.ms);
        bytes += a.bytes;
        if (a.status !== 200) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  return summarise(latencies, (performance.now() - t0) / 1000, errors, statuses, bytes, stoppedByTime);
}

function summarise(latencies: number[], seconds: number, errors: number, statuses: Record<number, number>, bytes: number, stoppedByTime: boolean): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    statuses,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    bytesPerAnswer: latencies.length > 0 ? bytes / latencies.length : 0,
    stoppedByTime,
    latencies,
    bytes,
  };
}

/** Several runs against one endpoint as one: requests/s over their summed time, percentiles over all latencies. */
export function mergeResults(runs: readonly LoadResult[]): LoadResult {
  const statuses: Record<number, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statuses)) statuses[Number(k)] = (statuses[Number(k)] ?? 0) + v;
  return summarise(
    runs.flatMap((r) => r.latencies),
    runs.reduce((n, r) => n + r.seconds, 0),
    runs.reduce((n, r) => n + r.errors, 0),
    statuses,
    runs.reduce((n, r) => n + r.bytes, 0),
    runs.some((r) => r.stoppedByTime),
  );
}
