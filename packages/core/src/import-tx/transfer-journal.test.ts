import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  utimesSync,
  watch,
  writeFileSync,
  writeSync,
  ftruncateSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { keepAndPlace, moveFile, PARTIAL_PREFIX } from '../fs/transfer.ts';
import { twoFilesystems } from '../scanner/test-fixtures/filesystems.ts';
import { createTransferJournal } from './transfer-journal.ts';

const fx = twoFilesystems('journal');
if (fx.skip) console.warn(fx.skip);
afterAll(() => fx.cleanup());

let n = 0;
const MTIME = new Date('2021-02-03T04:05:06.789Z');
function put(dir: string, content = 'video bytes'): string {
  const p = join(dir, `s${++n}`, 'Movie.2010.mkv');
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
  utimesSync(p, MTIME, MTIME);
  return p;
}
const journalDir = () => join(fx.disk, `journal${++n}`);
/** A destination holding what a finished copy of `put`'s file holds. */
function copyInPlace(): string {
  const destination = destIn(fx.disk);
  mkdirSync(dirname(destination), { recursive: true });
  writeFileSync(destination, 'video bytes');
  utimesSync(destination, MTIME, MTIME);
  return destination;
}
/** What a note says of its temp file once that is made: here, the file already in place. */
const tempOf = (path: string) => ({ temp_dev: statSync(path).dev, temp_ino: statSync(path).ino });
const destIn = (dir: string) => join(dir, `d${++n}`, 'Movie (2010)', 'Movie (2010).mkv');

