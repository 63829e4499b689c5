// No Docker engine runs the tests, so the image is checked point by point from the Dockerfile:
// Node 24 LTS, stages, production dependencies only, no compiler or test tools, and the apps
// dropping root after applying PUID/PGID. Then what can run without Docker does: the runtime
// stage's files laid out as its COPY lines say (from a real production install and real bundles)
// start the API and a worker, and the entrypoint runs in a throwaway root (an overlay over this
// machine's, in a private mount namespace) to show who the app runs as.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_CONFIG_FILE, loadFileConfig, readProcessEnv } from '@mo/core';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { buildApps, REPO_ROOT, TEST_API_KEY, tempInstall, waitFor, type TempInstall } from '@mo/test-support/service';
import { copyOf, execForm, stages, startCommand, withBases, type Instruction, type Stage } from './support/dockerfile.ts';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as { packageManager: string; engines: { node: string }; scripts: Record<string, string> };
const all = stages(read('Dockerfile'));
const runtime = all.at(-1)!;
const API_PORT = readProcessEnv({}).port;
const WORKDIR = '/app';

const stage = (name: string) => {
  const s = all.find((x) => x.name === name);
  if (!s) throw new Error(`no stage ${name}`);
  return s;
};
const runs = (s: Stage | Instruction[]) => (Array.isArray(s) ? s : s.instructions).filter((i) => i.keyword === 'RUN').map((i) => i.args);
const copies = (s: Stage) => s.instructions.filter((i) => i.keyword === 'COPY').map(copyOf);
const one = (s: Stage, keyword: string) => {
  const found = s.instructions.filter((i) => i.keyword === keyword);
  expect(found, keyword).toHaveLength(1);
  return found[0]!;
};
/** The `pnpm install …` of a RUN line, without BuildKit's mount flags. */
const pnpmInstall = (run: string) => /\bpnpm install\b.*$/.exec(run)?.[0];

/** Every workspace package's manifest, as pnpm-workspace.yaml finds them. */
function manifests(): string[] {
  return (parse(read('pnpm-workspace.yaml')) as { packages: string[] }).packages.flatMap((glob) => {
    const dir = glob.replace(/\/\*$/, '');
    return readdirSync(join(REPO_ROOT, dir))
      .filter((name) => existsSync(join(REPO_ROOT, dir, name, 'package.json')))
      .map((name) => `${dir}/${name}/package.json`);
  });
}

/** Dev dependencies no package depends on for production: the compiler, bundler and test tools. */
function devOnlyPackages(): string[] {
  const prod = new Set<string>();
  const dev = new Set<string>();
  for (const m of ['package.json', ...manifests()]) {
    const p = JSON.parse(read(m)) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    for (const d of Object.keys(p.dependencies ?? {})) prod.add(d);
    for (const d of Object.keys(p.devDependencies ?? {})) dev.add(d);
  }
  return [...dev].filter((d) => !prod.has(d));
}

