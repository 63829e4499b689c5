import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
// The service's version is the root package's, which no workspace package can name.
// eslint-disable-next-line import-x/no-relative-packages
import rootPackage from '../../../../package.json' with { type: 'json' };

/** The commit a bundle was built from: scripts/build.mjs defines it; undeclared when the sources run. */
declare const __MO_REVISION__: string | undefined;

export interface BuildInfo {
  version: string;
  /** Absent where the build had no commit to read (no .git, no MO_REVISION), rather than a made-up one. */
  revision?: string;
  node_version: string;
}

/** What `mo_build_info` labels; the same in the API and every worker built from one tree. */
export function buildInfo(): BuildInfo {
  const revision = typeof __MO_REVISION__ === 'string' && __MO_REVISION__ !== '' ? __MO_REVISION__ : undefined;
  return { version: rootPackage.version, ...(revision ? { revision } : {}), node_version: process.version };
}

let shared: Registry | undefined;

/**
 * prom-client's process and Node.js metrics (`process_resident_memory_bytes`,
 * `nodejs_eventloop_lag_seconds`, heap, GC, …) and `mo_build_info`, once per process: the GC
 * observer and the event-loop monitor they start are never stopped, so a test that builds many
 * apps must not start one each. Merge it into an app's registry when scraped.
 */
export function processMetrics(): Registry {
  if (shared) return shared;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const info = new Gauge({
    name: 'mo_build_info',
    help: 'Always 1; the labels name the version, the commit (where the build knew it) and the Node.js that runs it',
    labelNames: ['version', 'revision', 'node_version'] as const,
    registers: [registry],
  });
  info.set(buildInfo(), 1);
  shared = registry;
  return registry;
}
