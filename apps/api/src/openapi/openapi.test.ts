import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { createJobClient, createLogger, FILE_ONLY_KEYS, libraryScanOptions, saveWorkerRecord, scanLibrary, writeLibraryIndex, type JobClient } from '@mo/core';
import { Redis } from 'ioredis';
import { fullClip, makeClip } from '@mo/core/test-fixtures';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { TEST_API_KEY, testApp, type TestApp } from '../test-support/app.ts';
import { dropPrefix, testRedisUrl, uniquePrefix } from '@mo/test-support/redis';
import { createApp, MAX_BODY_BYTES, MAX_ORGANIZE_BODY_BYTES } from '../app.ts';
import { LICENSE, openApiDocument, standaloneDocument } from './document.ts';

type Content = Record<string, { schema?: { $ref?: string } }>;
type Operation = {
  operationId: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Content };
  responses: Record<string, { content?: Content }>;
};
const prefix = uniquePrefix('openapi');
const jobs: JobClient = createJobClient({ redisUrl: testRedisUrl(), prefix, logger: createLogger({ name: 't', level: 'silent' }) });
const t: TestApp = await testApp({ jobs });
type Doc = {
  openapi: string;
  info: { license?: { name: string } };
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
};
const doc = openApiDocument(t.app) as Doc;
const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));

/**
 * The answers are checked against the published document itself, with every object closed: a
 * field the server sends but the document does not name fails, as a generated client would miss it.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)])) : closed(v),
    ]),
  );
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}
/**
 * ajv in strict mode, as a validating client may run it: a keyword it does not know, an ignored
 * format or a type it cannot check is an error, not a silent pass. The one keyword declared is the
 * wrapper's `components`, which only holds the schemas referred to as `doc#/components/schemas/…`.
 */
function validator(schemas: unknown) {
  const v = new Ajv2020({ strict: true, allErrors: true });
  // A CommonJS module: its function is also its `default`, the one name TypeScript sees.
  ajvFormats.default(v);
  v.addKeyword('components');
  v.addSchema({ $id: 'doc', components: { schemas } });
  return v;
}
const ajv = validator(closed(doc.components.schemas));
// Requests as the document describes them, objects left as they are: what a validating client sends.
const requests = validator(doc.components.schemas);

/** The document's verdict on a JSON request body for one operation. */
function requestValid(op: Operation, body: unknown): { ok: boolean; errors: string } {
  const ref = op.requestBody?.content['application/json']?.schema?.$ref;
  if (!ref) throw new Error(`${op.operationId} takes no JSON body`);
  const validate = requests.getSchema(`doc${ref}`)!;
  const ok = validate(body) as boolean;
  return { ok, errors: JSON.stringify(validate.errors?.slice(0, 3)) };
}

/** Requests answered 200 with an ETag, asked again with If-None-Match once all were sent. */
const tagged: { method: 'get' | 'post'; path: string; url: string }[] = [];

/** `method path status` of every real answer checked. */
const seen = new Set<string>();

