import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDataDir } from './data-stores.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-data-stores-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

// The names are spelled out here: a store that moved its file would strand an install's data.
describe('openDataDir', () => {
  it('hands out each store over the file it always used, the same store every time', () => {
    const data = openDataDir('/data');
    expect(data.auth().accounts.file).toBe('/data/auth.json');
    expect(data.auth().apiKey.file).toBe('/data/api_key');
    expect(data.identifyCache().file).toBe('/data/metadata/tvmaze-cache.json');
    expect(data.identifyCache().failures.file).toBe('/data/metadata/tvmaze-failing.json');
    expect(data.downloadsListing().file).toBe('/data/downloads-listing.json');
    expect(data.history().file).toBe('/data/history/imports.jsonl');
    expect(data.passes().dir).toBe('/data/passes');
    for (const store of ['auth', 'identifyCache', 'downloadsListing', 'history', 'passes', 'mediaWork'] as const) expect(data[store]()).toBe(data[store]());
  });

  it('keeps the notes of temps in flight under media-work/', async () => {
    const ticket = await openDataDir(dir).mediaWork().begin(join(dir, 'Movie.mkv'), 'remux', '1');
    expect(await readdir(join(dir, 'media-work'))).toHaveLength(1);
    await ticket.end();
    expect(await readdir(join(dir, 'media-work'))).toEqual([]);
  });

  it('opens the state stores once, over state.json and transcodes.jsonl', async () => {
    const data = openDataDir(dir);
    const stores = await data.stateStores();
    expect(await data.stateStores()).toBe(stores);
    expect(stores.state.file).toBe(join(dir, 'state.json'));
    expect(stores.transcodes.file).toBe(join(dir, 'transcodes.jsonl'));
  });
});
