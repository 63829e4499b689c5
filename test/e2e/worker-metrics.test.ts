import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobClient, createLogger } from '@mo/core';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { startProcess, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';
import { PROM_CLIENT_TOTAL_GAUGES, readExposition } from '@mo/test-support/prometheus-text';
import { promtool, promtoolProblems } from '@mo/test-support/promtool';

// A real worker process with WORKER_METRICS_PORT: its own /metrics, the runs of a real job in it,
// and a refusal to start on a port it cannot use.
const redisUrl = testRedisUrl();
const prefix = uniquePrefix('e2e-worker-metrics');
let install: TempInstall;
const running: RunningProcess[] = [];

beforeAll(async () => {
  install = await tempInstall('[app]\nwatch = false\nscan_interval_seconds = 0\n');
});

afterAll(async () => {
  for (const p of running) await p.stop('SIGKILL');
  await dropPrefix(redisUrl, prefix);
  await install?.cleanup();
});

function worker(env: Record<string, string>): RunningProcess {
  const p = startProcess('worker', { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, WORKER_QUEUES: 'library', ...env });
  running.push(p);
  return p;
}

describe('a worker with WORKER_METRICS_PORT', () => {
  it('serves its own metrics on 127.0.0.1, counting the jobs it runs', async () => {
    const port = await freePort();
    const w = worker({ WORKER_METRICS_PORT: String(port) });
    await waitFor(async () => w.output().includes('worker started'), 30_000, 'the worker');
    expect(w.output()).toContain(`http://127.0.0.1:${port}/metrics`);
    const url = `http://127.0.0.1:${port}/metrics`;

    const client = createJobClient({ redisUrl, prefix, logger: createLogger({ name: 'e2e', level: 'silent' }) });
    try {
      expect((await client.submit('library-scan', { trigger: 'api' }, { waitSeconds: 20 })).kind).toBe('completed');
    } finally {
      await client.close();
    }
    const text = await (await fetch(url)).text();
    const { families, problems } = readExposition(text, { totalGauges: PROM_CLIENT_TOTAL_GAUGES });
    expect(problems).toEqual([]);
    expect(families.get('mo_worker_jobs_total')!.samples).toContainEqual({
      name: 'mo_worker_jobs_total',
      labels: { queue: 'library', job: 'library-scan', outcome: 'completed' },
      value: 1,
    });
    expect(families.get('mo_worker_concurrency')!.samples).toEqual([{ name: 'mo_worker_concurrency', labels: { queue: 'library' }, value: 1 }]);
    expect(families.get('process_resident_memory_bytes')!.samples[0]!.value).toBeGreaterThan(0);
    expect(families.get('mo_build_info')!.samples).toHaveLength(1);
    // Nothing of the install leaks into the labels: no folder, file or config path.
    expect(text).not.toContain(install.root);
    if (promtool) expect(promtoolProblems(text)).toEqual([]);
    expect(await w.stop('SIGTERM')).toBe(0);
  }, 60_000);

  // The values refused are listed beside the parser (packages/core/src/config/env.test.ts).
  it('refuses to start with a value that is not a port, saying why', async () => {
    const w = worker({ WORKER_METRICS_PORT: '70000' });
    const exited = await waitFor(async () => w.proc.exitCode !== null && { code: w.proc.exitCode }, 20_000, 'the worker to exit');
    expect(exited.code).toBe(1);
    expect(w.output()).toContain('WORKER_METRICS_PORT must be a port number from 1 to 65535, got "70000"');
    expect(w.output()).not.toContain('worker started');
  }, 30_000);
});