describe('transfer journal', () => {
  it('keeps a note while a copy is in flight', async () => {
    const dir = journalDir();
    const j = createTransferJournal(dir);
    const ticket = await j.begin({ source: '/s', destination: '/d', temp: '/t', size: 1, mtime_ms: 2 });
    const notes = readdirSync(dir);
    expect(notes).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, notes[0]!), 'utf8'))).toEqual({ source: '/s', destination: '/d', temp: '/t', size: 1, mtime_ms: 2 });
    await ticket.tempMade({ dev: 7, ino: 8 });
    expect(readdirSync(dir)).toEqual(notes);
    expect(JSON.parse(readFileSync(join(dir, notes[0]!), 'utf8'))).toEqual({
      source: '/s',
      destination: '/d',
      temp: '/t',
      size: 1,
      mtime_ms: 2,
      temp_dev: 7,
      temp_ino: 8,
    });
    await ticket.end();
    expect(readdirSync(dir)).toEqual([]);
    expect(await j.recover()).toEqual([]);
  });

  it('undoes a copy that never got into place: the temp file goes, the source stays', async () => {
    const dir = journalDir();
    const j = createTransferJournal(dir);
    const source = put(fx.disk);
    const destination = destIn(fx.disk);
    const temp = join(dirname(destination), `${PARTIAL_PREFIX}abc`);
    mkdirSync(dirname(destination), { recursive: true });
    writeFileSync(temp, 'video by');
    await j.begin({ source, destination, temp, size: statSync(source).size, mtime_ms: statSync(source).mtimeMs });
    expect(await j.recover()).toEqual([{ source, destination, outcome: 'undone' }]);
    expect(existsSync(temp)).toBe(false);
    expect(readFileSync(source, 'utf8')).toBe('video bytes');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('completes a copy that was in place when the process died, by removing the source', async () => {
    const j = createTransferJournal(journalDir());
    const source = put(fx.disk);
    const destination = copyInPlace();
    await j.begin({ source, destination, temp: `${destination}.gone`, size: 11, mtime_ms: MTIME.getTime(), ...tempOf(destination) });
    expect(await j.recover()).toEqual([{ source, destination, outcome: 'completed' }]);
    expect(existsSync(source)).toBe(false);
    expect(readFileSync(destination, 'utf8')).toBe('video bytes');
  });

  it('completes a hardlink- or copy-mode copy that was in place by keeping both files', async () => {
    const j = createTransferJournal(journalDir());
    const source = put(fx.disk);
    const destination = copyInPlace();
    await j.begin({ source, destination, temp: `${destination}.gone`, size: 11, mtime_ms: MTIME.getTime(), keep_source: true, ...tempOf(destination) });
    expect(await j.recover()).toEqual([{ source, destination, outcome: 'completed' }]);
    expect(readFileSync(source, 'utf8')).toBe('video bytes');
    expect(readFileSync(destination, 'utf8')).toBe('video bytes');
  });

  it('calls a move whose source was already removed completed', async () => {
    const j = createTransferJournal(journalDir());
    const destination = copyInPlace();
    await j.begin({ source: join(fx.disk, 'gone.mkv'), destination, temp: `${destination}.gone`, size: 11, mtime_ms: MTIME.getTime(), ...tempOf(destination) });
    expect((await j.recover())[0]!.outcome).toBe('completed');
  });

  it('removes nothing when the destination is not that copy', async () => {
    const j = createTransferJournal(journalDir());
    const source = put(fx.disk);
    const destination = destIn(fx.disk);
    mkdirSync(dirname(destination), { recursive: true });
    writeFileSync(destination, 'another file');
    await j.begin({ source, destination, temp: `${destination}.gone`, size: 11, mtime_ms: MTIME.getTime() });
    expect((await j.recover())[0]!.outcome).toBe('undone');
    expect(readFileSync(source, 'utf8')).toBe('video bytes');
    expect(readFileSync(destination, 'utf8')).toBe('another file');
  });

  it('removes nothing when a file of the planned size and mtime was planted at the destination after the kill', async () => {
    const j = createTransferJournal(journalDir());
    const source = put(fx.disk);
    const destination = destIn(fx.disk);
    mkdirSync(dirname(destination), { recursive: true });
    const temp = join(dirname(destination), `${PARTIAL_PREFIX}k`);
    writeFileSync(temp, 'video');
    const ticket = await j.begin({
      source,
      destination,
      temp,
      size: 11,
      mtime_ms: MTIME.getTime(),
      source_dev: statSync(source).dev,
      source_ino: statSync(source).ino,
    });
    await ticket.tempMade(statSync(temp));
    // Killed here; then someone who may write the folder puts a look-alike where the copy would go.
    writeFileSync(destination, 'planted!!!!');
    utimesSync(destination, MTIME, MTIME);
    expect((await j.recover())[0]!.outcome).toBe('undone');
    expect(readFileSync(source, 'utf8')).toBe('video bytes');
    expect(existsSync(temp)).toBe(false);
  });

  it('removes nothing when the source was swapped for a look-alike after the kill', async () => {
    const j = createTransferJournal(journalDir());
    const source = put(fx.disk);
    const planned = statSync(source);
    const destination = copyInPlace();
    await j.begin({
      source,
      destination,
      temp: `${destination}.gone`,
      size: 11,
      mtime_ms: MTIME.getTime(),
      source_dev: planned.dev,
      source_ino: planned.ino,
      ...tempOf(destination),
    });
    renameSync(source, `${source}.real`);
    writeFileSync(source, 'other bytes');
    utimesSync(source, MTIME, MTIME);
    await j.recover();
    expect(readFileSync(source, 'utf8')).toBe('other bytes');
    expect(readFileSync(`${source}.real`, 'utf8')).toBe('video bytes');
  });

  it('takes no copy as placed from a note that never named its temp file', async () => {
    const j = createTransferJournal(journalDir());
    const source = put(fx.disk);
    const destination = copyInPlace();
    await j.begin({ source, destination, temp: `${destination}.gone`, size: 11, mtime_ms: MTIME.getTime() });
    expect((await j.recover())[0]!.outcome).toBe('undone');
    expect(readFileSync(source, 'utf8')).toBe('video bytes');
  });

  it('drops a note it cannot read', async () => {
    const dir = journalDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'x.json'), '{"half":');
    expect(await createTransferJournal(dir).recover()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe.skipIf(fx.skip !== null)('a process killed with SIGKILL in the middle of a copy', () => {
  it.each(['move', 'hardlink'] as const)(
    '%s mode: loses nothing, and recovery leaves no temp file behind; the transfer then succeeds',
    async (mode) => {
      // 512 MiB, sparse on tmpfs (no memory used) with a marked head and tail.
      const source = join(fx.shm, `big-${mode}`, 'Movie.2010.mkv');
      mkdirSync(dirname(source), { recursive: true });
      const size = 512 * 1024 * 1024;
      const fd = openSync(source, 'w');
      ftruncateSync(fd, size);
      writeSync(fd, Buffer.from('head'), 0, 4, 0);
      writeSync(fd, Buffer.from('tail'), 0, 4, size - 4);
      closeSync(fd);
      utimesSync(source, MTIME, MTIME);
      // Unchanged: size, mtime and the marks (the rest is a hole a copy cannot have written to).
      const look = () => {
        const h = openSync(source, 'r');
        const buf = Buffer.alloc(8);
        readSync(h, buf, 0, 4, 0);
        readSync(h, buf, 4, 4, size - 4);
        closeSync(h);
        return { marks: buf.toString(), size: statSync(source).size, mtime: statSync(source).mtimeMs, blocks: statSync(source).blocks };
      };
      const before = look();

      const destination = destIn(fx.disk);
      mkdirSync(dirname(destination), { recursive: true });
      const dir = journalDir();
      const fixture = join(dirname(fileURLToPath(import.meta.url)), 'test-fixtures', 'move-one.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', fixture, source, destination, dir, mode], { stdio: 'ignore' });
      const exited = new Promise((r) => child.once('exit', r));
      // Killed the moment the temp file appears: the copy is under way.
      const watcher = watch(dirname(destination), (_e, name) => {
        if (name?.startsWith(PARTIAL_PREFIX)) child.kill('SIGKILL');
      });
      await exited;
      watcher.close();
      expect(child.signalCode).toBe('SIGKILL');

      expect(look()).toEqual(before);
      expect(before.marks).toBe('headtail');
      expect(existsSync(destination)).toBe(false);
      expect(readdirSync(dirname(destination)).filter((f) => f.startsWith(PARTIAL_PREFIX))).toHaveLength(1);

      const journal = createTransferJournal(dir);
      expect(await journal.recover()).toEqual([{ source, destination, outcome: 'undone' }]);
      expect(readdirSync(dirname(destination))).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);

      const done = mode === 'move' ? await moveFile(source, destination, { journal }) : await keepAndPlace(source, destination, mode, { journal });
      expect(done).toEqual({ status: 'moved', method: 'copy' });
      expect(statSync(destination).size).toBe(size);
      // Hardlink mode across filesystems copies and keeps the download for seeding.
      expect(existsSync(source)).toBe(mode === 'hardlink');
      expect(readdirSync(dirname(destination))).toEqual(['Movie (2010).mkv']);
    },
    60_000,
  );
});
