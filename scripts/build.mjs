// Bundles each app into one ESM file that plain node runs. Running the TypeScript through tsx in
// production costs ~50 MB of RSS per process (its loader keeps a second V8 isolate); a bundle
// starts faster and leaves that memory to the library index.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOptions } from './bundle-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['api', 'worker', 'web'];
const apps = wanted.filter((a) => a !== 'web');

// The web UI is Vite's to build (static files the API serves at /).
if (wanted.includes('web')) {
  // Always the production bundle: Vite takes NODE_ENV from its environment, and a build started
  // under a test runner (NODE_ENV=test) would otherwise ship React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const vite = spawnSync('pnpm', ['--filter', '@mo/web', 'run', '--silent', 'build'], { cwd: root, stdio: 'inherit', env });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
}

// The commit mo_build_info names: MO_REVISION where the tree has no .git (the Docker build), else
// git's; a tree with uncommitted changes says so rather than pass for its commit.
function revision() {
  if (process.env.MO_REVISION) return process.env.MO_REVISION;
  const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const head = git('rev-parse', '--short=12', 'HEAD');
  if (head.status !== 0) return '';
  const dirty = git('status', '--porcelain', '--untracked-files=no');
  return `${head.stdout.trim()}${dirty.status === 0 && dirty.stdout.trim() !== '' ? '-dirty' : ''}`;
}

const define = { __MO_REVISION__: JSON.stringify(revision()) };

await Promise.all(
  apps.map((app) =>
    build({
      ...bundleOptions,
      define,
      entryPoints: [join(root, `apps/${app}/src/main.ts`)],
      outfile: join(root, `apps/${app}/dist/main.mjs`),
    }),
  ),
);
