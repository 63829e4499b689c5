// No Docker engine runs the tests, so this keeps Dockerfile, docker-compose.yml and deploy/ honest by
// parsing them and checking them against the code they start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { QUEUE_NAMES } from '../../packages/shared/src/jobs/queues.ts';
import { DEFAULT_CONFIG } from '../../packages/shared/src/config/schema.ts';
import { readProcessEnv } from '../../packages/core/src/config/env.ts';
import { DEFAULT_CONFIG_FILE, loadFileConfig } from '../../packages/core/src/config/load.ts';
import { MAX_BODY_BYTES } from '../../apps/api/src/app.ts';
import { MAX_WAIT_SECONDS } from '../../apps/api/src/http/jobs.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** CONTRACT.md, "Processes, environment, defaults". */
const CONTRACT_ENV = ['MEDIA_ORGANIZER_CONFIG', 'REDIS_URL', 'QUEUE_PREFIX', 'PORT', 'HOST', 'WORKER_QUEUES'];
const APP_SERVICES = ['api', 'worker', 'gpu-worker'];

type Service = Record<string, any>;
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service>; volumes?: Record<string, unknown> };
const services = compose.services;
const pkg = JSON.parse(read('package.json')) as { packageManager: string; scripts: Record<string, string> };
const dockerfile = read('Dockerfile');
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
  it('runs api and workers from one image, each with a root package.json script', () => {
    const image = services.api!.image;
    for (const name of APP_SERVICES) {
      expect(services[name]?.image, name).toBe(image);
      const [bin, script] = serviceCommand(name);
      expect(bin, name).toBe('pnpm');
      expect(Object.keys(pkg.scripts), name).toContain(script);
    }
    expect(serviceCommand('api')).toEqual(['pnpm', 'start:api']);
    expect(serviceCommand('worker')).toEqual(['pnpm', 'start:worker']);
    expect(serviceCommand('gpu-worker')).toEqual(['pnpm', 'start:worker']);
  });

  it('sets only CONTRACT.md variables on the app services, in a form the apps accept', () => {
    for (const name of APP_SERVICES) {
      const env = envOf(services[name]!);
      const extra = name === 'gpu-worker' ? ['NVIDIA_DRIVER_CAPABILITIES'] : [];
      for (const key of Object.keys(env)) expect([...CONTRACT_ENV, ...extra], `${name}: ${key}`).toContain(key);
      expect(() => readProcessEnv(env), name).not.toThrow();
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

  it('mounts config, data, downloads and a media drive into api and workers at the config defaults', () => {
    for (const name of APP_SERVICES) {
      const targets = mountsOf(services[name]!).map((m) => m.target);
      expect(targets, name).toEqual(expect.arrayContaining([DEFAULT_CONFIG.paths.config, DEFAULT_CONFIG.paths.data, DEFAULT_CONFIG.paths.downloads]));
      expect(targets.some((t) => t.startsWith('/media/')), name).toBe(true);
    }
    expect(envOf(services.api!).MEDIA_ORGANIZER_CONFIG!.startsWith(`${DEFAULT_CONFIG.paths.config}/`)).toBe(true);
  });

  it('ships an example config that loads and names exactly the mounted folders', async () => {
    const config = await loadFileConfig(join(ROOT, 'deploy/config.example.toml'));
    const targets = mountsOf(services.worker!).map((m) => m.target);
    expect(targets).toEqual(expect.arrayContaining([config.paths.config, config.paths.data, config.paths.downloads]));
    expect(config.drives.length).toBeGreaterThan(0);
    for (const drive of config.drives) expect(targets).toContain(drive.path);
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

  it('passes X-Forwarded-* and allows job waits and bodies just over the API limits', () => {
    for (const h of ['X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host']) expect(apiLocation).toMatch(new RegExp(`proxy_set_header\\s+${h}\\s`));
    const readTimeout = /proxy_read_timeout\s+(\d+)s?;/.exec(apiLocation);
    expect(Number(readTimeout?.[1])).toBeGreaterThan(MAX_WAIT_SECONDS);
    const bodySize = bytes(/client_max_body_size\s+(\w+);/.exec(conf)?.[1] ?? '0');
    expect(bodySize).toBeGreaterThan(MAX_BODY_BYTES);
    expect(bodySize).toBeLessThanOrEqual(8 * MAX_BODY_BYTES);
  });

  it('publishes the port nginx listens on', () => {
    const listen = /listen\s+(\d+)/.exec(conf)?.[1];
    const published = (proxy.ports as string[]).map((p) => interpolate(String(p)).split(':').at(-1));
    expect(published).toContain(listen);
  });
});

describe('Dockerfile', () => {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const installAt = lines.findIndex((l) => /^RUN .*pnpm install --frozen-lockfile/.test(l));

  it('builds on node 20 slim with ffmpeg and the pinned pnpm', () => {
    expect(lines[0]).toBe('FROM node:20-bookworm-slim');
    const aptInstall = lines.find((l) => /^RUN .*apt-get install /.test(l)) ?? '';
    expect(aptInstall.split(/\s+/)).toContain('ffmpeg');
    expect(dockerfile).toContain(`pnpm@${pkg.packageManager.replace(/^pnpm@/, '')}`);
  });

  it('has pnpm run scripts with bash, so that SIGTERM reaches the app (dash drops it)', () => {
    expect(lines.some((l) => /^ENV .*\bnpm_config_script_shell=\/bin\/bash\b/.test(l))).toBe(true);
  });

  it('installs with the frozen lockfile from the manifests of every workspace package', () => {
    expect(installAt).toBeGreaterThan(0);
    // Sources of the COPY lines before the install (the last word is the destination).
    const copied = lines.slice(0, installAt).filter((l) => l.startsWith('COPY ')).flatMap((l) => l.split(/\s+/).slice(1, -1));
    const manifests = (parse(read('pnpm-workspace.yaml')) as { packages: string[] }).packages.flatMap((glob) => {
      const dir = glob.replace(/\/\*$/, '');
      return readdirSync(join(ROOT, dir))
        .filter((name) => existsSync(join(ROOT, dir, name, 'package.json')))
        .map((name) => `${dir}/${name}/package.json`);
    });
    expect(manifests.length).toBeGreaterThan(0);
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', ...manifests]));
    expect(lines.indexOf('COPY . .')).toBeGreaterThan(installAt);
  });

  it('exposes the api port, sets the default config path, checks /api/ready and starts the api', () => {
    expect(lines).toContain(`EXPOSE ${API_PORT}`);
    expect(lines).toContain(`ENV MEDIA_ORGANIZER_CONFIG=${DEFAULT_CONFIG_FILE}`);
    expect(lines.find((l) => l.startsWith('HEALTHCHECK'))).toMatch(/CMD \["node".*\/api\/ready/);
    const cmd = JSON.parse(lines.find((l) => l.startsWith('CMD '))!.slice(4)) as string[];
    expect(cmd).toEqual(['pnpm', 'start:api']);
    expect(pkg.scripts[cmd[1]!]).toBeDefined();
  });

  it('keeps dependencies and the bind-mounted user folders out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim().replace(/^\//, ''));
    expect(ignored).toContain('**/node_modules');
    for (const m of mountsOf(services.api!)) {
      const top = m.source.replace(/^\.\//, '').split('/')[0]!;
      expect(ignored, m.source).toContain(top);
    }
  });
});
