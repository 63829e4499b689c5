import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { libraryScanOptions, scanLibrary, writeLibraryIndex } from '@mo/core';
import { testApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
afterEach(async () => t?.close());

async function put(rel: string) {
  const p = join(t.install.paths.drive, rel);
  await mkdir(join(p, '..'), { recursive: true });
  await writeFile(p, Buffer.alloc(10));
}

/** What the worker does after a library scan: write the index where the API's cache looks. */
async function indexNow() {
  const cfg = t.config.current();
  await writeLibraryIndex(cfg.paths.data, await scanLibrary(libraryScanOptions(cfg)));
  await t.library.refresh();
}

describe('GET /api/library/organize', () => {
  it('proposes nothing before the first library scan', async () => {
    t = await testApp();
    const res = await t.app.request('/api/library/organize');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ scanned_at: null, renames: [] });
  });

  it('lists the renames the templates give for what a library scan read, and renames nothing', async () => {
    t = await testApp();
    await put('TV/The Office/Season 1/the.office.s01e02.mkv');
    await put('TV/The Office/Season 1/the.office.s01e02.en.srt');
    await put('Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv');
    await put('Movies/Alien (1979)/Alien (1979).mkv');
    await indexNow();
    const drive = t.install.paths.drive;
    const res = await t.app.request('/api/library/organize');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { scanned_at: string; renames: { from: string; to: string; kind: string; reason: string }[] };
    expect(body.scanned_at).toBe(t.library.header()!.scanned_at);
    expect(body.renames.map((r) => [r.from, r.to, r.kind])).toEqual([
      [`${drive}/Movies/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv`, `${drive}/Movies/Heat.1995.1080p.BluRay/Heat (1995).mkv`, 'movie'],
      [`${drive}/Movies/Heat.1995.1080p.BluRay`, `${drive}/Movies/Heat (1995)`, 'folder'],
      [`${drive}/TV/The Office/Season 1/the.office.s01e02.mkv`, `${drive}/TV/The Office/Season 1/The Office - S01E02.mkv`, 'episode'],
      [`${drive}/TV/The Office/Season 1/the.office.s01e02.en.srt`, `${drive}/TV/The Office/Season 1/The Office - S01E02.en.srt`, 'episode'],
    ]);
    for (const r of body.renames) expect(r.reason).not.toBe('');
    expect(await readdir(join(drive, 'Movies'))).toEqual(['Alien (1979)', 'Heat.1995.1080p.BluRay']);
  });

  it('follows the templates as they are now', async () => {
    t = await testApp();
    await put('Movies/Heat (1995)/Heat (1995).mkv');
    await indexNow();
    expect(((await (await t.app.request('/api/library/organize')).json()) as { renames: unknown[] }).renames).toEqual([]);
    const res = await t.app.request('/api/settings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ library: { movie_template: '{title} ({year})/{title}{ext}' } }),
    });
    expect(res.status).toBe(200);
    const renames = ((await (await t.app.request('/api/library/organize')).json()) as { renames: { to: string }[] }).renames;
    expect(renames.map((r) => r.to)).toEqual([`${t.install.paths.drive}/Movies/Heat (1995)/Heat.mkv`]);
  });
});

describe('POST /api/library/organize', () => {
  const post = (body: unknown) =>
    t.app.request('/api/library/organize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function library() {
    t = await testApp({ toml: '[app]\ndry_run = true\n' });
    await put('TV/Lost/Season 1/lost.s01e01.mkv');
    await put('TV/Lost/Season 1/lost.s01e02.mkv');
    await indexNow();
    return join(t.install.paths.drive, 'TV/Lost/Season 1');
  }

  it('with dry run on previews all the renames, or those named, and renames nothing', async () => {
    const season = await library();
    const all = await post({});
    expect(all.status).toBe(200);
    expect(((await all.json()) as { renames: { from: string }[] }).renames.map((r) => r.from)).toEqual([
      `${season}/lost.s01e01.mkv`,
      `${season}/lost.s01e02.mkv`,
    ]);
    const some = await post({ paths: [`${season}/lost.s01e02.mkv`] });
    expect(some.status).toBe(200);
    expect(await some.json()).toEqual({
      dry_run: true,
      renames: [
        {
          from: `${season}/lost.s01e02.mkv`,
          to: `${season}/Lost - S01E02.mkv`,
          kind: 'episode',
          reason: 'the file name is not what the episode template gives for Lost S01E02',
        },
      ],
    });
    expect(await readdir(season)).toEqual(['lost.s01e01.mkv', 'lost.s01e02.mkv']);
  });

  it('refuses a path that is no proposed rename, with a sentence naming it', async () => {
    const season = await library();
    const drive = t.install.paths.drive;
    for (const [path, why] of [
      [`${season}/Lost - S01E01.mkv`, 'is no rename GET /api/library/organize lists'],
      [`${season}/../Season 1/lost.s01e01.mkv`, 'must not hold "." or ".." folders'],
      ['/etc/passwd', 'lies outside the library folders'],
      [`${drive}/Downloads/lost.s01e01.mkv`, 'lies outside the library folders'],
      ['lost.s01e01.mkv', 'is not an absolute path'],
    ]) {
      const res = await post({ paths: [`${season}/lost.s01e01.mkv`, path] });
      expect(res.status, path).toBe(400);
      const err = ((await res.json()) as { error: { message: string; details: { key: string } } }).error;
      expect(err.message).toBe(`paths.1: ${path} ${why}`);
      expect(err.details.key).toBe('paths.1');
    }
    for (const bad of [{ paths: 'x' }, { paths: [''] }, { other: 1 }]) expect((await post(bad)).status).toBe(400);
    expect(await readdir(season)).toEqual(['lost.s01e01.mkv', 'lost.s01e02.mkv']);
  });

  it('with dry run off refuses, renaming nothing: carrying renames out is not built', async () => {
    t = await testApp({ toml: '[app]\ndry_run = false\n' });
    await put('TV/Lost/Season 1/lost.s01e01.mkv');
    await indexNow();
    const res = await post({});
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'conflict', message: 'applying renames is not built yet; turn dry run on to preview' } });
    expect(await readdir(join(t.install.paths.drive, 'TV/Lost/Season 1'))).toEqual(['lost.s01e01.mkv']);
  });
});