/** Sends a request for one documented operation; its status must be documented and its JSON body valid. */
async function call(method: 'get' | 'post', path: string, url: string, init: RequestInit = {}, app = t): Promise<Response> {
  const op = doc.paths[path]?.[method];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const res = await app.app.request(url, { method: method.toUpperCase(), ...init });
  const where = `${method} ${path} → ${res.status}`;
  // The request as sent: a body the server took (or judged on its merits) must be one the document
  // lets a client send.
  const type = new Headers(init.headers).get('content-type');
  // (Not a 400, nor a refusal before the body is read: 403 from another site, 413.)
  if (op!.requestBody && typeof init.body === 'string' && type?.startsWith('application/json') && ![400, 403, 413].includes(res.status)) {
    let sent: unknown;
    try {
      sent = JSON.parse(init.body);
    } catch {
      expect.fail(`${where}: the server took a body that is not JSON`);
    }
    const verdict = requestValid(op!, sent);
    expect(verdict.ok, `${where}: the document refuses the body the server took: ${verdict.errors} in ${init.body.slice(0, 300)}`).toBe(true);
  }
  const etag = res.headers.get('etag');
  if (res.status === 200 && etag && !new Headers(init.headers).has('if-none-match') && !tagged.some((x) => x.url === url)) tagged.push({ method, path, url });
  const documented = op!.responses[String(res.status)];
  // The body is read for the message only on failure: an event stream never ends.
  if (!documented) expect.fail(`${where}: the status is not documented (${await res.clone().text()})`);
  const ref = documented!.content?.['application/json']?.schema?.$ref;
  if (ref) {
    expect(res.headers.get('content-type'), where).toMatch(/^application\/json\b/);
    const validate = ajv.getSchema(`doc${ref}`)!;
    const body = await res.clone().json();
    expect(validate(body), `${where}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
  } else if (res.status === 304) {
    expect(documented!.content, `${where}: a 304 has no body`).toBeUndefined();
  } else {
    const answered = res.headers.get('content-type')?.split(';')[0];
    expect(Object.keys(documented!.content ?? {}), where).toContain(answered);
  }
  seen.add(`${method} ${path} ${res.status}`);
  return res;
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

const concrete = (path: string) => path.replace('{queue}', 'scan').replace('{id}', 'no-such-job');

beforeAll(async () => {
  const drive = t.install.paths.drive;
  for (const dir of ['Movies/Heat (1995)', 'TV/Lost (2004)/Season 01']) await mkdir(join(drive, dir), { recursive: true });
  await fullClip(join(drive, 'Movies/Heat (1995)/Heat (1995).mkv'));
  await makeClip(join(drive, 'TV/Lost (2004)/Season 01/Lost (2004) - S01E03.avi'), { video: 'mpeg4', audio: 'mp3', seconds: 1 });
  await writeFile(join(drive, 'Movies/Heat (1995)/Heat (1995).en.srt'), '1\n00:00:00,000 --> 00:00:01,000\nhi\n');
  await writeFile(join(drive, 'TV/Lost (2004)/Season 01/Lost (2004) - S01E01.mkv'), Buffer.alloc(10));
  await writeFile(join(t.install.paths.downloads, 'Some.Movie.2020.1080p.mkv'), Buffer.alloc(10));
  const cfg = t.config.current();
  await writeLibraryIndex(cfg.paths.data, await scanLibrary(libraryScanOptions(cfg)));
  await t.library.refresh();
  // A worker's record, so that GET /api/workers answers every field it can.
  const redis = new Redis(testRedisUrl());
  await saveWorkerRecord(redis, prefix, {
    id: 'box:1:abc',
    host: 'box',
    pid: 1,
    queues: ['transcode'],
    concurrency: { transcode: 1 },
    encoders: ['libx264'],
    encoder_errors: { h264_nvenc: 'Cannot load libcuda.so.1' },
    encoders_tested_at: new Date().toISOString(),
    started_at: new Date().toISOString(),
    heartbeat_ms: 10_000,
    ttl_ms: 60_000,
  });
  redis.disconnect();
});

afterAll(async () => {
  await t?.close();
  await jobs?.close();
  await dropPrefix(testRedisUrl(), prefix);
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and describes every route the app serves, and nothing it does not', () => {
    expect(doc.openapi).toBe('3.1.0');
    const served = new Set(
      t.app.routes
        .filter((r) => r.method !== 'ALL' && !r.path.endsWith('*'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`),
    );
    // Bull Board is mounted as a whole (its page, assets and XHR endpoints) and documented as one page.
    expect(t.app.routes.some((r) => r.method === 'ALL' && r.path.startsWith('/api/admin/queues'))).toBe(true);
    served.add('get /api/admin/queues');
    const documented = new Set(operations.map(({ method, path }) => `${method} ${path}`));
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
  });

  it('comes from the route declarations alone: built without config, Redis or files, it is the same', () => {
    expect(standaloneDocument(createApp)).toEqual(doc);
  });

  it('gives every operation a unique camelCase operationId, a summary and an answer', () => {
    const ids = operations.map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['getHealth', 'getLibrary', 'postScan', 'postTranscoderRunNext', 'getJob']));
    for (const { op } of operations) expect(Object.keys(op.responses).length).toBeGreaterThan(0);
  });

  it('names every JSON body in components.schemas and refers to it there', () => {
    const refs = new Set<string>();
    for (const { method, path, op } of operations) {
      const bodies = [op.requestBody as Operation['responses'][string] | undefined, ...Object.values(op.responses)];
      for (const b of bodies) {
        const schema = b?.content?.['application/json']?.schema;
        if (!schema) continue;
        expect(schema.$ref, `${method} ${path}`).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/);
        refs.add(schema.$ref!);
      }
    }
    // Nested references resolve too: compiling each named schema follows them all.
    for (const name of Object.keys(doc.components.schemas)) expect(ajv.getSchema(`doc#/components/schemas/${name}`)).toBeDefined();
    for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref.split('/').pop()!);
    const library = JSON.stringify(doc.components.schemas.Library);
    expect(library).toContain('"#/components/schemas/LibrarySummary"');
    expect(JSON.stringify(doc.components.schemas.ScanResult)).toContain('"#/components/schemas/Plan"');
  });

  it('describes the fields clients found missing', () => {
    const s = doc.components.schemas as Record<string, any>;
    expect(s.Dashboard.properties.state.required).toContain('recent_count');
    expect(s.Releases.required).toEqual(expect.arrayContaining(['scanned_at', 'releases', 'providers']));
    expect(s.RunNextDryRun.properties.dropped.items).toEqual({ $ref: '#/components/schemas/DroppedStream' });
    expect(s.RunNextStarted.required).toContain('status_url');
    const subtitles = doc.paths['/api/tools/subtitles']!.get!;
    expect(subtitles.parameters?.map((p) => p.name)).toEqual(['language']);
  });

  it('reads query parameters only through the schemas that document them (the key aside)', async () => {
    const dirs = [join(import.meta.dirname, '../routes'), join(import.meta.dirname, '../http')];
    const read = new Set<string>();
    for (const dir of dirs) {
      for (const f of (await readdir(dir)).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
        for (const m of (await readFile(join(dir, f), 'utf8')).matchAll(/\.query\('([a-z_]+)'\)/g)) read.add(m[1]!);
      }
    }
    // The key is a security scheme, read by the auth middleware on every route.
    expect([...read]).toEqual(['api_key']);
    const documented = operations.flatMap(({ op }) => (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
    expect(documented).toEqual(expect.arrayContaining(['wait', 'folder', 'path', 'language', 'token']));
  });

  it('refuses in the document the path parameters the routes refuse: none is empty or holds a slash', () => {
    for (const { method, path, op } of operations) {
      for (const p of (op.parameters ?? []).filter((x) => x.in === 'path')) {
        const validate = ajv.compile(p.schema);
        expect(validate(''), `${method} ${path} {${p.name}}`).toBe(false);
        expect(validate('a/b'), `${method} ${path} {${p.name}}`).toBe(false);
      }
    }
  });

  it('documents the middleware answers on the routes they guard', () => {
    for (const { method, path, op } of operations) {
      const codes = Object.keys(op.responses);
      expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(['403', '500']));
      if (!op.security) expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(['401', '429']));
      if (method === 'post') expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(['400', '413']));
    }
    for (const p of ['/api/auth/setup', '/api/auth/login', '/api/auth/password', '/api/auth/api-key']) {
      expect(doc.paths[p]!.post!.responses).toHaveProperty('429');
    }
  });

  it('declares every tag its operations use, with a description, and a licence', async () => {
    const declared = doc.tags.map((tag) => tag.name);
    expect(new Set(declared).size).toBe(declared.length);
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w/);
    for (const { method, path, op } of operations) {
      expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(declared, `${method} ${path}`).toContain(tag);
    }
    // Every declared tag names some operation: a tag no operation carries is a heading over nothing.
    expect(declared.filter((name) => !operations.some(({ op }) => op.tags?.includes(name)))).toEqual([]);
    const pkg = JSON.parse(await readFile(join(import.meta.dirname, '../../../../package.json'), 'utf8')) as { license?: string };
    expect(doc.info.license).toEqual({ name: LICENSE });
    expect(pkg.license).toBe(LICENSE);
  });

  it('resolves every $ref in it', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) k === '$ref' ? refs.push(v as string) : walk(v);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\//);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, ref).toBeTypeOf('object');
    }
  });

  it('carries no regular expression flag the pattern it becomes would lose', () => {
    // A JSON Schema pattern is the expression's source alone: `/x/i` published as `x` refuses what
    // the server takes. Every zod schema a route declares is searched, nested ones included.
    const flagged: string[] = [];
    const seen = new Set<unknown>();
    const walk = (node: unknown): void => {
      if (node instanceof RegExp) {
        if (/[imsx]/.test(node.flags)) flagged.push(String(node));
        return;
      }
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const inner = '_zod' in node ? (node as { _zod: { def: object } })._zod.def : node;
      for (const v of Array.isArray(inner) ? inner : Object.values(inner)) walk(v);
    };
    walk(t.app.openAPIRegistry.definitions);
    expect(seen.size).toBeGreaterThan(1000);
    expect(flagged).toEqual([]);
  });

  it('describes allowed_hosts so that real host names, in either case, and addresses pass', () => {
    const hosts = ['media.example.com', 'Media.Example.COM', 'nas', 'nas.local.', '192.168.1.5', '[::1]', '[FE80::1]'];
    const { ok, errors } = requestValid(doc.paths['/api/settings']!.post!, { app: { allowed_hosts: hosts } });
    expect(ok, errors).toBe(true);
    for (const wrong of ['media.example.com:8080', 'http://media.example.com', 'a b', '']) {
      expect(requestValid(doc.paths['/api/settings']!.post!, { app: { allowed_hosts: [wrong] } }).ok, wrong).toBe(false);
    }
  });

  it.each(FILE_ONLY_KEYS.map((path) => [path.join('.'), path] as const))(
    'offers no key only the config file sets (%s): the document refuses it, as the server does, saving nothing',
    async (key, path) => {
      const body = path.reduceRight<unknown>(
        (inner, k) => ({ [k]: inner }),
        key === 'app.allowed_roots' ? ['/'] : key === 'paths.data' ? '/tmp' : key.endsWith('allow_private') ? true : 'key-of-mine',
      );
      expect(requestValid(doc.paths['/api/settings']!.post!, body).ok).toBe(false);
      const state = join(t.install.paths.data, 'state.json');
      const before = await readFile(state, 'utf8').catch(() => null);
      const res = await call('post', '/api/settings', '/api/settings', json(body));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { details: { key: string } } }).error.details.key).toBe(key);
      expect(await readFile(state, 'utf8').catch(() => null)).toBe(before);
    },
  );

  it('names the path prefix of URL_BASE as its server, so that every path resolves under it', async () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const prefixed = await testApp({ urlBase: '/media-organizer' });
    try {
      const res = await prefixed.app.request('/api/openapi.json');
      expect(((await res.json()) as Doc).servers).toEqual([expect.objectContaining({ url: '/media-organizer' })]);
    } finally {
      await prefixed.close();
    }
  });

  it('is served as JSON and as a reference page', async () => {
    const res = await t.app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(doc);
    const page = await t.app.request('/api/docs');
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    for (const { path } of operations) expect(html).toContain(path);
    expect(html).toContain('id="schema-Library"');
    expect(html).toContain('<a href="#schema-ErrorBody">');
  });
});

