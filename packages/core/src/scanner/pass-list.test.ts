import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PASS_ENTRIES_MAX } from '@mo/shared';
import { writePassFile } from './pass-file.ts';
import { boundedPass, readRecentPasses } from './pass-list.ts';
import type { ScanResult } from './run-pass.ts';
import { UNKNOWN_QUALITY } from '../parse/quality.ts';

const plan = (n: number) => ({
  source: `/d/M.${n}.2001.mkv`,
  destination: `/m/Movies/M ${n} (2001)/M ${n} (2001).mkv`,
  kind: 'movie' as const,
  title: `M ${n}`,
  year: 2001,
  season: null,
  episodes: null,
  air_date: null,
  drive: 'disk1',
  sidecars: [],
  quality: UNKNOWN_QUALITY,
});
const skip = (n: number) => ({ source: `/d/notes ${n}.mkv`, reason: 'unrecognized' as const });

function result(plans: number, moved: number, failed: number, skipped: number): ScanResult {
  return {
    dry_run: false,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:02.000Z',
    plans: Array.from({ length: plans }, (_, i) => plan(i)),
    moves: [
      ...Array.from({ length: moved }, (_, i) => ({ ...plan(i), mode: 'move' as const, status: 'moved' as const, replaced: null })),
      ...Array.from({ length: failed }, (_, i) => ({ ...plan(moved + i), mode: 'move' as const, status: 'failed' as const, error: 'EXDEV', replaced: null })),
    ],
    skipped: Array.from({ length: skipped }, (_, i) => skip(i)),
  };
}

describe('boundedPass', () => {
  it('answers a small pass whole, with its counts and nothing left out', () => {
    const r = result(3, 2, 1, 2);
    expect(boundedPass('9', r)).toEqual({
      id: '9',
      dry_run: false,
      started_at: r.started_at,
      finished_at: r.finished_at,
      counts: { plans: 3, moved: 2, failed: 1, skipped: 2 },
      plans: r.plans,
      moves: r.moves,
      skipped: r.skipped,
      truncated: { plans: 0, moves: 0, skipped: 0 },
    });
  });

  it.each([
    [0, 0, 0, 0],
    [2, 0, 0, 0],
    [3, 3, 0, 0],
    [4, 1, 3, 5],
    [2, 0, 2, 3],
  ])('cuts each list of %i plans, %i moved, %i failed, %i skipped to 3, counting the whole pass', (plans, moved, failed, skipped) => {
    const r = result(plans, moved, failed, skipped);
    const b = boundedPass('1', r, 3);
    expect(b.plans).toEqual(r.plans.slice(0, 3));
    expect(b.moves).toEqual(r.moves.slice(0, 3));
    expect(b.skipped).toEqual(r.skipped.slice(0, 3));
    expect(b.counts).toEqual({ plans, moved, failed, skipped });
    expect(b.truncated).toEqual({ plans: Math.max(0, plans - 3), moves: Math.max(0, moved + failed - 3), skipped: Math.max(0, skipped - 3) });
  });

  it('cuts at PASS_ENTRIES_MAX unless told otherwise', () => {
    const b = boundedPass('1', result(PASS_ENTRIES_MAX + 1, 0, 0, PASS_ENTRIES_MAX));
    expect(b.plans).toHaveLength(PASS_ENTRIES_MAX);
    expect(b.truncated).toEqual({ plans: 1, moves: 0, skipped: 0 });
  });
});

describe('readRecentPasses', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function written(ids: string[]): Promise<string> {
    const data = await mkdtemp(join(tmpdir(), 'mo-passes-'));
    for (const [i, id] of ids.entries()) {
      await writePassFile(data, id, result(i + 1, 0, 0, 0));
      await utimes(join(data, 'passes', `${id}.json`), 1000 + i, 1000 + i);
    }
    return data;
  }

  it('answers none before the first pass (no passes folder yet)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mo-passes-'));
    expect(await readRecentPasses(dir, 5)).toEqual([]);
  });

  it('reads the newest `limit` passes, newest first, by when their files were written', async () => {
    dir = await written(['10', '9', 'repeat:periodic-scan-pass:1', '11']);
    const all = await readRecentPasses(dir, 10);
    expect(all.map((p) => [p.id, p.counts.plans])).toEqual([
      ['11', 4],
      ['repeat:periodic-scan-pass:1', 3],
      ['9', 2],
      ['10', 1],
    ]);
    expect((await readRecentPasses(dir, 2)).map((p) => p.id)).toEqual(['11', 'repeat:periodic-scan-pass:1']);
    expect((await readRecentPasses(dir, 1, 2))[0]!.truncated.plans).toBe(2);
  });

  it('passes over temps, other files and damaged passes, taking the next in their place', async () => {
    dir = await written(['1', '2', '3']);
    const passes = join(dir, 'passes');
    await writeFile(join(passes, '3.json'), '{"half": ');
    await writeFile(join(passes, '.4.json.123.abc.tmp'), '{}');
    await writeFile(join(passes, 'notes.txt'), 'x');
    await writeFile(join(passes, '-x.json'), JSON.stringify(result(1, 0, 0, 0)));
    await mkdir(join(passes, 'sub.json'));
    for (const name of ['.4.json.123.abc.tmp', 'notes.txt', '-x.json', 'sub.json']) await utimes(join(passes, name), 5000, 5000);
    expect((await readRecentPasses(dir, 2)).map((p) => p.id)).toEqual(['2', '1']);
  });
});
