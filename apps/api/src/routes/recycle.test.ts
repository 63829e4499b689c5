import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recycleFile } from '@mo/core/recycle';
import { recycleEmptyResponse, recycleResponse, recycleRestoreResponse } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function install(dryRun = false) {
  t = await testApp({ toml: `[app]\ndry_run = ${dryRun}\n` });
  return t.install.paths.drive;
}

async function put(rel: string, content = 'video') {
  const p = join(t.install.paths.drive, rel);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(p, content);
  return p;
}

const drive = () => ({ name: 'disk1', path: t.install.paths.drive });
const post = (path: string, body: unknown) =>
  t.app.request(`/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const list = async () => recycleResponse.strict().parse(await (await t.app.request('/api/recycle')).json());

describe('GET /api/recycle', () => {
  it("lists the bins' files with their originals, and the dashboard shows the size it counted", async () => {
    const d = await install();
    expect(await list()).toEqual({ items: [], files: 0, bytes: 0 });
    const heat = await put('Movies/Heat (1995)/Heat (1995).mkv');
    const [item] = await recycleFile({ drives: [drive()], file: heat, now: new Date('2026-11-28T10:00:00Z') });
    const answer = await list();
    expect(answer).toMatchObject({ files: 1, bytes: 5 });
    expect(answer.items).toEqual([
      { path: join(d, '.recycle/2026-11-28/Movies/Heat (1995)/Heat (1995).mkv'), original: heat, bytes: 5, recycled_at: item!.recycled_at, drive: 'disk1' },
    ]);
    const dashboard = (await (await t.app.request('/api/dashboard')).json()) as { recycle: unknown };
    expect(dashboard.recycle).toMatchObject({ files: 1, bytes: 5 });
  });

  it('the dashboard says null before the bins were first counted', async () => {
    await install();
    expect(((await (await t.app.request('/api/dashboard')).json()) as { recycle: unknown }).recycle).toBeNull();
  });
});

describe('POST /api/recycle/restore', () => {
  it('puts the file back', async () => {
    await install();
    const heat = await put('Movies/Heat (1995)/Heat (1995).mkv');
    const [item] = await recycleFile({ drives: [drive()], file: heat });
    const res = await post('/recycle/restore', { path: item!.path });
    expect(res.status).toBe(200);
    expect(recycleRestoreResponse.strict().parse(await res.json())).toEqual({ dry_run: false, path: item!.path, original: heat });
    expect(await readFile(heat, 'utf8')).toBe('video');
    expect((await list()).items).toEqual([]);
  });

  it('409 when the original path is taken, 404 for an unknown item, 400 for a bad body; nothing moves', async () => {
    const d = await install();
    const heat = await put('Movies/Heat (1995)/Heat (1995).mkv');
    const [item] = await recycleFile({ drives: [drive()], file: heat });
    await writeFile(heat, 'new one');
    const taken = await post('/recycle/restore', { path: item!.path });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: { message: string } }).error.message).toMatch(/is taken/);
    expect(await readFile(heat, 'utf8')).toBe('new one');
    expect(await readFile(item!.path, 'utf8')).toBe('video');
    expect((await post('/recycle/restore', { path: join(d, '.recycle/2026-01-01/Movies/none.mkv') })).status).toBe(404);
    expect((await post('/recycle/restore', { path: heat })).status).toBe(404);
    expect((await post('/recycle/restore', { path: 'relative/x.mkv' })).status).toBe(400);
    expect((await post('/recycle/restore', { path: item!.path, extra: 1 })).status).toBe(400);
    expect((await post('/recycle/restore', '')).status).toBe(400);
    expect((await list()).files).toBe(1);
  });

  it('with dry_run on makes the same checks, says what it would do and moves or deletes nothing', async () => {
    await install(true);
    const heat = await put('Movies/Heat (1995)/Heat (1995).mkv');
    const [item] = await recycleFile({ drives: [drive()], file: heat });
    const res = await post('/recycle/restore', { path: item!.path });
    expect(await res.json()).toEqual({ dry_run: true, path: item!.path, original: heat });
    expect(await readFile(item!.path, 'utf8')).toBe('video');
    expect((await post('/recycle/restore', { path: heat })).status).toBe(404);
    await writeFile(heat, 'new one');
    expect((await post('/recycle/restore', { path: item!.path })).status).toBe(409);
    expect(await (await post('/recycle/empty', {})).json()).toEqual({ dry_run: true, removed: [item!.path], bytes: 5 });
    expect((await post('/recycle/empty', { paths: [heat] })).status).toBe(404);
    expect(await readFile(item!.path, 'utf8')).toBe('video');
    expect(await readFile(heat, 'utf8')).toBe('new one');
  });
});

describe('POST /api/recycle/empty', () => {
  it('deletes the named files, then all; an unknown path deletes nothing', async () => {
    const d = await install();
    const a = await put('Movies/A (2001)/A (2001).mkv', 'aa');
    const b = await put('Movies/B (2002)/B (2002).mkv', 'bbb');
    const [ia] = await recycleFile({ drives: [drive()], file: a });
    const [ib] = await recycleFile({ drives: [drive()], file: b });
    expect((await post('/recycle/empty', { paths: [ia!.path, a] })).status).toBe(404);
    expect((await post('/recycle/empty', { paths: [] })).status).toBe(400);
    expect((await list()).files).toBe(2);
    const one = await post('/recycle/empty', { paths: [ia!.path] });
    expect(recycleEmptyResponse.strict().parse(await one.json())).toEqual({ dry_run: false, removed: [ia!.path], bytes: 2 });
    const all = await post('/recycle/empty', {});
    expect(await all.json()).toEqual({ dry_run: false, removed: [ib!.path], bytes: 3 });
    expect(await readdir(join(d, '.recycle'))).toEqual([]);
    expect(((await (await t.app.request('/api/dashboard')).json()) as { recycle: unknown }).recycle).toMatchObject({ files: 0, bytes: 0 });
  });
});
