// scripts/rotate-log.mjs, which keeps scripts/start's var/*.log: the files stay under their cap
// whatever passes through, hold whole lines, keep the newest, and the terminal still sees it all.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@mo/test-support/service';

const SCRIPT = join(REPO_ROOT, 'scripts/rotate-log.mjs');
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-rotate-'));
  file = join(dir, 'api.log');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

interface Run {
  write(chunk: string): Promise<void>;
  signal(signal: NodeJS.Signals): void;
  /** Closes its input and resolves once it exited, with its code and what it wrote to stdout. */
  end(): Promise<{ code: number | null; stdout: string }>;
}

function run(args: string[]): Run {
  const proc = spawn(process.execPath, [SCRIPT, file, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  proc.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    write: (chunk) => new Promise((resolve, reject) => proc.stdin.write(chunk, (err) => (err ? reject(err) : resolve()))),
    signal: (signal) => proc.kill(signal),
    async end() {
      proc.stdin.end();
      const code = await exited;
      return { code, stdout };
    },
  };
}

const line = (i: number) => `{"level":30,"n":${i},"msg":"${'x'.repeat(i % 97)}"}\n`;

async function generations(): Promise<string[]> {
  const names = [file, `${file}.1`, `${file}.2`, `${file}.3`, `${file}.4`].filter((f) => existsSync(f));
  return Promise.all(names.map((f) => readFile(f, 'utf8')));
}

describe('scripts/rotate-log.mjs', () => {
  it('keeps at most --keep full files beside the current one, each under the cap, with the newest lines', async () => {
    const cap = 4096;
    const input = Array.from({ length: 2000 }, (_, i) => line(i)).join('');
    expect(input.length).toBeGreaterThan(25 * cap);
    const r = run(['--max-bytes', String(cap), '--keep', '2']);
    // Chunks that cut lines anywhere, as a pipe does.
    for (let at = 0, n = 1; at < input.length; at += n, n = (n * 7 + 13) % 3001) await r.write(input.slice(at, at + n));
    const { code, stdout } = await r.end();
    expect(code).toBe(0);
    expect(stdout).toBe(input);

    const files = await generations();
    expect(files).toHaveLength(3);
    for (const text of files) {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(cap);
      expect(text.endsWith('\n')).toBe(true);
      for (const l of text.slice(0, -1).split('\n')) expect(() => JSON.parse(l)).not.toThrow();
    }
    // Oldest first, the three are one unbroken run of lines ending with the last one written.
    const kept = [...files].reverse().join('');
    expect(input.endsWith(kept)).toBe(true);
    expect(kept.startsWith('{"level"')).toBe(true);
    expect(files[0]!.endsWith(line(1999))).toBe(true);
    expect(kept.length).toBeGreaterThan(2 * cap);
  });

  it('starts each run with a new file: the last run becomes .1', async () => {
    await writeFile(file, 'the last run\n');
    const r = run([]);
    await r.write('this run\n');
    expect((await r.end()).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('this run\n');
    expect(await readFile(`${file}.1`, 'utf8')).toBe('the last run\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('outlives Ctrl-C and SIGTERM, keeping the lines a stopping process writes until it closes the pipe', async () => {
    const r = run(['--quiet']);
    await r.write('started\n');
    // Kept: the script is past its start, where node itself still takes a signal the default way.
    await expect.poll(() => readFile(file, 'utf8').catch(() => '')).toBe('started\n');
    r.signal('SIGINT');
    r.signal('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await r.write('stopped\n');
    const { code, stdout } = await r.end();
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(await readFile(file, 'utf8')).toBe('started\nstopped\n');
  });

  it('gives a line longer than the cap a file of its own', async () => {
    const r = run(['--max-bytes', '100', '--keep', '3']);
    const long = `${'y'.repeat(250)}\n`;
    await r.write(`short\n${long}after\n`);
    expect((await r.end()).code).toBe(0);
    expect(await generations()).toEqual(['after\n', long, 'short\n']);
  });
});

describe('scripts/start', () => {
  it('keeps the output of the API, the worker and Redis through rotate-log.mjs, and nothing in a file that grows', () => {
    const start = readFileSync(join(REPO_ROOT, 'scripts/start'), 'utf8');
    const launches = start.replace(/\\\n\s*/g, ' ').split('\n').filter((l) => /^\s*setsid\s/.test(l));
    expect(launches.map((l) => /^\s*setsid\s+(\S+)/.exec(l)![1])).toEqual(['redis-server', 'node', 'node']);
    for (const l of launches) expect(l, l).toMatch(/>\s*>\(log_to /);
    expect(start).toContain('scripts/rotate-log.mjs');
    expect(start).not.toMatch(/\btee\b|>>|--logfile "\$VAR/);
  });

  it('says where the web UI is once it is up (under URL_BASE when set), not where the health check is', () => {
    const start = readFileSync(join(REPO_ROOT, 'scripts/start'), 'utf8');
    const up = start.split('\n').filter((l) => l.includes('is up'));
    expect(up).toEqual([expect.stringContaining('$(ui_address "$PORT")')]);
    expect(up[0]).not.toContain('/api/health');
    const address = (env: Record<string, string>) =>
      execFileSync('bash', ['-c', `source "${join(REPO_ROOT, 'scripts/lib.sh')}" && ui_address 8123`], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' });
    expect(address({})).toBe('http://localhost:8123/\n');
    expect(address({ URL_BASE: '/media-organizer' })).toBe('http://localhost:8123/media-organizer/\n');
    expect(address({ URL_BASE: '/media-organizer/' })).toBe('http://localhost:8123/media-organizer/\n');
  });
});
