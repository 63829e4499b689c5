import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscodeStatus } from '@mo/shared';
import { createTranscodeRecords } from './transcode-records.ts';
import { migrateTranscodeRecords } from './transcode-migration.ts';

let dir: string;
const rec = (status: TranscodeStatus['status'], extra: Partial<TranscodeStatus> = {}): TranscodeStatus => ({
  status,
  job_id: null,
  updated_at: '2026-01-01T00:00:00.000Z',
  output: null,
  error: null,
  priority: 0,
  before: null,
  after: null,
  seconds: null,
  original: null,
  original_recycled_to: null,
  ...extra,
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-transcode-records-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('createTranscodeRecords', () => {
  it('appends one line per change, and another store catches up on the lines only', async () => {
    const file = join(dir, 'transcodes.jsonl');
    const writer = createTranscodeRecords(file);
    const reader = createTranscodeRecords(file);
    await writer.update(() => [
      { path: '/m/a.avi', entry: rec('queued') },
      { path: '/m/b.avi', entry: rec('done') },
    ]);
    const first = await reader.read();
    expect(Object.keys(first.transcodes)).toEqual(['/m/a.avi', '/m/b.avi']);
    const size = (await stat(file)).size;
    await writer.update(() => [{ path: '/m/a.avi', entry: null }, { paused: true }]);
    expect((await stat(file)).size - size).toBeLessThan(100);
    const second = await reader.read();
    expect(second.transcodes).toEqual({ '/m/b.avi': rec('done') });
    expect(second.paused).toBe(true);
    expect(await reader.read()).toBe(second);
  });

  it('passes over a line torn by a killed writer and cuts it before the next change', async () => {
    const file = join(dir, 'transcodes.jsonl');
    await createTranscodeRecords(file).update(() => [{ path: '/m/a.avi', entry: rec('queued') }]);
    await appendFile(file, '{"path":"/m/b.avi","entry":{"sta');
    const store = createTranscodeRecords(file);
    expect(Object.keys((await store.read()).transcodes)).toEqual(['/m/a.avi']);
    await store.update(() => [{ path: '/m/c.avi', entry: rec('running') }]);
    expect(Object.keys((await createTranscodeRecords(file).read()).transcodes)).toEqual(['/m/a.avi', '/m/c.avi']);
  });

  it('compacts a long log, and a reader that had read it before still sees every record', async () => {
    const file = join(dir, 'transcodes.jsonl');
    const writer = createTranscodeRecords(file);
    const reader = createTranscodeRecords(file);
    await writer.update(() => [{ path: '/m/a.avi', entry: rec('queued') }]);
    await reader.read();
    for (let i = 0; i < 1100; i++) await writer.update(() => [{ path: '/m/b.avi', entry: rec('queued', { priority: i }) }]);
    expect((await readFile(file, 'utf8')).split('\n').length).toBeLessThan(1100);
    expect((await reader.read()).transcodes).toEqual({ '/m/a.avi': rec('queued'), '/m/b.avi': rec('queued', { priority: 1099 }) });
  });

  it('serializes updates from many stores on one file', async () => {
    const file = join(dir, 'transcodes.jsonl');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createTranscodeRecords(file).update((r) => [
          { path: '/m/n.avi', entry: rec('queued', { priority: (r.transcodes['/m/n.avi']?.priority ?? 0) + 1 }) },
          { path: `/m/${i}.avi`, entry: rec('done') },
        ]),
      ),
    );
    const { transcodes } = await createTranscodeRecords(file).read();
    expect(transcodes['/m/n.avi']!.priority).toBe(20);
    expect(Object.keys(transcodes)).toHaveLength(21);
  });
});

describe('migrateTranscodeRecords', () => {
  const legacy = {
    version: 1,
    settings: { app: { dry_run: false } },
    last_scan_at: null,
    last_library_scan_at: null,
    recent: [],
    transcodes: { '/m/a.avi': rec('done'), '/m/b.avi': rec('queued', { priority: 2 }) },
    transcoder_paused: true,
  };

  it('moves the records and the pause out of state.json once, keeping every other key', async () => {
    const state = join(dir, 'state.json');
    const log = join(dir, 'transcodes.jsonl');
    await writeFile(state, JSON.stringify(legacy));
    expect(await migrateTranscodeRecords(state, log)).toBe(2);
    const { transcodes: _t, transcoder_paused: _p, ...rest } = legacy;
    expect(JSON.parse(await readFile(state, 'utf8'))).toEqual(rest);
    const view = await createTranscodeRecords(log).read();
    expect(view.transcodes).toEqual(legacy.transcodes);
    expect(view.paused).toBe(true);
    const after = await readFile(log, 'utf8');
    expect(await migrateTranscodeRecords(state, log)).toBe(0);
    expect(await readFile(log, 'utf8')).toBe(after);
  });

  it('completes a migration killed after the log was written, without writing the records twice', async () => {
    const state = join(dir, 'state.json');
    const log = join(dir, 'transcodes.jsonl');
    await writeFile(state, JSON.stringify(legacy));
    await migrateTranscodeRecords(state, log);
    await createTranscodeRecords(log).update(() => [{ path: '/m/c.avi', entry: rec('running') }]);
    // As if killed between the two steps: the keys are back in state.json, the log already holds the records.
    await writeFile(state, JSON.stringify(legacy));
    expect(await migrateTranscodeRecords(state, log)).toBe(0);
    expect(JSON.parse(await readFile(state, 'utf8'))).not.toHaveProperty('transcodes');
    expect(Object.keys((await createTranscodeRecords(log).read()).transcodes)).toEqual(['/m/a.avi', '/m/b.avi', '/m/c.avi']);
  });

  it('leaves a state.json without records, and a missing one, alone', async () => {
    const state = join(dir, 'state.json');
    const log = join(dir, 'transcodes.jsonl');
    expect(await migrateTranscodeRecords(state, log)).toBe(0);
    await expect(stat(state)).rejects.toThrow();
    const { transcodes: _t, transcoder_paused: _p, ...rest } = legacy;
    await writeFile(state, JSON.stringify(rest));
    const before = await stat(state);
    expect(await migrateTranscodeRecords(state, log)).toBe(0);
    expect((await stat(state)).mtimeMs).toBe(before.mtimeMs);
    await expect(stat(log)).rejects.toThrow();
  });
});
