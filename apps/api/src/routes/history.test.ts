import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createStateStore } from '@mo/core';
import { NO_OWNERSHIP } from '@mo/core/fs/ownership.ts';
import { runScanPass } from '@mo/core/scanner/run-pass.ts';
import { historyResponse, initialState, stateSchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
afterEach(async () => t?.close());

const OLD = new Date('2025-06-01T10:00:00.000Z');

function put(rel: string, bytes = 100) {
  const p = join(t.install.paths.downloads, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, Buffer.alloc(bytes, rel.length));
  utimesSync(p, OLD, OLD);
  return p;
}

/** An install with one drive and dry_run off, importing in `transfer` mode. */
async function install(transfer: 'move' | 'hardlink' | 'copy') {
  t = await testApp({ toml: `[app]\ndry_run = false\n\n[library]\nsample_max_bytes = 0\ntransfer = "${transfer}"\n` });
  const drive = join(t.install.root, 'disk1');
  mkdirSync(join(drive, 'Movies'), { recursive: true });
  mkdirSync(join(drive, 'TV'), { recursive: true });
  await t.config.updateSettings({ drives: [{ name: 'disk1', path: drive }] });
  return drive;
}

/** A scanner pass as the worker runs it. */
async function pass() {
  const state = createStateStore({ file: join(t.install.paths.data, 'state.json'), schema: stateSchema, initial: initialState });
  return runScanPass({ config: t.config.current(), state, owner: NO_OWNERSHIP, log: createLogger({ name: 't', level: 'silent' }) });
}

async function history(query = '') {
  const res = await t.app.request(`/api/history${query}`);
  expect(res.status).toBe(200);
  return historyResponse.strict().parse(await res.json());
}

describe('GET /api/history', () => {
  it('lists each import newest first, page by page, filtered by source or destination', async () => {
    const drive = await install('copy');
    expect(await history()).toEqual({ items: [], next: null });
    const heat = put('Heat.1995/Heat.1995.mkv');
    const srt = put('Heat.1995/Heat.1995.en.srt', 10);
    const passA = await pass();
    const alien = put('Alien.1979.mkv');
    const ronin = put('Ronin.1998.mkv');
    await pass();

    const all = await history();
    expect(all.items.map((i) => [i.id, i.source])).toEqual([[3, ronin], [2, alien], [1, heat]]);
    expect(all.next).toBeNull();
    expect(all.items[2]).toEqual({
      id: 1, at: expect.any(String), mode: 'copy', method: 'copy', source: heat, destination: join(drive, 'Movies/Heat (1995)/Heat (1995).mkv'),
      bytes: 110, sidecars: [{ source: srt, destination: join(drive, 'Movies/Heat (1995)/Heat (1995).en.srt') }], pass: passA.started_at, undone_at: null,
    });

    const first = await history('?limit=2');
    expect([first.items.map((i) => i.id), first.next]).toEqual([[3, 2], 2]);
    const second = await history(`?limit=2&before=${first.next}`);
    expect([second.items.map((i) => i.id), second.next]).toEqual([[1], null]);

    expect((await history(`?source=${encodeURIComponent(srt)}`)).items.map((i) => i.id)).toEqual([1]);
    expect((await history(`?destination=${encodeURIComponent(join(drive, 'Movies/Alien (1979)/Alien (1979).mkv'))}`)).items.map((i) => i.id)).toEqual([2]);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=501', 'limit'],
    ['?before=0', 'before'],
    ['?before=abc', 'before'],
    ['?source=relative.mkv', 'source'],
    ['?destination=x', 'destination'],
  ])('refuses %s with a 400 naming %s', async (query, key) => {
    await install('move');
    const res = await t.app.request(`/api/history${query}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'bad_request', details: { key } });
  });
});
