#!/usr/bin/env node
// scripts/start's log keeper: copies its standard input to its standard output (the terminal) and to
// FILE, which never grows past --max-bytes: the full file becomes FILE.1 (FILE.1 becomes FILE.2, …,
// the oldest of --keep is deleted) and a new FILE begins. Cuts fall between lines, so each file holds
// whole lines and the newest are always in FILE. A non-empty FILE from an earlier run is rotated away
// at start: FILE holds this run only. Ignores SIGINT and SIGTERM (Ctrl-C reaches the process group):
// it ends when its writer closes the pipe, so the last lines of a stopping process are kept.
//
//   node scripts/rotate-log.mjs FILE [--max-bytes N] [--keep K] [--quiet]
//
// --quiet: the file only, nothing on standard output.
import { closeSync, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_KEEP = 3;

function parseArgs(argv) {
  const opts = { file: null, maxBytes: DEFAULT_MAX_BYTES, keep: DEFAULT_KEEP, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quiet') opts.quiet = true;
    else if (arg === '--max-bytes' || arg === '--keep') {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < (arg === '--keep' ? 0 : 1)) throw new Error(`${arg} wants a whole number, got "${argv[i]}"`);
      if (arg === '--keep') opts.keep = value;
      else opts.maxBytes = value;
    } else if (opts.file === null && !arg.startsWith('--')) opts.file = arg;
    else throw new Error(`unknown argument "${arg}"`);
  }
  if (opts.file === null) throw new Error('usage: rotate-log.mjs FILE [--max-bytes N] [--keep K] [--quiet]');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});

let fd = openSync(opts.file, 'a', 0o600);
let size = fstatSync(fd).size;

function rotate() {
  closeSync(fd);
  if (opts.keep === 0) rmSync(opts.file, { force: true });
  else {
    rmSync(`${opts.file}.${opts.keep}`, { force: true });
    for (let i = opts.keep - 1; i >= 1; i--) {
      try {
        renameSync(`${opts.file}.${i}`, `${opts.file}.${i + 1}`);
      } catch (err) {
        if (err.code !== 'ENOENT') throw err;
      }
    }
    renameSync(opts.file, `${opts.file}.1`);
  }
  fd = openSync(opts.file, 'a', 0o600);
  size = 0;
}

/**
 * Writes whole lines, starting a new file before one would pass the cap; a single line longer than
 * the cap gets a file to itself.
 */
function writeLines(block) {
  while (block.length > 0) {
    const room = opts.maxBytes - size;
    let take = block.length;
    if (take > room) {
      const cut = room > 0 ? block.lastIndexOf(0x0a, room - 1) : -1;
      if (cut >= 0) take = cut + 1;
      else if (size > 0) {
        rotate();
        continue;
      } else {
        const first = block.indexOf(0x0a);
        take = first >= 0 ? first + 1 : block.length;
      }
    }
    for (let done = 0; done < take;) done += writeSync(fd, block, done, take - done);
    size += take;
    block = block.subarray(take);
  }
}

let failing = false;
function keep(block) {
  try {
    writeLines(block);
    failing = false;
  } catch (err) {
    // A full disk must not stop the output reaching the terminal, nor block the process that writes it.
    if (!failing) process.stderr.write(`[media-organizer] ${opts.file}: ${err.message}; lines are shown but not kept\n`);
    failing = true;
  }
}

if (size > 0) rotate();

let terminal = !opts.quiet;
// A terminal that went away (EPIPE): the file goes on.
process.stdout.on('error', () => (terminal = false));
let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  if (terminal) process.stdout.write(chunk);
  const data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
  const end = data.lastIndexOf(0x0a);
  // A line with no end yet waits for it, unless it is already past the cap.
  if (end < 0 && data.length < opts.maxBytes) {
    pending = data;
    return;
  }
  const whole = end < 0 ? data.length : end + 1;
  keep(data.subarray(0, whole));
  pending = Buffer.from(data.subarray(whole));
});
process.stdin.on('end', () => {
  if (pending.length > 0) keep(pending);
  closeSync(fd);
});
