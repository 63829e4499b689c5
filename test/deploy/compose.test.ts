// No Docker engine runs the tests, so this keeps Dockerfile, docker-compose.yml and deploy/ honest by
// parsing them and checking them against the code they start.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { QUEUE_NAMES, DEFAULT_CONFIG } from '@mo/shared';
import { readProcessEnv, readWorkerMetricsEnv, DEFAULT_CONFIG_FILE, loadFileConfig } from '@mo/core';
import { hardlinkByMounts, ownershipFromEnv, umaskFromEnv, parseMountInfo } from '@mo/core/fs';
import { MAX_BODY_BYTES, MAX_DISCARD_BYTES, MAX_WAIT_SECONDS, HEARTBEAT_MS } from '@mo/api/limits';
import { testApp } from '@mo/api/test-support/app';
import { startCommand } from './support/dockerfile.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** CONTRACT.md, "Processes, environment, defaults". */
const CONTRACT_ENV = ['MEDIA_ORGANIZER_CONFIG', 'REDIS_URL', 'QUEUE_PREFIX', 'PORT', 'HOST', 'WORKER_QUEUES'];
/** docs/operations.md, "Ownership: PUID, PGID, UMASK". */
const OWNERSHIP_ENV = ['PUID', 'PGID', 'UMASK'];
/** CONTRACT.md, "Deployment and integration"; docs/operations.md, "Metrics" (the host). Workers only. */
const WORKER_METRICS_ENV = ['WORKER_METRICS_PORT', 'WORKER_METRICS_HOST'];
const APP_SERVICES = ['api', 'worker', 'gpu-worker'];

type Service = Record<string, any>;
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service>; volumes?: Record<string, unknown>; networks?: Record<string, any> };
const services = compose.services;
const pkg = JSON.parse(read('package.json')) as { packageManager: string; scripts: Record<string, string> };
// The API's port when PORT is unset: the one the image exposes and the proxy must reach.
const API_PORT = readProcessEnv({}).port;

/** `${NAME:-default}` as compose resolves it when the host sets nothing. */
const interpolate = (s: string) => s.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_m, _name, fallback: string | undefined) => fallback ?? '');

function envOf(service: Service): Record<string, string> {
  const raw = service.environment ?? {};
  const entries: [string, unknown][] = Array.isArray(raw) ? raw.map((e: string) => e.split(/=(.*)/s, 2) as [string, string]) : Object.entries(raw);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(String(v ?? ''))]));
}

function mountsOf(service: Service): { source: string; target: string }[] {
  return (service.volumes ?? []).map((v: string | { source: string; target: string }) => {
    if (typeof v !== 'string') return { source: v.source, target: v.target };
    const [source, target] = interpolate(v).split(':');
    return { source: source!, target: target! };
  });
}

function serviceCommand(name: string): string[] {
  const command = services[name]!.command;
  return Array.isArray(command) ? command : String(command).split(/\s+/);
}

/** nginx sizes: 2m, 1100k, 1048577. */
function bytes(size: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (!m) throw new Error(`not an nginx size: ${size}`);
  return Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
}