describe('real answers: each status is documented and each body validates against the document', () => {
  const plainGets = operations.filter(({ method, path, op }) => method === 'get' && !path.includes('{') && !op.parameters?.some((p) => p.required));

  it.each(plainGets.filter(({ path }) => path !== '/api/events').map(({ path }) => [path] as const))('GET %s', async (path) => {
    expect((await call('get', path, path)).status).toBe(200);
  });

  it('GET /api/events answers the documented stream, its snapshot first', async () => {
    const res = await call('get', '/api/events', '/api/events');
    expect(res.status).toBe(200);
    // The stream never ends on its own: read its first event, then hang up.
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/^event: snapshot/);
    await reader.cancel();
  });

  it('the theme answers 304 to its own ETag', async () => {
    const first = await call('get', '/api/theme/custom.css', '/api/theme/custom.css');
    const again = await call('get', '/api/theme/custom.css', '/api/theme/custom.css', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('GET with parameters', async () => {
    const heat = join(t.install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    expect((await call('get', '/api/media/probe', `/api/media/probe?path=${encodeURIComponent(heat)}`)).status).toBe(200);
    expect((await call('get', '/api/media/probe', '/api/media/probe?path=relative.mkv')).status).toBe(400);
    expect((await call('get', '/api/media/probe', `/api/media/probe?path=${encodeURIComponent(`${heat}.gone.mkv`)}`)).status).toBe(404);
    expect((await call('get', '/api/media/probe', '/api/media/probe?path=/etc/hostname.mkv')).status).toBe(403);
    const en = await call('get', '/api/tools/subtitles', '/api/tools/subtitles?language=en');
    expect(en.status).toBe(200);
    expect((await call('get', '/api/tools/subtitles', '/api/tools/subtitles?language=klingonish')).status).toBe(400);
    expect((await call('get', '/api/jobs/{queue}/{id}', '/api/jobs/scan/no-such-job')).status).toBe(404);
    expect((await call('get', '/api/jobs/{queue}/{id}', '/api/jobs/nope/1')).status).toBe(404);
    expect((await call('get', '/api/jobs', '/api/jobs?state=running')).status).toBe(400);
    expect((await call('get', '/api/scan/passes', '/api/scan/passes?limit=0')).status).toBe(400);
  });

  it('POSTs in dry run', async () => {
    const heat = join(t.install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    const dry = await call('post', '/api/media/tracks', '/api/media/tracks', json({ path: heat, action: 'remove', stream: 2 }));
    expect(dry.status).toBe(200);
    expect((await call('post', '/api/media/tracks', '/api/media/tracks', json({ path: heat, action: 'remove', stream: 0 }))).status).toBe(400);
    const next = await call('post', '/api/tools/transcoder/run-next', '/api/tools/transcoder/run-next');
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ dry_run: true, dropped: expect.any(Array) });
    expect((await call('post', '/api/tools/transcoder/retry', '/api/tools/transcoder/retry', json({ path: '/nowhere.avi' }))).status).toBe(404);
    expect((await call('post', '/api/tools/transcoder/retry', '/api/tools/transcoder/retry', json({}))).status).toBe(400);
    const all = await call('post', '/api/tools/transcoder/run-all', '/api/tools/transcoder/run-all');
    expect(all.status).toBe(200);
    expect(await all.json()).toMatchObject({ dry_run: true, total: expect.any(Number) });
    expect(
      (await call('post', '/api/tools/transcoder/discard-original', '/api/tools/transcoder/discard-original', json({ path: '/nowhere.avi' }))).status,
    ).toBe(404);
    expect((await call('post', '/api/tools/transcoder/discard-original', '/api/tools/transcoder/discard-original', json({}))).status).toBe(400);
    expect((await call('post', '/api/tools/transcoder/priority', '/api/tools/transcoder/priority', json({ path: '/nowhere.avi', priority: 1 }))).status).toBe(
      404,
    );
    expect((await call('post', '/api/jobs/transcode/{id}/cancel', '/api/jobs/transcode/no-such-job/cancel')).status).toBe(404);
    expect((await call('post', '/api/scan', '/api/scan?wait=x')).status).toBe(400);
    expect((await call('post', '/api/settings', '/api/settings', json({ app: { nope: 1 } }))).status).toBe(400);
    expect((await call('post', '/api/settings', '/api/settings', json({ settle_seconds: 5 }))).status).toBe(200);
  });

  it('job-backed POSTs answer 202 with the job, which its status URL describes', async () => {
    const scan = await call('post', '/api/scan', '/api/scan?wait=0');
    expect(scan.status).toBe(202);
    const { status_url } = (await scan.json()) as { status_url: string };
    expect((await call('get', '/api/jobs/{queue}/{id}', status_url)).status).toBe(200);
    expect((await call('post', '/api/library/scan', '/api/library/scan?wait=0')).status).toBe(202);

    expect((await call('post', '/api/settings', '/api/settings', json({ dry_run: false }))).status).toBe(200);
    const heat = join(t.install.paths.drive, 'Movies/Heat (1995)/Heat (1995).mkv');
    expect((await call('post', '/api/media/tracks', '/api/media/tracks?wait=0', json({ path: heat, action: 'remove', stream: 2 }))).status).toBe(202);
    const started = await call('post', '/api/tools/transcoder/run-next', '/api/tools/transcoder/run-next');
    expect(started.status).toBe(202);
    const { item, job } = (await started.json()) as { item: { path: string }; job: { id: string } };
    // Its job waits: the entry is queued already, and may move up.
    expect((await call('post', '/api/tools/transcoder/retry', '/api/tools/transcoder/retry', json({ path: item.path }))).status).toBe(200);
    expect((await call('post', '/api/tools/transcoder/priority', '/api/tools/transcoder/priority', json({ path: item.path, top: true }))).status).toBe(200);
    expect((await call('post', '/api/tools/transcoder/priority', '/api/tools/transcoder/priority', json({ path: item.path, priority: 1.5 }))).status).toBe(400);
    expect((await call('post', '/api/tools/transcoder/discard-original', '/api/tools/transcoder/discard-original', json({ path: item.path }))).status).toBe(
      409,
    );
    expect((await call('post', '/api/tools/transcoder/pause', '/api/tools/transcoder/pause')).status).toBe(200);
    expect((await call('post', '/api/tools/transcoder/run-next', '/api/tools/transcoder/run-next')).status).toBe(409);
    const paused = await call('post', '/api/tools/transcoder/run-all', '/api/tools/transcoder/run-all');
    expect(paused.status).toBe(202);
    expect(await paused.json()).toMatchObject({ paused: true });
    expect((await call('post', '/api/tools/transcoder/resume', '/api/tools/transcoder/resume')).status).toBe(200);
    expect((await call('post', '/api/jobs/transcode/{id}/cancel', `/api/jobs/transcode/${job.id}/cancel`)).status).toBe(202);
    expect((await call('post', '/api/tools/transcoder/cancel-all', '/api/tools/transcoder/cancel-all')).status).toBe(200);
    // The jobs just added, as the list describes them.
    const recent = await call('get', '/api/jobs', '/api/jobs?limit=10');
    expect(((await recent.json()) as { jobs: unknown[] }).jobs.length).toBeGreaterThanOrEqual(4);
  });

  it('the auth routes answer their refusals as documented', async () => {
    expect((await call('get', '/api/auth/status', '/api/auth/status')).status).toBe(200);
    expect((await call('post', '/api/auth/login', '/api/auth/login', json({ username: 'owner', password: 'wrong password' }))).status).toBe(401);
    expect(
      (await call('post', '/api/auth/setup', '/api/auth/setup', json({ token: 'wrong', username: 'owner', password: 'long enough password' }))).status,
    ).toBe(401);
    expect((await call('post', '/api/auth/password', '/api/auth/password', json({ current_password: 'x', new_password: 'long enough password' }))).status).toBe(
      409,
    );
    expect((await call('post', '/api/auth/api-key', '/api/auth/api-key', json({ password: 'x' }))).status).toBe(409);
    expect((await call('post', '/api/auth/api-key', '/api/auth/api-key', json({ pass: 'x' }))).status).toBe(400);
    expect((await call('post', '/api/auth/logout', '/api/auth/logout')).status).toBe(200);
  });

  it('every route but the open ones answers 401 without credentials', async () => {
    const anonymous = { ...t, app: { ...t.app, request: t.anonymous } } as TestApp;
    for (const { method, path } of operations.filter(({ op }) => !op.security)) {
      expect((await call(method as 'get' | 'post', path, concrete(path), {}, anonymous)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('every write answers 403 from another site, 400 for a body that is not JSON, and 413 over 1 MiB (16 MiB on the organize apply)', async () => {
    for (const { path } of operations.filter(({ method }) => method === 'post')) {
      const url = concrete(path);
      expect((await call('post', path, url, json({}, { origin: 'https://evil.example' }))).status, path).toBe(403);
      expect((await call('post', path, url, json({}, { 'sec-fetch-site': 'cross-site' }))).status, path).toBe(403);
      // As a real client sends it: with its length, which is what marks a request as having a body.
      const form = { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' } };
      expect((await call('post', path, url, form)).status, path).toBe(400);
      const big = JSON.stringify({ pad: 'x'.repeat(path === '/api/library/organize' ? MAX_ORGANIZE_BODY_BYTES : MAX_BODY_BYTES) });
      expect((await call('post', path, url, { body: big, headers: { 'content-type': 'application/json' } })).status, path).toBe(413);
    }
  });

  it('a Host not in app.allowed_hosts is 403, and wrong keys past the limit are 429, on open routes and others', async () => {
    const guarded = await testApp({ toml: '[app]\nallowed_hosts = ["media.example.org"]\n' });
    try {
      expect((await call('get', '/api/health', 'http://evil.example/api/health', {}, guarded)).status).toBe(403);
      expect((await call('get', '/setup', 'http://evil.example/setup', {}, guarded)).status).toBe(403);
      for (let i = 0; i < 10; i++) {
        expect((await call('get', '/api/library', '/api/library', { headers: { 'x-api-key': 'wrong' } }, guarded)).status).toBe(401);
      }
      expect((await call('get', '/api/library', '/api/library', { headers: { 'x-api-key': 'wrong' } }, guarded)).status).toBe(429);
      expect((await call('post', '/api/auth/login', '/api/auth/login', json({ username: 'owner', password: 'x' }), guarded)).status).toBe(429);
    } finally {
      await guarded.close();
    }
  });

  it('a manual import is previewed, and an alias that is not there is not removed, as documented', async () => {
    const download = join(t.install.paths.downloads, 'Some.Movie.2020.1080p.mkv');
    // Settled (written an hour ago), and not taken for a sample at its 10 bytes.
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(download, hourAgo, hourAgo);
    const samples = t.config.current().library.sample_max_bytes;
    expect((await call('post', '/api/settings', '/api/settings', json({ library: { sample_max_bytes: 0 } }))).status).toBe(200);
    const preview = await call(
      'post',
      '/api/imports/manual',
      '/api/imports/manual?dry_run=true',
      json({ path: download, as: { kind: 'movie', title: 'Some Movie', year: 2020 } }),
    );
    expect(preview.status, await preview.clone().text()).toBe(200);
    const episode = { path: download, as: { kind: 'episode', title: 'Lost', year: 2004, season: 1, episodes: [2] }, remember: true };
    const previewed = await call('post', '/api/imports/manual', '/api/imports/manual?dry_run=true', json(episode));
    expect(previewed.status, await previewed.clone().text()).toBe(200);
    expect((await call('post', '/api/imports/aliases/remove', '/api/imports/aliases/remove', json({ name: 'Lost US', series: 'Lost (2004)' }))).status).toBe(
      404,
    );
    expect((await call('post', '/api/settings', '/api/settings', json({ library: { sample_max_bytes: samples } }))).status).toBe(200);
  });

  it('the owner account is set up, logged in to, and its password and key changed, as documented', async () => {
    const owned = await testApp();
    try {
      const setup = { token: (await owned.auth.setupToken())!, username: 'owner', password: 'long enough password' };
      const made = await call('post', '/api/auth/setup', '/api/auth/setup', json(setup), owned);
      expect(made.status).toBe(201);
      const login = await call('post', '/api/auth/login', '/api/auth/login', json({ username: 'owner', password: 'long enough password' }), owned);
      expect(login.status).toBe(200);
      const cookie = { cookie: login.headers.get('set-cookie')!.split(';')[0]! };
      const changed = json({ current_password: 'long enough password', new_password: 'another long password' }, cookie);
      expect((await call('post', '/api/auth/password', '/api/auth/password', changed, owned)).status).toBe(200);
      expect(
        (await call('post', '/api/auth/api-key', '/api/auth/api-key', json({ password: 'another long password', regenerate: true }, cookie), owned)).status,
      ).toBe(200);
    } finally {
      await owned.close();
    }
  });

  it('the open sessions are listed and ended as documented', async () => {
    const owned = await testApp();
    try {
      const { token } = await owned.auth.setup((await owned.auth.setupToken())!, 'owner', 'long enough password', {
        address: '192.168.1.20',
        user_agent: 'Firefox 128 on Linux',
      });
      const cookie = { headers: { cookie: `mo_session=${token}` } };
      const listed = await call('get', '/api/auth/sessions', '/api/auth/sessions', cookie, owned);
      const { sessions } = (await listed.json()) as { sessions: { id: string; current: boolean }[] };
      expect(sessions).toEqual([expect.objectContaining({ current: true })]);
      expect((await call('post', '/api/auth/sessions/{id}/end', '/api/auth/sessions/0123456789abcdef/end', cookie, owned)).status).toBe(404);
      expect((await call('post', '/api/auth/sessions/{id}/end', `/api/auth/sessions/${sessions[0]!.id}/end`, cookie, owned)).status).toBe(200);
    } finally {
      await owned.close();
    }
  });

  it('a real host name in app.allowed_hosts, in any case, passes the host check and the document alike', async () => {
    const named = await testApp({ toml: '[app]\nallowed_hosts = ["media.example.com", "NAS.Example.org", "[::1]"]\n' });
    try {
      expect((await call('get', '/api/config', 'http://Media.Example.COM/api/config', {}, named)).status).toBe(200);
      const hosts = { app: { allowed_hosts: ['media.example.com', 'NAS.Example.org', 'nas.example.org.', '192.168.1.5'] } };
      expect((await call('post', '/api/settings', 'http://nas.example.org/api/settings', json(hosts), named)).status).toBe(200);
      expect((await call('get', '/api/config', 'http://media.example.com/api/config', {}, named)).status).toBe(200);
    } finally {
      await named.close();
    }
  });

  it('every answer sent with an ETag is answered 304 to it, as documented', async () => {
    expect(tagged.length).toBeGreaterThanOrEqual(6);
    // Asked again first: the answers of routes whose state the tests since changed have a new ETag.
    for (const { method, path, url } of tagged) {
      const etag = (await call(method, path, url)).headers.get('etag')!;
      expect((await call(method, path, url, { headers: { 'if-none-match': etag } })).status, `${method} ${url}`).toBe(304);
    }
  });

  it('a documented path answers 405 with Allow to a method it does not list, and 404 is the error body too', async () => {
    const validate = ajv.getSchema('doc#/components/schemas/ErrorBody')!;
    // Bull Board's app is mounted for every method under its path.
    for (const [path, ops] of Object.entries(doc.paths).filter(([p]) => p !== '/api/admin/queues')) {
      const listed = Object.keys(ops).map((m) => m.toUpperCase());
      const allowed = listed.includes('GET') ? [...listed, 'HEAD'].sort() : listed.sort();
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !listed.includes(m))) {
        const res = await t.app.request(concrete(path), { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe(allowed.join(', '));
        expect(validate(await res.json()), `${method} ${path}`).toBe(true);
      }
    }
    expect(doc.components.responses).toHaveProperty('MethodNotAllowed');
    const missing = await t.app.request('/api/no-such-route');
    expect(missing.status).toBe(404);
    expect(validate(await missing.json())).toBe(true);
  });

  it('every operation that takes a body refuses a missing, empty or non-object one with a 400 that says so, changing nothing', async () => {
    const withBody = operations.filter(({ op }) => op.requestBody);
    expect(withBody.length).toBeGreaterThanOrEqual(10);
    const snapshot = async () => {
      const dir = t.install.paths.data;
      const names = (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
        .sort();
      return Promise.all(names.map(async (n) => [n, await readFile(n, 'utf8')]));
    };
    const before = await snapshot();
    const typed = (body: string) => ({ body, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
    const sends: [string, RequestInit, RegExp][] = [
      ['no body, no Content-Type', {}, /the body is missing/],
      ['an empty body typed JSON', typed(''), /the body is missing/],
      ['white space typed JSON', typed(' \n'), /the body is missing/],
      ['a body without Content-Type', { body: '{}', headers: { 'content-length': '2' } }, /Content-Type: application\/json/],
      ['malformed JSON', typed('{"a":'), /not valid JSON/],
      ['null', typed('null'), /expected object/],
      ['an array', typed('[]'), /expected object/],
      ['a string', typed('"x"'), /expected object/],
      ['a number', typed('42'), /expected object/],
    ];
    for (const { method, path, op } of withBody) {
      expect(op.requestBody!.required, `${method} ${path}`).toBe(true);
      for (const [what, init, why] of sends) {
        // The document refuses every JSON one of them as well.
        if (typeof init.body === 'string' && init.body.trim() !== '' && new Headers(init.headers).has('content-type')) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(init.body);
          } catch {
            continue;
          }
          expect(requestValid(op, parsed).ok, `${what} to ${path}`).toBe(false);
        }
        const res = await call(method as 'post', path, concrete(path), init);
        const { error } = (await res.json()) as { error: { code: string; message: string } };
        expect([res.status, error.code], `${what} to ${method} ${path}: ${error.message}`).toEqual([400, 'bad_request']);
        expect(error.message, `${what} to ${path}`).toMatch(why);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('over a real socket too, a POST with nothing in it (as `curl -X POST` sends) to a route that takes a body is a 400', async () => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const { path } of operations.filter(({ op }) => op.requestBody)) {
        for (const headers of [{}, { 'content-length': '0' }, { 'content-type': 'application/json', 'content-length': '0' }]) {
          const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
            const req = request(
              { host: '127.0.0.1', port, method: 'POST', path: concrete(path), headers: { 'x-api-key': TEST_API_KEY, ...headers } },
              (res) => {
                let text = '';
                res
                  .setEncoding('utf8')
                  .on('data', (d: string) => (text += d))
                  .on('end', () => resolve({ status: res.statusCode!, text }));
              },
            );
            req.on('error', reject).end();
          });
          expect(answer.status, `${path} ${JSON.stringify(headers)}: ${answer.text}`).toBe(400);
          expect(answer.text).toMatch(/the body is missing/);
        }
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('covered every operation, and every kind of answer but 500 and 503', () => {
    for (const { method, path } of operations)
      expect(
        [...seen].some((s) => s.startsWith(`${method} ${path} `)),
        `${method} ${path}`,
      ).toBe(true);
    for (const status of ['200', '201', '202', '304', '400', '401', '403', '404', '409', '413', '429']) {
      expect(
        [...seen].some((s) => s.endsWith(` ${status}`)),
        status,
      ).toBe(true);
    }
  });
});
