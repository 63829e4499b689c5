import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { writeLibraryIndex } from '@mo/core';
import { episode, index, item } from '@mo/core/test-fixtures';
import { duplicatesResponse, subtitlesResponse, type IndexItem } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
afterEach(async () => t?.close());

async function indexed(items: IndexItem[]) {
  await writeLibraryIndex(t.config.current().paths.data, index(items));
  await t.library.refresh();
}

async function get(path: string) {
  const res = await t.app.request(path);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}

const HEAT = '/m/disk1/Movies/Heat (1995)';
const ALIEN = '/m/disk1/Movies/Alien (1979)';

describe('GET /api/tools/subtitles', () => {
  it('is empty before the first library scan', async () => {
    t = await testApp();
    expect((await get('/api/tools/subtitles')).body).toEqual({ scanned_at: null, total: 0, missing: [] });
  });

  it('lists the media without sidecar subtitles from the cached index', async () => {
    t = await testApp();
    const lost = episode('/m/disk1/TV/Lost', 1, [1], { title: 'Lost' });
    await indexed([item(`${HEAT}/Heat (1995).mkv`), item(`${HEAT}/Heat (1995).en.forced.srt`), item(`${ALIEN}/Alien (1979).mkv`), lost]);
    const { status, type, body } = await get('/api/tools/subtitles');
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json/);
    expect(() => subtitlesResponse.parse(body)).not.toThrow();
    expect(body).toEqual({
      scanned_at: '2026-01-02T03:04:05.000Z',
      total: 3,
      missing: [
        { path: `${ALIEN}/Alien (1979).mkv`, kind: 'movie', title: 'Alien', season: null, episode: null },
        { path: lost.path, kind: 'episode', title: 'Lost', season: 1, episode: 1 },
      ],
    });
  });

  it('with ?language=, wants a full subtitle in that language, and refuses what is not a language', async () => {
    t = await testApp();
    await indexed([
      item(`${HEAT}/Heat (1995).mkv`),
      item(`${HEAT}/Heat (1995).en.forced.srt`),
      item(`${ALIEN}/Alien (1979).mkv`),
      item(`${ALIEN}/Alien (1979).eng.srt`),
    ]);
    const paths = async (q: string) => (await get(`/api/tools/subtitles?language=${q}`)).body.missing.map((m: any) => m.path);
    expect(await paths('English')).toEqual([`${HEAT}/Heat (1995).mkv`]);
    expect(await paths('de')).toEqual([`${ALIEN}/Alien (1979).mkv`, `${HEAT}/Heat (1995).mkv`]);
    expect(await paths('fr')).toEqual([`${ALIEN}/Alien (1979).mkv`, `${HEAT}/Heat (1995).mkv`]);
    const bad = await get('/api/tools/subtitles?language=klingonese');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('language') });
  });

  it('is serialised and gzipped once per index, for a client that accepts gzip', async () => {
    t = await testApp();
    await indexed(Array.from({ length: 30 }, (_, i) => item(`/m/disk1/Movies/Movie ${i} (2000)/Movie ${i} (2000).mkv`)));
    const plain = await t.app.request('/api/tools/subtitles');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    const res = await t.app.request('/api/tools/subtitles', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThan(text.length / 4);
    expect(gunzipSync(bytes).toString()).toBe(text);
    const again = await t.app.request('/api/tools/subtitles', { headers: { 'if-none-match': plain.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('follows library.subtitle_extensions as set now, and a new index only after it is written', async () => {
    t = await testApp();
    await indexed([item(`${HEAT}/Heat (1995).mkv`), item(`${HEAT}/Heat (1995).smi`)]);
    expect((await get('/api/tools/subtitles')).body.missing).toHaveLength(1);
    await t.config.updateSettings({ library: { subtitle_extensions: ['.srt', '.smi'] } });
    expect((await get('/api/tools/subtitles')).body.missing).toHaveLength(0);
    await indexed([item(`${HEAT}/Heat (1995).mkv`), item(`${ALIEN}/Alien (1979).mkv`)]);
    expect((await get('/api/tools/subtitles')).body.missing).toHaveLength(2);
  });
});

describe('GET /api/tools/duplicates', () => {
  it('is empty before the first library scan', async () => {
    t = await testApp();
    expect((await get('/api/tools/duplicates')).body).toEqual({ scanned_at: null, movies: [], series: [] });
  });

  it('groups copies of one movie or series from the cached index, editions apart', async () => {
    t = await testApp();
    await indexed([
      item(`${HEAT}/Heat (1995).mkv`, { bytes: 10 }),
      item('/m/disk2/Movies/Heat (1995)/Heat.1995.2160p.UHD.BluRay.REMUX.HEVC-FGT.mkv', { bytes: 20 }),
      item("/m/disk2/Movies/Heat (1995) {edition-Director's Cut}/Heat.mkv"),
      episode('/m/disk1/TV/Lost', 1, [1]),
      episode('/m/disk2/TV Shows/Lost', 1, [2]),
    ]);
    const { status, type, body } = await get('/api/tools/duplicates');
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json/);
    expect(() => duplicatesResponse.parse(body)).not.toThrow();
    expect(body).toEqual({
      scanned_at: '2026-01-02T03:04:05.000Z',
      movies: [
        {
          title: 'Heat',
          year: 1995,
          edition: null,
          copies: [
            { folder: HEAT, drive: 'disk1', files: 1, bytes: 10, quality: null },
            {
              folder: '/m/disk2/Movies/Heat (1995)',
              drive: 'disk2',
              files: 1,
              bytes: 20,
              quality: { resolution: 2160, source: 'remux', codec: 'x265', proper: false, repack: false, group: 'FGT' },
            },
          ],
        },
      ],
      series: [
        {
          title: 'Lost',
          copies: [
            { folder: '/m/disk1/TV/Lost', drive: 'disk1', episode_count: 1 },
            { folder: '/m/disk2/TV Shows/Lost', drive: 'disk2', episode_count: 1 },
          ],
          shared_episodes: 0,
        },
      ],
    });
  });
});
