// esbuild's options for an app's production bundle (build.mjs), shared with the test that runs
// the scan's listing thread from a bundle built the same way.
export const bundleOptions = {
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
};
