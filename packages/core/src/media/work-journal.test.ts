import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWorkTemp, workJournal, workTempPath } from './work-journal.ts';
import { dataDir } from '../data-dir/data-dir.ts';

let root: string;
let data: string;
let media: string;
const notes = () => readdir(join(data, 'media-work')).catch(() => []);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mo-journal-'));
  data = join(root, 'data');
  media = join(root, 'media');
  await mkdir(media, { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A pid that certainly belongs to no process any more. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim());
}

async function note(token: string, fields: Record<string, unknown>, ageMs = 0) {
  const temp = workTempPath(join(media, 'A.mkv'), 'remux', token);
  await writeFile(temp, 'partial');
  await mkdir(join(data, 'media-work'), { recursive: true });
  const file = join(data, 'media-work', `${token}.json`);
  await writeFile(file, JSON.stringify({ temp, host: hostname(), pid: 1, instance: 'earlier', job_id: '7', created_at: '', ...fields }));
  if (ageMs) await utimes(file, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
  return temp;
}

describe('work temp names', () => {
  it('are hidden, beside the target, and end in .part', () => {
    expect(workTempPath('/m/Movies/A (2000).mkv', 'remux', 'ab12')).toBe('/m/Movies/.mo-remux-ab12.A (2000).mkv.part');
    expect(isWorkTemp('.mo-transcode-00ff.A.mp4.part')).toBe(true);
    expect(isWorkTemp('A.mkv')).toBe(false);
    expect(isWorkTemp('.mo-remux-zz.A.mkv.part')).toBe(false);
  });
});

describe('workJournal', () => {
  it('notes a temp before it is written and forgets it (and the temp) at the end', async () => {
    const journal = workJournal(dataDir(data));
    const ticket = await journal.begin(join(media, 'A.mkv'), 'remux', '12');
    expect(ticket.temp.startsWith(join(media, '.mo-remux-'))).toBe(true);
    expect(await notes()).toHaveLength(1);
    await writeFile(ticket.temp, 'output');
    await ticket.end();
    expect(await notes()).toEqual([]);
    expect(await readdir(media)).toEqual([]);
  });

  it('sweeps the temps of dead processes on this host and of an earlier process with our pid', async () => {
    const dead = await note('aa01', { pid: deadPid() });
    const reused = await note('aa02', { pid: process.pid, instance: 'before-restart' });
    expect((await workJournal(dataDir(data)).sweep()).sort()).toEqual([dead, reused].sort());
    expect(await readdir(media)).toEqual([]);
    expect(await notes()).toEqual([]);
  });

  it('leaves the temps of live processes and of other hosts, until a note is a day old', async () => {
    const live = await note('bb01', { pid: process.ppid });
    const remote = await note('bb02', { host: 'gpu-box', pid: 1 });
    const old = await note('bb03', { host: 'gone-box' }, 25 * 3600 * 1000);
    expect(await workJournal(dataDir(data)).sweep()).toEqual([old]);
    expect((await readdir(media)).sort()).toEqual([live, remote].map((p) => p.slice(media.length + 1)).sort());
  });

  it('leaves this process’s own work alone', async () => {
    const journal = workJournal(dataDir(data));
    const ticket = await journal.begin(join(media, 'A.mkv'), 'transcode', null);
    await writeFile(ticket.temp, 'in progress');
    expect(await journal.sweep()).toEqual([]);
    await ticket.end();
  });

  it('never deletes a file that a note names but that is not a work temp', async () => {
    await mkdir(join(data, 'media-work'), { recursive: true });
    const precious = join(media, 'A.mkv');
    await writeFile(precious, 'movie');
    await writeFile(
      join(data, 'media-work', 'cc01.json'),
      JSON.stringify({ temp: precious, host: hostname(), pid: deadPid(), instance: 'x', job_id: null, created_at: '' }),
    );
    expect(await workJournal(dataDir(data)).sweep()).toEqual([]);
    expect(await readdir(media)).toEqual(['A.mkv']);
    expect(await notes()).toEqual([]);
  });

  it('is fine with no journal yet', async () => {
    expect(await workJournal(dataDir(join(root, 'nowhere'))).sweep()).toEqual([]);
  });
});