describe('docker-compose.yml', () => {
  it('runs api and workers from one image, each with the node command of its package.json start script', () => {
    const image = services.api!.image;
    for (const name of APP_SERVICES) expect(services[name]?.image, name).toBe(image);
    // The image has no pnpm and no esbuild: the scripts' build step is done when the image is built.
    expect(serviceCommand('api')).toEqual(startCommand(pkg.scripts['start:api']!));
    expect(serviceCommand('worker')).toEqual(startCommand(pkg.scripts['start:worker']!));
    expect(serviceCommand('gpu-worker')).toEqual(startCommand(pkg.scripts['start:worker']!));
  });

  it("sets only CONTRACT.md variables and the documented ownership ones on the app services, in a form the apps accept", () => {
    for (const name of APP_SERVICES) {
      const env = envOf(services[name]!);
      const extra = [...(name === 'gpu-worker' ? ['NVIDIA_DRIVER_CAPABILITIES'] : []), ...(name === 'api' ? [] : WORKER_METRICS_ENV)];
      for (const key of Object.keys(env)) expect([...CONTRACT_ENV, ...OWNERSHIP_ENV, ...extra], `${name}: ${key}`).toContain(key);
      expect(() => readProcessEnv(env), name).not.toThrow();
      // No metrics server unless the host asks for one, and then on the port it names.
      expect(readWorkerMetricsEnv(env), name).toBeNull();
      if (name !== 'api') expect(readWorkerMetricsEnv({ ...env, WORKER_METRICS_PORT: '9464' }), name).toEqual({ port: 9464, host: '0.0.0.0' });
      expect(() => ownershipFromEnv(env, { uid: 0, gid: 0, groups: [] }), name).not.toThrow();
      expect(umaskFromEnv(env), name).not.toBeNull();
      // The image's entrypoint refuses 0: the apps never run as root.
      expect(Number(env.PUID), name).toBeGreaterThan(0);
      expect(Number(env.PGID), name).toBeGreaterThan(0);
    }
  });

  it('points api and every worker at the same Redis, prefix and config file', () => {
    const [api, ...workers] = APP_SERVICES.map((n) => envOf(services[n]!));
    for (const key of ['REDIS_URL', 'QUEUE_PREFIX', 'MEDIA_ORGANIZER_CONFIG']) {
      expect(api![key], key).toBeTruthy();
      for (const w of workers) expect(w[key], key).toBe(api![key]);
    }
    const redis = new URL(api!.REDIS_URL!);
    expect(services[redis.hostname]?.image).toMatch(/^redis:7/);
    expect(redis.port || '6379').toBe('6379');
    expect(api!.MEDIA_ORGANIZER_CONFIG).toBe(DEFAULT_CONFIG_FILE);
  });

  it('has the plain worker consume every queue by default', () => {
    const env = envOf(services.worker!);
    const queues = env.WORKER_QUEUES!.split(',');
    for (const q of queues) expect(QUEUE_NAMES).toContain(q);
    expect([...queues].sort()).toEqual([...QUEUE_NAMES].sort());
    expect(readProcessEnv(env).workerQueues.sort()).toEqual([...QUEUE_NAMES].sort());
    expect(services.worker!.profiles).toBeUndefined();
  });

  it('keeps the gpu worker behind the gpu profile, on transcode only, with an NVIDIA reservation', () => {
    const gpu = services['gpu-worker']!;
    expect(gpu.profiles).toEqual(['gpu']);
    const env = envOf(gpu);
    expect(env.WORKER_QUEUES).toBe('transcode');
    expect(QUEUE_NAMES).toContain(env.WORKER_QUEUES);
    expect(env.NVIDIA_DRIVER_CAPABILITIES!.split(',')).toEqual(expect.arrayContaining(['compute', 'video', 'utility']));
    expect(gpu.deploy?.resources?.reservations?.devices).toContainEqual({ driver: 'nvidia', count: 'all', capabilities: ['gpu'] });
    for (const name of ['redis', 'api', 'worker', 'proxy']) expect(services[name]!.profiles, name).toBeUndefined();
  });

  it('runs Redis with an append-only file, no eviction, a named volume and a ping healthcheck', () => {
    const redis = services.redis!;
    const command = serviceCommand('redis').join(' ');
    expect(command).toMatch(/--appendonly yes\b/);
    expect(command).toMatch(/--maxmemory-policy noeviction\b/);
    const data = mountsOf(redis).find((m) => m.target === '/data');
    expect(data).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(data!.source);
    expect(redis.healthcheck.test.join(' ')).toMatch(/redis-cli ping/);
    for (const name of APP_SERVICES) expect(services[name]!.depends_on?.redis?.condition, name).toBe('service_healthy');
  });

  it('mounts two folders into api and workers: /config for what the service writes, and one folder for downloads and media', () => {
    const first = mountsOf(services.api!);
    expect(first.map((m) => m.target).sort()).toEqual([DEFAULT_CONFIG.paths.config, '/data']);
    // The same mounts everywhere: a worker must see the paths the API validated and the index holds.
    for (const name of APP_SERVICES) expect(mountsOf(services[name]!), name).toEqual(first);
    expect(envOf(services.api!).MEDIA_ORGANIZER_CONFIG!.startsWith(`${DEFAULT_CONFIG.paths.config}/`)).toBe(true);
  });

  it('ships an example config whose downloads and drives lie in one bind mount, and whose state lies in /config, apart from them', async () => {
    const config = await loadFileConfig(join(ROOT, 'deploy/config.example.toml'));
    const mounts = mountsOf(services.worker!);
    const holder = (path: string) => mounts.filter((m) => path === m.target || path.startsWith(`${m.target}/`)).map((m) => m.target);
    expect(config.drives.length).toBeGreaterThan(0);
    const media = holder(config.paths.downloads);
    expect(media).toHaveLength(1);
    for (const drive of config.drives) expect(holder(drive.path), drive.name).toEqual(media);
    expect(config.paths.config).toBe(DEFAULT_CONFIG.paths.config);
    expect(holder(config.paths.data)).toEqual([config.paths.config]);
    expect(holder(config.paths.data)).not.toEqual(media);
    // The contract's default data folder would be the user's own folder here: the image's first
    // start writes a config that moves it (test/deploy/image.test.ts), and the example does.
    expect(holder(DEFAULT_CONFIG.paths.data)).toEqual(media);
    expect(config.paths.data).not.toBe(DEFAULT_CONFIG.paths.data);

    // As the container's mount table would show them: each volume a bind mount of one disk.
    const table = [
      '1 0 8:1 / / rw - overlay overlay rw',
      ...mounts.map((m, i) => `${100 + i} 1 8:17 /host${m.source.replace(/^\./, '')} ${m.target.replace(/ /g, '\\040')} rw - ext4 /dev/sdb1 rw`),
    ].join('\n');
    for (const drive of config.drives) expect(hardlinkByMounts(parseMountInfo(table), config.paths.downloads, drive.path)?.problem, drive.name).toBeNull();
  });

  it('checks api health on /api/ready at the port the api listens on; workers do not inherit it', () => {
    const test = services.api!.healthcheck.test.join(' ');
    expect(test).toContain(`127.0.0.1:${API_PORT}/api/ready`);
    expect(services.api!.expose?.map(String)).toContain(String(API_PORT));
    // The image's HEALTHCHECK asks the API port; a worker would be marked unhealthy forever.
    expect(services.worker!.healthcheck?.disable).toBe(true);
    expect(services['gpu-worker']!.healthcheck?.disable).toBe(true);
  });
});

