import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';

let t: TestApp;
let dist: string;
beforeEach(async () => {
  dist = await mkdtemp(join(tmpdir(), 'mo-frame-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><html><head><base href="/" /></head><body></body></html>');
});
afterEach(async () => {
  await t?.close();
  await rm(dist, { recursive: true, force: true });
});

const settings = (app: Record<string, unknown>) =>
  t.app.request('/api/settings', { method: 'POST', body: JSON.stringify({ app }), headers: { 'content-type': 'application/json' } });

/** The page, an open route, an error and the set-up page: every kind of answer the service gives. */
async function answers() {
  return {
    page: await t.anonymous('/settings', { headers: { accept: 'text/html' } }),
    health: await t.anonymous('/api/health'),
    unauthorized: await t.anonymous('/api/config'),
    setup: await t.anonymous('/setup?token=abc'),
  };
}

async function expectFramedBy(policy: string) {
  for (const [name, res] of Object.entries(await answers())) {
    expect(res.headers.get('x-frame-options'), name).toBeNull();
    expect(res.headers.get('content-security-policy'), name).toMatch(new RegExp(`(?:^|; )frame-ancestors ${policy}$`));
  }
}

async function expectNeverFramed() {
  for (const [name, res] of Object.entries(await answers())) {
    expect(res.headers.get('x-frame-options'), name).toBe('DENY');
    expect(res.headers.get('content-security-policy'), name).toMatch(/(?:^|; )frame-ancestors 'none'$/);
  }
}

describe('app.frame_ancestors', () => {
  it("lets the listed dashboards frame every page, without X-Frame-Options, keeping each page's own policy", async () => {
    t = await testApp({ webRoot: dist, toml: `[app]\nframe_ancestors = ["https://dash.example.com", "http://192.168.1.5:8080"]\n` });
    await expectFramedBy('https://dash.example.com http://192.168.1.5:8080');
    const { page, setup } = await answers();
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'; /);
    // The set-up page is the web UI's own page now (issue 29), under the web UI's policy.
    expect(setup.headers.get('content-security-policy')).toMatch(/^default-src 'self'; /);
    expect(setup.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('changes at run time, and back to DENY when emptied', async () => {
    t = await testApp({ webRoot: dist });
    await expectNeverFramed();
    expect((await settings({ frame_ancestors: ['https://organizr.example.com', "'self'"] })).status).toBe(200);
    await expectFramedBy("https://organizr.example.com 'self'");
    expect((await settings({ frame_ancestors: [] })).status).toBe(200);
    await expectNeverFramed();
  });

  it.each([
    ['a path', 'https://dash.example.com/organizr'],
    ['a second directive', "https://dash.example.com; script-src 'unsafe-inline'"],
    ['a header of its own', 'https://dash.example.com\r\nSet-Cookie: x=1'],
    ['any site', '*'],
    ['a comma', 'https://a.example.com,https://b.example.com'],
  ])('refuses %s with a 400 naming the entry; nothing is saved and no frame allowed', async (_what, origin) => {
    t = await testApp({ webRoot: dist });
    const stateFile = join(t.install.paths.data, 'state.json');
    const before = await readFile(stateFile, 'utf8').catch(() => null);
    const res = await settings({ frame_ancestors: ['https://ok.example.com', origin] });
    expect(res.status).toBe(400);
    const { error } = errorBodySchema.parse(await res.json());
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/^app\.frame_ancestors\.1: must be an origin/);
    expect(error.details).toMatchObject({ key: 'app.frame_ancestors.1' });
    expect(await readFile(stateFile, 'utf8').catch(() => null)).toBe(before);
    await expectNeverFramed();
  });
});
