// An `ffmpeg` to put first on PATH that misbehaves on purpose (too slow to finish before a kill,
// or writing a short file), so tests can reach the failure paths with real media.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { runTool } from '../run.ts';

/**
 * Writes `<dir>/ffmpeg`, a bash script that runs `body`; in it `$REAL` is the real ffmpeg.
 * Returns a PATH value with the wrapper first.
 */
export async function ffmpegWrapper(dir: string, body: string): Promise<string> {
  const { stdout: real } = await runTool(['sh', '-c', 'command -v ffmpeg'], { timeoutMs: 5000 });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'ffmpeg'), `#!/usr/bin/env bash\nREAL=${JSON.stringify(real)}\n${body}\n`);
  await chmod(join(dir, 'ffmpeg'), 0o755);
  return `${dir}${delimiter}${process.env.PATH ?? ''}`;
}

/** Cuts the output to one second: the file is valid media, but not what was asked for. */
export const SHORT_OUTPUT = 'exec "$REAL" "${@:1:$#-1}" -t 1 "${@: -1}"';

// bash runs traps only between commands, so the pause is a background sleep it waits on; the
// trap ends both at once when the runner kills the wrapper.
const pause = (seconds: number) =>
  `sleep ${seconds} </dev/null >/dev/null 2>&1 & pause=$!\ntrap 'kill $pause; exit 143' TERM INT\nwait $pause\ntrap - TERM INT`;

/** Waits `seconds` before doing the real work, so a test can abort the run midway. */
export const slowStart = (seconds: number) => `${pause(seconds)}\nexec "$REAL" "$@"`;

/**
 * Does the real work, then holds on for `seconds` with the output written but the run not yet
 * over, after writing its pid to `pidFile` (the test that kills the caller ends it by that pid).
 */
export const slowFinish = (seconds: number, pidFile: string) => `"$REAL" "$@" || exit $?\necho $$ > ${JSON.stringify(pidFile)}\n${pause(seconds)}`;
