import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fullPassResult, passFileName, passFilesBeyond, passOutline, readPassFile, summarisePass, writePassFile } from './pass-file.ts';
import type { ScanResult } from './run-pass.ts';
import { UNKNOWN_QUALITY } from '../parse/quality.ts';

const plan = {
  source: '/d/Heat.1995.mkv',
  destination: '/m/Movies/Heat (1995)/Heat (1995).mkv',
  kind: 'movie' as const,
  title: 'Heat',
  year: 1995,
  season: null,
  episodes: null,
  air_date: null,
  drive: 'disk1',
  sidecars: [],
  quality: UNKNOWN_QUALITY,
};
const result: ScanResult = {
  dry_run: false,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:01.000Z',
  plans: [plan, { ...plan, source: '/d/b.mkv' }, { ...plan, source: '/d/c.mkv' }],
  moves: [
    { ...plan, mode: 'move', status: 'moved', replaced: null },
    { ...plan, mode: 'move', source: '/d/b.mkv', status: 'failed', error: 'gone', replaced: null },
    { ...plan, mode: 'move', source: '/d/c.mkv', status: 'moved', replaced: null },
  ],
  skipped: [{ source: '/d/x.part', reason: 'partial' }],
};

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('passFileName', () => {
  it('names a file under passes/ for the ids BullMQ and the scan schedule make', () => {
    expect(passFileName('17')).toBe('passes/17.json');
    expect(passFileName('repeat:periodic-scan-pass:1795533683234')).toBe('passes/repeat:periodic-scan-pass:1795533683234.json');
  });

  it.each(['', '.', '..', '../x', 'a/b', 'a\\b', '-x', 'a\0b', ' 1', 'x'.repeat(201), 'a.json', 'é'])('refuses %j', (id) => {
    expect(() => passFileName(id)).toThrow(/cannot name a pass file/);
  });
});

describe('passFilesBeyond', () => {
  const f = (name: string, mtimeMs: number) => ({ name, mtimeMs });
  it('keeps the newest, ties broken by name, whatever the listing order', () => {
    const files = [f('a', 1), f('c', 3), f('b', 3), f('d', 2)];
    expect(passFilesBeyond(files, 2).sort()).toEqual(['a', 'd']);
    expect(passFilesBeyond(files.reverse(), 3)).toEqual(['a']);
    expect(passFilesBeyond(files, 4)).toEqual([]);
    expect(passFilesBeyond(files, 0).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(passFilesBeyond([f('x', 5), f('y', 5)], 1)).toEqual(['x']);
  });
});

describe('passOutline', () => {
  const outline = { dry_run: false, started_at: result.started_at, finished_at: result.finished_at, counts: { plans: 3, moved: 2, failed: 1, skipped: 1 } };
  it('is the summary without its file, or the counts of a whole result an older version kept', () => {
    expect(passOutline(summarisePass(result, 'passes/1.json'))).toEqual(outline);
    expect(passOutline(result)).toEqual(outline);
  });
  it.each([null, undefined, 3, 'x', {}, { summary: 1 }, { ...result, plans: 'x' }])('is null for %j', (value) => {
    expect(passOutline(value)).toBeNull();
  });
});

describe('pass files', () => {
  it('writes the full result, answers with its summary, and reads it back', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mo-pass-'));
    const summary = await writePassFile(dir, '7', result);
    expect(summary).toEqual({
      dry_run: false,
      started_at: result.started_at,
      finished_at: result.finished_at,
      counts: { plans: 3, moved: 2, failed: 1, skipped: 1 },
      pass_file: 'passes/7.json',
    });
    expect(await readPassFile(dir, '7')).toEqual(result);
    expect(await fullPassResult(dir, '7', summary)).toEqual(result);
  });

  it('reads a pass recorded before names were read for quality as one whose names say nothing of it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mo-pass-'));
    await writePassFile(dir, '8', result);
    const path = join(dir, 'passes', '8.json');
    const old = JSON.parse(await readFile(path, 'utf8')) as { plans: Record<string, unknown>[]; moves: Record<string, unknown>[] };
    for (const p of [...old.plans, ...old.moves]) delete p.quality;
    await writeFile(path, JSON.stringify(old));
    expect(await readPassFile(dir, '8')).toEqual(result);
  });

  it('keeps only the newest files, and removes temps a killed writer left', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mo-pass-'));
    for (let i = 1; i <= 5; i++) {
      await writePassFile(dir, String(i), result, 3);
      await utimes(join(dir, 'passes', `${i}.json`), i, i);
    }
    await writeFile(join(dir, 'passes', '.9.json.999999999.abc.tmp'), 'half');
    await utimes(join(dir, 'passes', '.9.json.999999999.abc.tmp'), 1, 1);
    await writePassFile(dir, '6', result, 3);
    expect((await readdir(join(dir, 'passes'))).sort()).toEqual(['4.json', '5.json', '6.json']);
  });

  it('answers the summary when the file is gone or not a pass, and any other result as it is', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mo-pass-'));
    const summary = await writePassFile(dir, '8', result);
    await writeFile(join(dir, 'passes', '8.json'), '{"plans": "not a pass"}');
    expect(await fullPassResult(dir, '8', summary)).toEqual(summary);
    await writeFile(join(dir, 'passes', '8.json'), '{not json');
    expect(await fullPassResult(dir, '8', summary)).toEqual(summary);
    expect(await fullPassResult(dir, '9', { ...summary, pass_file: 'passes/9.json' })).toEqual({ ...summary, pass_file: 'passes/9.json' });
    // A full result kept by an older version, and a job id that names no file: untouched.
    expect(await fullPassResult(dir, '8', result)).toEqual(result);
    expect(await fullPassResult(dir, '../8', summary)).toEqual(summary);
  });
});