describe('Dockerfile', () => {
  it('builds and runs on Node 24 LTS, slim Debian, while the code still targets Node 20', () => {
    const images = all.filter((s) => !all.some((o) => o.name === s.from)).map((s) => s.from);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const m = /^node:(\d+)-bookworm-slim$/.exec(image);
      expect(m, image).not.toBeNull();
      // Even majors are the LTS lines; 24 is the one after 20 and 22.
      expect(Number(m![1])).toBe(24);
    }
    // 20.15 brought zlib.crc32, which the API's streamed gzip answers need.
    expect(pkg.engines.node).toBe('>=20.15');
    expect(read('scripts/bundle-options.mjs')).toMatch(/target: 'node20'/);
  });

  it('builds in stages, and the image that runs starts afresh from Node, not from a build stage', () => {
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.some((s) => s.name === runtime.from)).toBe(false);
    expect(runtime.from).toMatch(/^node:/);
  });

  it('installs from the frozen lockfile with every workspace manifest: everything to build, production only for the image', () => {
    const build = stage('build');
    const buildSteps = withBases(all, build);
    const installAt = buildSteps.findIndex((i) => i.keyword === 'RUN' && pnpmInstall(i.args));
    expect(installAt).toBeGreaterThan(0);
    const copied = buildSteps.slice(0, installAt).filter((i) => i.keyword === 'COPY').flatMap((i) => copyOf(i).sources);
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', ...manifests()]));
    expect(pnpmInstall(buildSteps[installAt]!.args)).toMatch(/--frozen-lockfile/);
    expect(pnpmInstall(buildSteps[installAt]!.args)).not.toMatch(/--prod\b/);
    const rest = buildSteps.slice(installAt);
    expect(rest.findIndex((i) => i.keyword === 'COPY' && i.args === '. .')).toBeGreaterThan(0);
    expect(runs(rest)).toContain('pnpm build');
    expect(read('Dockerfile')).toContain(`pnpm@${pkg.packageManager.replace(/^pnpm@/, '')}`);

    const prodSources = [...new Set(copies(runtime).filter((c) => c.from !== null && c.from !== 'build').map((c) => c.from!))];
    expect(prodSources).toHaveLength(1);
    const prodSteps = withBases(all, stage(prodSources[0]!));
    const prodInstall = runs(prodSteps).map(pnpmInstall).filter(Boolean);
    expect(prodInstall).toHaveLength(1);
    expect(prodInstall[0]).toMatch(/--frozen-lockfile/);
    expect(prodInstall[0]).toMatch(/--prod\b/);
    expect(prodSteps.some((i) => i.keyword === 'COPY' && i.args === '. .')).toBe(false);
  });

  it('keeps compilers, test tools, sources and package managers out of the image that runs: ffmpeg, the bundles and production node_modules', () => {
    const runSteps = runs(runtime);
    const aptInstalls = runSteps.filter((r) => /apt-get install/.test(r));
    expect(aptInstalls).toHaveLength(1);
    const packages = /apt-get install ((?:-\S+ )*)([^&]+)/.exec(aptInstalls[0]!)!;
    expect(packages[1]).toContain('--no-install-recommends');
    expect(packages[2]!.trim().split(' ')).toEqual(['ffmpeg']);
    for (const r of runSteps) expect(r, r).not.toMatch(/\b(?:npm|pnpm|yarn|corepack|pip3?)\b|\b(?:gcc|g\+\+|make|build-essential|python3?|cmake|clang)\b/);
    expect(runtime.instructions.some((i) => i.keyword === 'COPY' && / \. \.$|^\. \.$/.test(i.args))).toBe(false);
    for (const c of copies(runtime)) {
      if (c.from === 'build') for (const s of c.sources) expect(s, 'from build: only the bundles').toMatch(/^\/app\/apps\/[\w-]+\/dist$/);
      else if (c.from !== null) for (const s of c.sources) expect(s, 'production dependencies: only node_modules').toMatch(/^\/app\/(?:[\w-]+\/[\w-]+\/)?node_modules$/);
      else expect(c.sources, 'from the build context: only the entrypoint').toEqual(['deploy/entrypoint.sh']);
    }
  });

  it('starts as root only to apply PUID/PGID: the entrypoint gives the ids to user mo and execs the app as mo', () => {
    expect(runtime.instructions.some((i) => i.keyword === 'USER')).toBe(false);
    expect(runs(runtime).some((r) => /\bgroupadd --system mo\b/.test(r) && /\buseradd --system --gid mo\b/.test(r))).toBe(true);
    const entrypoint = execForm(one(runtime, 'ENTRYPOINT'));
    const installed = copies(runtime).find((c) => c.sources[0] === 'deploy/entrypoint.sh')!;
    expect(entrypoint).toEqual([installed.dest]);
    expect(installed.flags).toContain('--chmod=0755');
    const script = read('deploy/entrypoint.sh');
    const lastCommand = script.trim().split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')).at(-1)!;
    expect(lastCommand).toMatch(/^exec setpriv --reuid="\$PUID" --regid="\$PGID" --clear-groups .*-- "\$@"$/);
  });

  it('changes owners in the state folder alone: each chown is the state folder\'s or the config file the entrypoint wrote', async () => {
    const code = read('deploy/entrypoint.sh').split('\n').filter((l) => !l.trim().startsWith('#'));
    const state = /^STATE=(\S+)$/m.exec(code.join('\n'))?.[1];
    expect(state).toBe((await loadFileConfig(join(REPO_ROOT, 'deploy/config.example.toml'))).paths.data);
    const chowns = code.filter((l) => /\bchown\b/.test(l));
    expect(chowns).toHaveLength(2);
    for (const l of chowns) expect(l, l).not.toMatch(/-R\b|--recursive|\/data\b|\/downloads|\/media/);
    expect(chowns.filter((l) => /find "\$STATE" -xdev .*-exec chown -h "\$PUID:\$PGID" \{\} \+/.test(l))).toHaveLength(1);
    expect(chowns.filter((l) => /^\s*chown -h "\$PUID:\$PGID" "\$CONFIG_FILE"$/.test(l))).toHaveLength(1);
  });

  it("exposes the api port, sets the default config path, checks /api/ready and starts the api with start:api's node command", () => {
    expect(one(runtime, 'EXPOSE').args).toBe(String(API_PORT));
    expect(runtime.instructions.find((i) => i.keyword === 'ENV')!.args).toContain(`MEDIA_ORGANIZER_CONFIG=${DEFAULT_CONFIG_FILE}`);
    expect(one(runtime, 'HEALTHCHECK').args).toMatch(/CMD \["node".*\/api\/ready/);
    expect(execForm(one(runtime, 'CMD'))).toEqual(startCommand(pkg.scripts['start:api']!));
    expect(one(runtime, 'WORKDIR').args).toBe(WORKDIR);
  });

  it('keeps dependencies and the bind-mounted user folders out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim().replace(/^\//, ''));
    expect(ignored).toContain('**/node_modules');
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { volumes?: string[] }> };
    for (const v of compose.services.api!.volumes ?? []) {
      const top = v.replace(/\$\{\w+:-([^}]*)\}/g, '$1').split(':')[0]!.replace(/^\.\//, '').split('/')[0]!;
      expect(ignored, v).toContain(top);
    }
  });
});

