import type { Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { execa, ExecaError } from 'execa';
import { AppError } from '../errors.ts';
import { openMedia, type OpenedMedia, type OpenMediaOptions, type PinnedFolder } from './open-media.ts';
import { normaliseProbe, probeCommand, type MediaProbe } from './probe.ts';
import { PoolWaitAborted, probePool } from './probe-pool.ts';

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
  /** Open descriptors the child gets as its descriptors 3, 4, … (see bindDescriptors). */
  fds?: readonly number[];
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
  // execa passes a descriptor number in stdio[3+] on to spawn, which shares that open descriptor
  // with the child; its types only list the numbers 3–9.
  const extra = (opts.fds ?? []) as readonly number[] as readonly 3[];
  try {
    const result = await execa(file, args, {
      timeout: opts.timeoutMs,
      ...(opts.signal ? { cancelSignal: opts.signal } : {}),
      forceKillAfterDelay: KILL_GRACE_MS,
      env: MALLOC_TUNING,
      // execa takes a generator as a line transform; this one yields nothing, so stdout keeps no lines.
      /* eslint-disable require-yield */
      stdio: [
        'ignore',
        onLine
          ? function* (line: unknown) {
              onLine(String(line));
            }
          : 'pipe',
        'pipe',
        ...extra,
      ],
      /* eslint-enable require-yield */
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
    throw new ToolError(
      'failed',
      `${name} failed (${err.exitCode !== undefined ? `exit ${err.exitCode}` : (err.signal ?? 'killed')})${stderr ? `: ${stderr}` : ''}`,
      stderr,
    );
  }
}

/** The descriptor numbers a child run by runWith sees its input file and output folder at. */
const CHILD_INPUT_FD = 3;
const CHILD_FOLDER_FD = 4;

/**
 * The command as planned, naming the paths a person reads, → the command as run: the input read
 * through descriptor 3 (the file opened and checked here) and the output written through
 * descriptor 4 (its folder, pinned here), so that a link swapped in since the checks changes
 * nothing ffmpeg opens. `/dev/fd/N` opens the descriptor's own file anew, seekable, on Linux.
 */
export function bindDescriptors(argv: readonly string[], input: { path: string }, output?: { path: string; folder: { path: string } }): string[] {
  const inputs = argv.flatMap((a, i) => (a === '-i' ? [i + 1] : []));
  if (inputs.length !== 1 || argv[inputs[0]!] !== input.path) {
    throw new Error(`a media command must read exactly one input, ${input.path}: ${argv.join(' ')}`);
  }
  const bound = [...argv];
  bound[inputs[0]!] = `file:/dev/fd/${CHILD_INPUT_FD}`;
  if (output) {
    if (bound.at(-1) !== output.path || dirname(output.path) !== output.folder.path) {
      throw new Error(`a media command must end with its output in ${output.folder.path}: ${argv.join(' ')}`);
    }
    bound[bound.length - 1] = `file:/dev/fd/${CHILD_FOLDER_FD}/${basename(output.path)}`;
  }
  return bound;
}

/** Runs a planned ffmpeg/ffprobe command on an opened input and, when it writes, into a pinned folder. */
export function runWith(
  argv: readonly string[],
  io: { input: OpenedMedia; output?: { path: string; folder: PinnedFolder } },
  opts: Omit<RunOptions, 'fds'>,
): Promise<{ stdout: string }> {
  const fds = io.output ? [io.input.fd, io.output.folder.fd] : [io.input.fd];
  return runTool(bindDescriptors(argv, io.input, io.output), { ...opts, fds });
}

export const PROBE_TIMEOUT_MS = 30_000;

export interface ProbeOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * ffprobe's view of an opened file, run in this process's probe pool. A file ffprobe cannot
 * read is the caller's mistake (400); a time-out or a missing ffprobe is ours.
 */
export async function probeOpened(media: OpenedMedia, opts: ProbeOptions = {}): Promise<MediaProbe> {
  const signal = opts.signal ? { signal: opts.signal } : {};
  let stdout: string;
  try {
    ({ stdout } = await probePool.run(
      () => runWith(probeCommand(media.path, media.demuxer), { input: media }, { timeoutMs: opts.timeoutMs ?? PROBE_TIMEOUT_MS, ...signal }),
      opts.signal,
    ));
  } catch (err) {
    if (err instanceof PoolWaitAborted) throw new ToolError('cancelled', 'ffprobe was cancelled before it started', '');
    if (err instanceof ToolError && err.reason === 'failed') {
      throw new AppError('bad_request', `path: ffprobe cannot read ${media.path} as media${err.stderr ? `: ${err.stderr}` : ''}`, { key: 'path' });
    }
    throw err;
  }
  return normaliseProbe(JSON.parse(stdout));
}

/** ffprobe's view of the file at `file`, a real path (see openMedia). */
export async function probeFile(file: string, opts: ProbeOptions & OpenMediaOptions = {}): Promise<MediaProbe> {
  return (await probeFileAndStat(file, opts)).probe;
}

/** The same, with the status of the very file read: an output is put in place only while its name still leads to it. */
export async function probeFileAndStat(file: string, opts: ProbeOptions & OpenMediaOptions = {}): Promise<{ probe: MediaProbe; stat: Stats }> {
  const media = await openMedia(file, opts);
  try {
    return { probe: await probeOpened(media, opts), stat: media.stat };
  } finally {
    await media.close();
  }
}
