import { execa, ExecaError } from 'execa';
import { AppError } from '../errors.ts';
import { normaliseProbe, probeCommand, type MediaProbe } from './probe.ts';

export type ToolFailure = 'timeout' | 'cancelled' | 'missing' | 'failed';

export class ToolError extends Error {
  constructor(
    readonly reason: ToolFailure,
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface RunOptions {
  /** Every run has one: a wedged ffmpeg (stale NFS mount, broken file) must not hold a worker forever. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Receives stdout line by line instead of collecting it. */
  onStdoutLine?: (line: string) => void;
}

/** Grace between SIGTERM (ffmpeg closes its output) and SIGKILL. */
const KILL_GRACE_MS = 5000;
/** ffmpeg at `-loglevel error` says little; a runaway one must not fill the heap. */
const MAX_STDERR_CHARS = 8000;

function lastLines(text: string): string {
  const t = text.trim();
  return t.length > MAX_STDERR_CHARS ? `…${t.slice(-MAX_STDERR_CHARS)}` : t;
}

/**
 * glibc hands every freed buffer above its (adaptive) mmap threshold back to the kernel and faults
 * fresh pages in for the next one; ffmpeg frees one per packet, so a remux spent most of its time
 * in page faults. A fixed 8 MB threshold keeps packet buffers in the heap (a 1 GB remux: 1.5 s →
 * 0.5 s). Variables the environment already sets win; other C libraries ignore these.
 */
const MALLOC_TUNING = {
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? String(8 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? String(64 * 1024 * 1024),
};

/** Runs argv[0] with a time limit, killing it when `signal` aborts. */
export async function runTool(argv: readonly string[], opts: RunOptions): Promise<{ stdout: string }> {
  const [file, ...args] = argv;
  if (!file) throw new Error('runTool: empty argv');
  const onLine = opts.onStdoutLine;
  try {
    const result = await execa(file, args, {
      timeout: opts.timeoutMs,
      ...(opts.signal ? { cancelSignal: opts.signal } : {}),
      forceKillAfterDelay: KILL_GRACE_MS,
      env: MALLOC_TUNING,
      stdin: 'ignore',
      stdout: onLine ? function* (line: unknown) { onLine(String(line)); } : 'pipe',
      stderr: 'pipe',
      stripFinalNewline: true,
    });
    return { stdout: result.stdout };
  } catch (err) {
    if (!(err instanceof ExecaError)) throw err;
    const stderr = lastLines(typeof err.stderr === 'string' ? err.stderr : '');
    const name = file.split('/').pop();
    if (err.timedOut) throw new ToolError('timeout', `${name} took longer than ${Math.round(opts.timeoutMs / 1000)} s and was stopped`, stderr);
    if (err.isCanceled) throw new ToolError('cancelled', `${name} was cancelled`, stderr);
    if (err.code === 'ENOENT') throw new ToolError('missing', `${name} is not installed (not found on PATH)`, stderr);
    throw new ToolError('failed', `${name} failed (${err.exitCode !== undefined ? `exit ${err.exitCode}` : err.signal ?? 'killed'})${stderr ? `: ${stderr}` : ''}`, stderr);
  }
}

export const PROBE_TIMEOUT_MS = 30_000;

/**
 * ffprobe's view of a file. A file ffprobe cannot read is the caller's mistake (400); a time-out
 * or a missing ffprobe is ours.
 */
export async function probeFile(file: string, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<MediaProbe> {
  let stdout: string;
  try {
    ({ stdout } = await runTool(probeCommand(file), { timeoutMs: opts.timeoutMs ?? PROBE_TIMEOUT_MS, ...(opts.signal ? { signal: opts.signal } : {}) }));
  } catch (err) {
    if (err instanceof ToolError && err.reason === 'failed') {
      throw new AppError('bad_request', `path: ffprobe cannot read ${file} as media${err.stderr ? `: ${err.stderr}` : ''}`, { key: 'path' });
    }
    throw err;
  }
  return normaliseProbe(JSON.parse(stdout));
}