describe('proxy', () => {
  const proxy = services.proxy!;
  const confMount = mountsOf(proxy).find((m) => m.target.startsWith('/etc/nginx/'))!;
  const conf = read(confMount.source).replace(/#.*$/gm, '');
  const apiLocation = /location\s+(?:\^~\s+)?\/api\/?\s*\{([^}]*)\}/.exec(conf)?.[1] ?? '';

  it('mounts an nginx config from deploy/', () => {
    expect(proxy.image).toMatch(/^nginx:/);
    expect(confMount.source).toMatch(/^\.\/deploy\//);
    expect(existsSync(join(ROOT, confMount.source))).toBe(true);
  });

  it('forwards /api unchanged to the api service port', () => {
    expect(apiLocation).not.toBe('');
    const upstreams = [...conf.matchAll(/http:\/\/([\w.-]+):(\d+)(\S*?);/g)];
    expect(upstreams.length).toBeGreaterThan(0);
    for (const [, host, port, path] of upstreams) {
      expect(host).toBe('api');
      expect(Object.keys(services)).toContain(host);
      expect(Number(port)).toBe(API_PORT);
      // A URI after the port would make nginx rewrite the path; the API wants /api/... as is.
      expect(path).toBe('');
    }
    expect(apiLocation).toMatch(/proxy_pass\s+\S+;/);
  });

  it('passes X-Forwarded-* and allows job waits', () => {
    for (const h of ['X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host']) expect(apiLocation).toMatch(new RegExp(`proxy_set_header\\s+${h}\\s`));
    const readTimeout = /proxy_read_timeout\s+(\d+)s?;/.exec(apiLocation);
    expect(Number(readTimeout?.[1])).toBeGreaterThan(MAX_WAIT_SECONDS);
  });

  it('forwards every other path to the api too, where the web UI is served', () => {
    const root = /location\s+\/\s*\{([^}]*)\}/.exec(conf)?.[1] ?? '';
    expect(root, 'location / { … }').toMatch(/proxy_pass\s+\S+;/);
    for (const h of ['Host', 'X-Forwarded-Host']) expect(root).toMatch(new RegExp(`proxy_set_header\\s+${h}\\s`));
  });

  it('streams /api/events unbuffered to the same upstream, with a read timeout far above the heartbeat', () => {
    const events = /location\s+=\s+\/api\/events\s*\{([^}]*)\}/.exec(conf)?.[1] ?? '';
    expect(events, 'location = /api/events { … }').not.toBe('');
    expect(events).toMatch(/proxy_pass\s+\S+;/);
    expect(events).toMatch(/proxy_buffering\s+off;/);
    for (const h of ['Host', 'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host']) expect(events).toMatch(new RegExp(`proxy_set_header\\s+${h}\\s`));
    const m = /proxy_read_timeout\s+(\d+)(s|m|h)?;/.exec(events);
    const seconds = Number(m?.[1]) * ({ s: 1, m: 60, h: 3600 } as Record<string, number>)[m?.[2] ?? 's']!;
    expect(seconds * 1000).toBeGreaterThanOrEqual(4 * HEARTBEAT_MS);
  });

  it('passes on bodies up to what the API reads before its 413, and answers larger ones itself with the same JSON', async () => {
    // Between the two, the API answers; above, nginx: either way the client gets the API's body.
    const bodySize = bytes(/client_max_body_size\s+(\w+);/.exec(conf)?.[1] ?? '0');
    expect(bodySize).toBeGreaterThan(MAX_BODY_BYTES);
    expect(bodySize).toBeLessThanOrEqual(MAX_DISCARD_BYTES);
    const target = /error_page\s+413\s+@([\w-]+);/.exec(conf)?.[1];
    expect(target, 'error_page 413 @location').toBeDefined();
    const location = new RegExp(`location\\s+@${target}\\s*\\{\\s*default_type\\s+application/json;\\s*return\\s+413\\s+'([^']*)';\\s*\\}`).exec(conf);
    expect(location, `location @${target} with default_type application/json and return 413 '<json>'`).not.toBeNull();
    const t = await testApp();
    try {
      const api = await t.app.request('/api/settings', { method: 'POST', body: 'x'.repeat(MAX_BODY_BYTES + 1), headers: { 'content-type': 'application/json' } });
      expect(api.status).toBe(413);
      expect(JSON.parse(location![1]!)).toEqual(await api.json());
    } finally {
      await t.close();
    }
  });

  it("has the fixed address the example config trusts, in the network's subnet, and nginx appends the peer it saw", async () => {
    const config = await loadFileConfig(join(ROOT, 'deploy/config.example.toml'));
    const address = proxy.networks?.default?.ipv4_address as string;
    expect(config.app.trusted_proxies).toEqual([address]);
    const subnet = compose.networks!.default!.ipam.config[0].subnet as string;
    const [net, bits] = subnet.split('/');
    const toInt = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
    const hostBits = 2 ** (32 - Number(bits));
    expect(Math.floor(toInt(address) / hostBits)).toBe(Math.floor(toInt(net!) / hostBits));
    // Only the proxy has a fixed address, so no other service can be given the trusted one.
    for (const [name, service] of Object.entries(services)) if (name !== 'proxy') expect(JSON.stringify(service.networks ?? {}), name).not.toContain('ipv4_address');
    // The client's own address is the rightmost entry the API reads: nginx must append it.
    for (const location of conf.matchAll(/location[^{]*\{([^}]*)\}/g)) {
      if (/proxy_pass/.test(location[1]!)) expect(location[1]).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
    }
  });

  it('publishes the port nginx listens on', () => {
    const listen = /listen\s+(\d+)/.exec(conf)?.[1];
    const published = (proxy.ports as string[]).map((p) => interpolate(String(p)).split(':').at(-1));
    expect(published).toContain(listen);
  });
});
