// Bundles each app into one ESM file that plain node runs. Running the TypeScript through tsx in
// production costs ~50 MB of RSS per process (its loader keeps a second V8 isolate); a bundle
// starts faster and leaves that memory to the library index.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

await Promise.all(
  apps.map((app) =>
    build({
      entryPoints: [join(root, `apps/${app}/src/main.ts`)],
      outfile: join(root, `apps/${app}/dist/main.mjs`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      // What the process holds of its own code: V8 keeps the bundle's source as a string, two bytes
      // a character once a single comment holds a non-ASCII one (9 MB for the API), and Node keeps
      // the source map it reads for --enable-source-maps, original sources and all (7 MB). Without
      // whitespace and comments the source is ASCII (esbuild escapes the rest), and stack traces
      // need only the map's positions: ~13 MB less per process.
      minifyWhitespace: true,
      sourcesContent: false,
      // Bull Board serves its page and assets from files inside its own package.
      external: ['@bull-board/*'],
      // Bundled CommonJS dependencies still call require().
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      logLevel: 'warning',
    }),
  ),
);
