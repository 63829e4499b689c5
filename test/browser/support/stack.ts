import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { REPO_ROOT, startProcess, TEST_API_KEY, tempInstall, waitFor, type RunningProcess, type TempInstall } from '@mo/test-support/service';

/** Debian's package, which scripts/test installs; playwright-core never downloads a browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

// Headless in a container, as root: no sandbox, no GPU, and nothing that calls out to Google.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface NewPageOptions {
  /** Sends the install's API key with every request, as a script would; a person logs in instead. */
  apiKey?: boolean;
}

export interface BrowserStack {
  /** http://127.0.0.1:PORT, no trailing slash. */
  baseUrl: string;
  install: TempInstall;
  api: RunningProcess;
  worker: RunningProcess;
  browser: Browser;
  /** A page in a context of its own: no cookies or storage shared with any other page. */
  newPage(opts?: NewPageOptions): Promise<Page>;
  /** The one-time set-up link the API logged at start (only while no owner account exists). */
  setupUrl(): Promise<string>;
  /**
   * Closes every context `newPage` opened since the last call, and throws if a page among them
   * had an uncaught script error: a page that broke fails the test even where nothing looked.
   */
  closePages(): Promise<void>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** TOML appended to the temp install's config. */
  toml?: string;
  /** Environment of the worker alone, e.g. its WORKER_QUEUES. */
  workerEnv?: Record<string, string>;
}

/** A temp install with the real API and worker processes on a free port, and a headless Chromium. */
export async function startStack(opts: StackOptions = {}): Promise<BrowserStack> {
  const redisUrl = testRedisUrl();
  const prefix = uniquePrefix('browser');
  const [install, port] = await Promise.all([tempInstall(opts.toml), freePort()]);
  const env = { MEDIA_ORGANIZER_CONFIG: install.configFile, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1' };
  const api = startProcess('api', env);
  const worker = startProcess('worker', { ...env, ...opts.workerEnv });
  const baseUrl = `http://127.0.0.1:${port}`;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await Promise.all([api.stop('SIGKILL'), worker.stop('SIGKILL')]);
    await dropPrefix(redisUrl, prefix);
    await install.cleanup();
  };
  try {
    // The browser starts while the processes load their TypeScript.
    [browser] = await Promise.all([
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
      waitFor(async () => (await fetch(`${baseUrl}/api/ready`)).ok, 20_000, 'the api to be ready'),
      waitFor(async () => worker.output().includes('worker started'), 20_000, 'the worker to start'),
    ]);
  } catch (err) {
    await stop();
    throw new Error(`${String(err)}\napi log:\n${api.output()}\nworker log:\n${worker.output()}`);
  }

  let open: { context: BrowserContext; errors: string[] }[] = [];
  return {
    baseUrl,
    install,
    api,
    worker,
    browser,
    async newPage(pageOpts = {}) {
      const context = await browser!.newContext({ baseURL: baseUrl, extraHTTPHeaders: pageOpts.apiKey ? { 'x-api-key': TEST_API_KEY } : undefined });
      const entry = { context, errors: [] as string[] };
      open.push(entry);
      const page = await context.newPage();
      page.on('pageerror', (err) => entry.errors.push(`${page.url()}: ${err.message}`));
      return page;
    },
    async setupUrl() {
      const line = await waitFor(
        async () =>
          api
            .output()
            .split('\n')
            .find((l) => l.includes('"setup_url"')),
        10_000,
        'the set-up link in the api log',
      );
      return JSON.parse(line).setup_url as string;
    },
    async closePages() {
      const closing = open;
      open = [];
      await Promise.all(closing.map((o) => o.context.close()));
      const errors = closing.flatMap((o) => o.errors);
      if (errors.length > 0) throw new Error(`uncaught errors in the page:\n${errors.join('\n')}`);
    },
    stop,
  };
}

/**
 * One stack for a test file (the processes and the browser take seconds to start), its pages
 * closed after each test. Call at the top of the file; the getter is valid inside tests.
 */
export function useStack(opts: StackOptions = {}): () => BrowserStack {
  let stack: BrowserStack | undefined;
  beforeAll(async () => {
    stack = await startStack(opts);
  });
  afterEach(async () => {
    await stack?.closePages();
  });
  afterAll(async () => {
    await stack?.stop();
  });
  return () => {
    if (!stack) throw new Error('the browser stack is not running (useStack at the top of the file starts it)');
    return stack;
  };
}

export interface A11yViolation {
  id: string;
  impact: 'serious' | 'critical';
  help: string;
  helpUrl: string;
  targets: string[];
}

let axeSource: Promise<string> | undefined;

/** Runs axe-core on the page as it stands; returns the serious and critical violations. */
export async function a11yViolations(page: Page): Promise<A11yViolation[]> {
  axeSource ??= readFile(join(REPO_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // Evaluated rather than added as a <script>: a page whose CSP forbids inline scripts is still checked.
  await page.evaluate(await axeSource);
  const results = await page.evaluate(() =>
    (window as any).axe
      .run(document, { resultTypes: ['violations'] })
      .then((r: any) =>
        r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, targets: v.nodes.map((n: any) => n.target.join(' ')) })),
      ),
  );
  return (results as (Omit<A11yViolation, 'impact'> & { impact: string | null })[]).filter(
    (v): v is A11yViolation => v.impact === 'serious' || v.impact === 'critical',
  );
}

export function formatViolations(violations: A11yViolation[]): string {
  return violations.map((v) => `- ${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n    ${v.targets.join('\n    ')}`).join('\n');
}

/** Throws with a readable list when axe finds a serious or critical violation on the page. */
export async function checkA11y(page: Page): Promise<void> {
  const violations = await a11yViolations(page);
  if (violations.length > 0) throw new Error(`accessibility violations on ${page.url()}:\n${formatViolations(violations)}`);
}