describe("the runtime stage's files, laid out as its COPY lines say", () => {
  const redisUrl = testRedisUrl();
  const prefix = uniquePrefix('image');
  let dir: string;
  let image: string;
  let install: TempInstall;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mo-image-'));
    const prod = join(dir, 'prod-deps');
    image = join(dir, 'runtime');
    // The production install, as its stage runs it, from this machine's pnpm store.
    const prodName = copies(runtime).find((c) => c.from !== null && c.from !== 'build')!.from!;
    const store = spawnSync('pnpm', ['store', 'path'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout.trim();
    const own = new Set(stage(prodName).instructions);
    for (const ins of withBases(all, stage(prodName))) {
      if (ins.keyword === 'COPY') {
        const c = copyOf(ins);
        for (const s of c.sources) cpSync(join(REPO_ROOT, s), c.dest.endsWith('/') ? join(prod, c.dest, posix.basename(s)) : join(prod, c.dest));
      } else if (ins.keyword === 'RUN' && own.has(ins)) {
        // As written, from this machine's store instead of BuildKit's cache mount (the base
        // stage's RUN only installs pnpm, which this machine has).
        const cmd = ins.args.replace(/^(?:--mount=\S+ )+/, '').replace(/--store-dir \S+/, `--offline --store-dir "${store}"`);
        const r = spawnSync('sh', ['-ec', cmd], { cwd: prod, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`${cmd}: ${r.stdout}${r.stderr}`);
      }
    }
    // The build stage's `pnpm build`.
    buildApps();
    for (const c of copies(runtime).filter((x) => x.from !== null)) {
      const base = c.from === 'build' ? REPO_ROOT : prod;
      for (const s of c.sources) {
        const target = join(image, posix.resolve(WORKDIR, c.dest).slice(WORKDIR.length));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(join(base, posix.relative(WORKDIR, s)), target, { recursive: true, verbatimSymlinks: true });
      }
    }
  }, 240_000);

  afterAll(async () => {
    await install?.cleanup();
    await dropPrefix(redisUrl, prefix);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ship the web UI as its production bundle, even when built under the test runner', () => {
    const assets = join(image, 'apps/web/dist/assets');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    // A message only React's development build carries.
    for (const f of scripts) expect(readFileSync(join(assets, f), 'utf8')).not.toContain('cannot be a child of');
  });

  it('ship bundles without comments and source maps without the sources: each process holds less of its own code', () => {
    for (const app of ['api', 'worker']) {
      const bundle = readFileSync(join(image, `apps/${app}/dist/main.mjs`), 'utf8');
      // A comment of a module both bundles hold.
      expect(readFileSync(join(REPO_ROOT, 'packages/core/src/library/index-store.ts'), 'utf8')).toContain('Only workers write the index');
      expect(bundle).not.toContain('Only workers write the index');
      const map = JSON.parse(readFileSync(join(image, `apps/${app}/dist/main.mjs.map`), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
      expect(map.sources.some((s) => s.endsWith('index-store.ts'))).toBe(true);
      expect(map.sourcesContent).toBeUndefined();
    }
  });

  it('hold none of the dev-only packages (bundler, compiler, test tools), unless a production package needs one', () => {
    const store = join(image, 'node_modules', '.pnpm');
    const present = readdirSync(store).filter((d) => d !== 'node_modules' && !d.startsWith('lock'));
    // pnpm links each package's own dependencies beside it: <store>/<pkg>@<v>/node_modules/<dep>.
    const needed = new Set(
      present.flatMap((d) =>
        readdirSync(join(store, d, 'node_modules'))
          .flatMap((n) => (n.startsWith('@') ? readdirSync(join(store, d, 'node_modules', n)).map((m) => `${n}/${m}`) : [n]))
          // A peer the image lacks is a dangling link: not a need.
          .filter((n) => !d.startsWith(`${n.replace('/', '+')}@`) && existsSync(join(store, d, 'node_modules', n))),
      ),
    );
    const devOnly = devOnlyPackages();
    expect(devOnly).toEqual(expect.arrayContaining(['esbuild', 'typescript', 'tsx', 'vitest']));
    for (const name of devOnly.filter((n) => !needed.has(n))) {
      expect(present.filter((p) => p.startsWith(`${name.replace('/', '+')}@`)), name).toEqual([]);
    }
    for (const tool of ['esbuild', 'typescript', 'tsx', 'vitest', 'vite']) expect(needed.has(tool), tool).toBe(false);
  });

  it('start the API with the image CMD (health, the Bull Board page and its assets) and a worker with compose\'s command', async () => {
    install = await tempInstall('[app]\nscan_interval_seconds = 0\nwatch = false\n');
    const port = await freePort();
    const env = { ...process.env, MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
    const [bin, ...args] = execForm(one(runtime, 'CMD'));
    expect(bin).toBe('node');
    const api = spawn(process.execPath, args, { cwd: image, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    api.stdout.on('data', (d) => (out += d));
    api.stderr.on('data', (d) => (out += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      const headers = { 'x-api-key': TEST_API_KEY };
      await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, 30_000, `the api (${out})`);
      const page = await fetch(`${base}/api/admin/queues`, { headers });
      expect(page.status).toBe(200);
      const asset = /src="(static\/js\/main\.[^"]+\.js)"/.exec(await page.text())![1];
      expect((await fetch(`${base}/api/admin/queues/${asset}`, { headers })).status).toBe(200);
    } finally {
      api.kill('SIGKILL');
    }

    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { command: string[] }> };
    const [wbin, ...wargs] = compose.services.worker!.command;
    expect(wbin).toBe('node');
    const worker = spawn(process.execPath, wargs, { cwd: image, env: { ...env, WORKER_QUEUES: 'scan' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let wout = '';
    worker.stdout.on('data', (d) => (wout += d));
    worker.stderr.on('data', (d) => (wout += d));
    const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
    await waitFor(async () => wout.includes('"msg":"worker started"'), 30_000, `the worker (${wout})`);
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);
});

/** Root and a private mount namespace: an overlay over / becomes a throwaway copy of this machine. */
const sandbox = process.getuid?.() === 0 && spawnSync('unshare', ['--mount', '--fork', 'true']).status === 0;
if (!sandbox) console.warn('the entrypoint tests need root and unshare(1): skipped');

describe.skipIf(!sandbox)('the entrypoint, run in a throwaway root', () => {
  /** Runs `inner` (sh) chrooted into an overlay of /, after the Dockerfile's own user creation. */
  function inThrowawayRoot(inner: string): { status: number | null; out: string } {
    const userRun = runs(runtime).find((r) => /\buseradd\b/.test(r))!;
    const outer = `
      set -e
      T=$(mktemp -d); trap 'rmdir "$T" 2>/dev/null || true' EXIT
      mount -t tmpfs tmpfs "$T"; mkdir "$T/up" "$T/work" "$T/root"
      mount -t overlay overlay -o lowerdir=/,upperdir="$T/up",workdir="$T/work" "$T/root"
      mount --rbind /proc "$T/root/proc"; mount --rbind /dev "$T/root/dev"
      install -m 0755 "${join(REPO_ROOT, 'deploy/entrypoint.sh')}" "$T/root/usr/local/bin/media-organizer-entrypoint"
      chroot "$T/root" sh -c "$0"
    `;
    const r = spawnSync('unshare', ['--mount', '--fork', 'sh', '-c', outer, `set -e; ${userRun}; ${inner}`], { encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  }

  // The compose layout: config.toml and the state in /config, the user's downloads and media in
  // one folder at /data, all owned by root as a host's folders may be.
  const setup = `
    mkdir -p /config/data/journal /data/torrents /data/media/Movies
    echo 'x' > /config/config.toml; echo key > /config/data/api_key; chmod 600 /config/data/api_key; echo n > /config/data/journal/note
    echo v > /data/torrents/movie.mkv; echo v > /data/media/Movies/old.mkv; ln -s /data/media /config/data/link
  `;
  const STATE = ['/config/data', '/config/data/api_key', '/config/data/journal', '/config/data/journal/note', '/config/data/link'];
  const NOT_THE_SERVICES = ['/config', '/config/config.toml', '/data', '/data/torrents', '/data/torrents/movie.mkv', '/data/media', '/data/media/Movies', '/data/media/Movies/old.mkv'];
  const owners = `stat -c 'owner %u:%g %n' ${[...STATE, ...NOT_THE_SERVICES].join(' ')}`;

  it('gives mo the ids PUID and PGID, hands it the state folder only, and runs the command as mo without groups or capabilities', () => {
    const r = inThrowawayRoot(`${setup}
      PUID=1234 PGID=4321 media-organizer-entrypoint sh -c 'echo "ids $(id -u) $(id -g) [$(id -G)]"; grep -E "^(CapPrm|CapEff|NoNewPrivs):" /proc/self/status; cat /config/data/api_key'
      echo "user $(id -u mo) $(id -g mo)"
      ${owners}
    `);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('ids 1234 4321 [4321]');
    expect(r.out).toMatch(/CapPrm:\s+0+\n/);
    expect(r.out).toMatch(/CapEff:\s+0+\n/);
    expect(r.out).toMatch(/NoNewPrivs:\s+1\n/);
    expect(r.out).toContain('key\n');
    expect(r.out).toContain('user 1234 4321');
    for (const p of STATE) expect(r.out).toContain(`owner 1234:4321 ${p}\n`);
    // The link is handed over, never followed: what it points at stays as it was.
    for (const p of NOT_THE_SERVICES) expect(r.out).toContain(`owner 0:0 ${p}\n`);
  });

  it('never changes an owner in the folder mapped at /data, even with the old layout\'s state there', () => {
    const r = inThrowawayRoot(`${setup}
      echo '{}' > /data/state.json; mkdir /data/index
      PUID=1234 PGID=4321 media-organizer-entrypoint true
      stat -c 'owner %u:%g %n' /data/state.json /data/index; find /data ! -user 0 | sed 's/^/changed /'
    `);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('owner 0:0 /data/state.json\n');
    expect(r.out).toContain('owner 0:0 /data/index\n');
    expect(r.out).not.toContain('changed ');
  });

  it('on a first start without a config file, writes one that keeps the state in /config/data, owned by PUID:PGID', async () => {
    const r = inThrowawayRoot(`${setup}
      rm /config/config.toml
      PUID=1234 PGID=4321 media-organizer-entrypoint sh -c 'echo "ids $(id -u) $(id -g)"'
      stat -c 'owner %u:%g %n' /config/config.toml; echo ---; cat /config/config.toml; echo ---
    `);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('wrote /config/config.toml (state in /config/data)');
    expect(r.out).toContain('owner 1234:4321 /config/config.toml\n');
    const dir = mkdtempSync(join(tmpdir(), 'mo-first-run-'));
    try {
      const file = join(dir, 'config.toml');
      writeFileSync(file, r.out.split('---\n')[1]!);
      expect(r.out.split('---\n')[1]).toMatch(/^\[paths\]\ndata = "\/config\/data"$/m);
      expect((await loadFileConfig(file)).paths.data).toBe('/config/data');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a config file that is a link to nothing, never writing through it', () => {
    const r = inThrowawayRoot(`${setup}
      rm /config/config.toml; ln -s /data/media/victim.toml /config/config.toml
      PUID=1234 PGID=4321 media-organizer-entrypoint sh -c 'echo RAN' || echo "status $?"
      ls /data/media/victim.toml 2>&1 || echo 'not written'
    `);
    expect(r.out).toContain('status 64');
    expect(r.out).toContain('/config/config.toml is a link to nothing');
    expect(r.out).toContain('not written');
    expect(r.out).not.toContain('RAN');
  });

  it('refuses to start without a config file it cannot write, rather than keep the state among the media', () => {
    const r = inThrowawayRoot(`${setup}
      rm /config/config.toml; mount --bind /config /config; mount -o remount,bind,ro /config
      PUID=1234 PGID=4321 media-organizer-entrypoint sh -c 'echo RAN'
    `);
    expect(r.status).toBe(64);
    expect(r.out).toMatch(/\/config\/config\.toml is missing and could not be written; without it the state would go to \/data, among your media/);
    expect(r.out).not.toContain('RAN');
  });

  it('starts with /config mounted read-only, leaving it as it is', () => {
    const r = inThrowawayRoot(`${setup}
      mount --bind /config /config; mount -o remount,bind,ro /config
      PUID=1234 PGID=4321 media-organizer-entrypoint sh -c 'echo "ids $(id -u) $(id -g)"; cat /config/config.toml'
      stat -c 'owner %u:%g %n' /config/config.toml /config/data/api_key
    `);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('/config/data could not be handed to 1234:4321');
    expect(r.out).toContain('ids 1234 4321\nx\n');
    expect(r.out).toContain('owner 0:0 /config/config.toml\n');
    expect(r.out).toContain('owner 0:0 /config/data/api_key\n');
  });

  it('runs as 1000:1000 when PUID and PGID are unset', () => {
    const r = inThrowawayRoot(`${setup} media-organizer-entrypoint sh -c 'echo "ids $(id -u) $(id -g)"'`);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('ids 1000 1000');
  });

  it.each([
    ['PUID=0', /PUID=0 would run the service as root/],
    ['PGID=0', /PGID=0 would run the service as root/],
    ['PUID=abc', /PUID must be a numeric id, got "abc"/],
    ['PGID=-5', /PGID must be a numeric id/],
  ])('refuses %s before running anything', (assignment, message) => {
    const r = inThrowawayRoot(`${setup} ${assignment} media-organizer-entrypoint sh -c 'echo RAN'`);
    expect(r.status).toBe(64);
    expect(r.out).toMatch(message);
    expect(r.out).not.toContain('RAN');
  });

  it('started as another user already (compose `user:`), runs the command as it is', () => {
    const r = inThrowawayRoot(`${setup} PUID=1234 setpriv --reuid=2000 --regid=2000 --clear-groups media-organizer-entrypoint sh -c 'echo "ids $(id -u) $(id -g)"'`);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('ids 2000 2000');
  });
});
