import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';

// The stylesheet is open to anyone, so the file it serves must be the config folder's own: its real
// path is checked on every request, against the file actually opened.

let t: TestApp;
afterEach(() => t.close());

const css = () => t.app.request('/api/theme/custom.css');

async function expectForbidden(res: Response) {
  expect(res.status).toBe(403);
  const { error } = errorBodySchema.parse(await res.json());
  expect(error.code).toBe('forbidden');
  expect(error.message).toMatch(/^theme\.css_file: /);
}

describe('GET /api/theme/custom.css', () => {
  it('serves a symlink that stays inside the config folder', async () => {
    t = await testApp();
    await mkdir(join(t.install.paths.config, 'themes'));
    await writeFile(join(t.install.paths.config, 'themes', 'dark.css'), ':root { --bg: #000; }');
    await symlink('themes/dark.css', join(t.install.paths.config, 'custom-theme.css'));
    const res = await css();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(':root { --bg: #000; }');
  });

  it('does not serve a symlink to /etc/passwd placed in the config folder', async () => {
    t = await testApp();
    await symlink('/etc/passwd', join(t.install.paths.config, 'custom-theme.css'));
    const res = await css();
    await expectForbidden(res.clone());
    expect(await res.text()).not.toContain('root:');
  });

  it('does not serve a file reached through a linked folder outside', async () => {
    t = await testApp();
    await writeFile(join(t.install.root, 'secret.css'), 'outside');
    await symlink(t.install.root, join(t.install.paths.config, 'up'));
    await t.config.updateSettings({ theme: { css_file: 'up/secret.css' } });
    await expectForbidden(await css());
  });

  it('serves nothing from a system folder even when a saved paths.config is "/"', async () => {
    t = await testApp();
    // Written past the settings checks, as a state.json from before them could hold it.
    await t.config.updateSettings({ paths: { config: '/' }, theme: { css_file: 'etc/passwd' } });
    const res = await css();
    await expectForbidden(res.clone());
    expect(await res.text()).not.toContain('root:');
  });

  it('serves nothing from the data folder, whatever a saved setting says', async () => {
    t = await testApp();
    const key = (await readFile(join(t.install.paths.data, 'api_key'), 'utf8')).trim();
    await writeFile(join(t.install.paths.data, 'leak.css'), key);
    await symlink(join(t.install.paths.data, 'api_key'), join(t.install.paths.config, 'key.css'));
    // Saved past the settings checks, as a state.json from before them could hold it.
    for (const [config, cssFile] of [
      [t.install.paths.data, 'api_key'],
      [t.install.paths.data, 'leak.css'],
      [t.install.paths.config, 'key.css'],
    ]) {
      await t.config.updateSettings({ paths: { config }, theme: { css_file: cssFile } });
      const res = await css();
      await expectForbidden(res.clone());
      expect(await res.text()).not.toContain(key);
    }
  });

  it('never serves the outside file while the link is swapped back and forth', async () => {
    t = await testApp();
    const dir = t.install.paths.config;
    await writeFile(join(dir, 'inside.css'), 'body { color: red; }');
    await symlink('inside.css', join(dir, 'custom-theme.css'));
    let swapping = true;
    const swapper = (async () => {
      // rename() replaces the link atomically: each request sees one link or the other.
      for (let i = 0; swapping; i++) {
        await symlink(i % 2 ? 'inside.css' : '/etc/passwd', join(dir, 'next-link')).catch(() => {});
        await rename(join(dir, 'next-link'), join(dir, 'custom-theme.css')).catch(() => {});
      }
    })();
    const seen = new Set<number>();
    try {
      // 400 requests at least, and on a loaded machine more, until the swapper has shown both links.
      for (let i = 0; i < 400 || (!(seen.has(200) && seen.has(403)) && i < 5000); i++) {
        const res = await css();
        seen.add(res.status);
        const text = await res.text();
        expect(text).not.toContain('root:');
        if (res.status === 200) expect(['body { color: red; }', '']).toContain(text);
      }
    } finally {
      swapping = false;
      await swapper;
    }
    // Both sides of the race were met, or the test proved nothing.
    expect(seen.has(200) && seen.has(403)).toBe(true);
  });

  it('answers a FIFO at once, as empty, instead of hanging', async () => {
    t = await testApp();
    execFileSync('mkfifo', [join(t.install.paths.config, 'custom-theme.css')]);
    const res = await css();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('serves a file larger than 1 MiB as empty', async () => {
    t = await testApp();
    await writeFile(join(t.install.paths.config, 'custom-theme.css'), 'a'.repeat(1024 * 1024 + 1));
    const res = await css();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
