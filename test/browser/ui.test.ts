import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkA11y, useStack } from './support/stack.ts';

// The UI as a person uses it, in order: the owner is set up once per stack, then each test logs in.
const stack = useStack({ toml: '[app]\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });

const OWNER = { username: 'owner', password: 'a good passphrase' };
const PAGES = ['Activity', 'Downloads', 'Library', 'Wanted', 'Subtitles', 'Transcodes', 'Duplicates', 'Settings', 'System'];

async function logIn(page: Page) {
  await page.goto('/');
  await page.getByLabel('Username').fill(OWNER.username);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
}

async function open(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

describe('the web UI, in a browser', () => {
  it('opens with the first-run set-up from the printed token, then every page is reachable and accessible', async () => {
    const page = await stack().newPage();
    const token = new URL(await stack().setupUrl()).searchParams.get('token')!;
    await page.goto(`/?token=${token}`);
    await page.getByRole('heading', { level: 1, name: 'Set up media-organizer' }).waitFor();
    await checkA11y(page);
    expect(await page.getByLabel('Set-up token').inputValue()).toBe(token);
    await page.getByLabel('Username').fill(OWNER.username);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create owner' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    expect(new URL(page.url()).search).toBe('');

    const nav = page.getByRole('navigation', { name: 'Pages' }).getByRole('link');
    expect(await nav.allTextContents()).toEqual(PAGES);
    for (const name of PAGES) {
      await open(page, name);
      expect(await page.locator('main').getAttribute('data-page')).toBe(name.toLowerCase());
      await checkA11y(page);
    }
    // A deep link survives a reload: the API answers every page path with the app.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'System' }).waitFor();
  });

  it('asks a stranger to log in, and refuses a wrong password on the page', async () => {
    const page = await stack().newPage();
    await page.goto('/library');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await page.getByLabel('Username').fill(OWNER.username);
    await page.getByLabel('Password').fill('not the passphrase');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').getByText('not right').waitFor();
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
  });

  it('goes back to the login form when the session ends while a page is open', async () => {
    const page = await stack().newPage();
    await logIn(page);
    await page.context().clearCookies();
    // The next request meets the 401: the click's, or a refetch that a live event starts first (a
    // new worker's first recycle bin purge ends about now), which takes the page links away before
    // the click. Either way the login form comes, and no Library heading before it.
    const login = page.getByRole('heading', { level: 1, name: 'Log in' });
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Library', exact: true })
      .click({ timeout: 5000 })
      .catch(async (err: unknown) => {
        if (!(await login.isVisible())) throw err;
      });
    await login.waitFor();
  });

  it('scans downloads in dry run, then for real once dry run is off in Settings, and the library shows the movie', async () => {
    const { paths } = stack().install;
    await mkdir(join(paths.downloads, 'Heat.1995.1080p.BluRay.x264-GRP'), { recursive: true });
    await writeFile(join(paths.downloads, 'Heat.1995.1080p.BluRay.x264-GRP', 'Heat.1995.1080p.BluRay.x264-GRP.mkv'), Buffer.alloc(4096));
    const page = await stack().newPage();
    page.setDefaultTimeout(8000);
    await logIn(page);

    await open(page, 'Downloads');
    await page.getByText('Dry run', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Scan downloads' }).click();
    await page.getByRole('heading', { name: 'Plan (dry run: nothing moved)' }).waitFor();
    await page.getByText(join(paths.drive, 'Movies', 'Heat (1995)', 'Heat (1995).mkv')).waitFor();
    // The listing shows what the name says of its quality beside what it was recognised as.
    await page.getByRole('cell', { name: 'Heat (1995) 1080p BluRay x264 · GRP' }).waitFor();

    await open(page, 'Settings');
    await page.getByLabel('Dry run: plan only, change no files').uncheck();
    await page.getByLabel('Import by').selectOption('hardlink');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const saved = await page.evaluate(() => fetch('/api/config').then((r) => r.json()));
    expect([saved.app.dry_run, saved.library.transfer]).toEqual([false, 'hardlink']);

    await open(page, 'Downloads');
    await page.getByText('Live: changes files').waitFor();
    // Dry run off: a preview first, then the owner's word, naming the transfer mode.
    await page.getByRole('button', { name: 'Scan downloads' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing moved yet' }).waitFor();
    await page.getByRole('button', { name: 'Import these (1)' }).click();
    const ask = page.getByRole('dialog', { name: 'Hard-link 1 file into the library?' });
    await ask.getByRole('button', { name: 'Hard-link 1 file' }).click();
    await page.getByRole('heading', { name: 'Pass result' }).waitFor();
    await page.locator('.pass-result [data-status="moved"]').waitFor();
    // Linked, not moved: the download stays for seeding.
    expect(existsSync(join(paths.downloads, 'Heat.1995.1080p.BluRay.x264-GRP', 'Heat.1995.1080p.BluRay.x264-GRP.mkv'))).toBe(true);

    await open(page, 'Library');
    await page.getByRole('button', { name: 'Scan library' }).click();
    await page.getByRole('listitem').getByText('Heat (1995)').waitFor();
    expect(await page.getByTestId('library-summary').textContent()).toContain('1 movies');
  });

  it('shows a settings error beside the field the API names, and saves nothing', async () => {
    const page = await stack().newPage();
    await logIn(page);
    await open(page, 'Settings');
    const field = page.getByLabel('Scan interval (seconds, 0 = off)');
    await field.fill('-5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('[aria-invalid="true"]').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby'))!;
    const message = await page.locator(`[id="${describedBy.split(' ')[0]}"]`).textContent();
    // In words, naming the field: never the validator's own text (">= 0", "Too small").
    expect(message).toBe('Scan interval must be a whole number of seconds, 0 or more.');
    const config = await page.evaluate(() => fetch('/api/config').then((r) => r.json()));
    expect(config.app.scan_interval_seconds).toBe(0);
  });

  it('adds a notification target with its secret, never shows the secret again, and keeps it when the target is edited', async () => {
    const page = await stack().newPage();
    page.setDefaultTimeout(8000);
    await logIn(page);
    await open(page, 'Settings');
    await page.getByRole('button', { name: 'Add target' }).click();
    await page.getByLabel('Target 1 name').fill('hook');
    await page.getByLabel('Target 1 kind').selectOption('webhook');
    await page.getByLabel('Target 1 URL').fill('ftp://hooks.lan/x');
    await page.getByLabel('Target 1 Secret (sent as X-MO-Secret)').fill('s3cret-value');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const url = page.getByLabel('Target 1 URL');
    await page.locator('[data-path="notifications.targets.0.url"] [aria-invalid="true"]').waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');

    await url.fill('https://hooks.lan/x?token=t0k&v=1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const shown = await page.evaluate(() => fetch('/api/config').then((r) => r.text()));
    expect(shown).toContain('https://hooks.lan/x?v=1');
    for (const secret of ['s3cret-value', 't0k']) expect(shown).not.toContain(secret);

    await page.reload();
    await page.getByLabel('Target 1 enabled').uncheck();
    expect(await page.getByLabel('Target 1 Secret (sent as X-MO-Secret)').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const state = JSON.parse(await readFile(join(stack().install.paths.data, 'state.json'), 'utf8'));
    expect(state.settings.notifications.targets).toEqual([
      { name: 'hook', kind: 'webhook', url: 'https://hooks.lan/x?token=t0k&v=1', secret: 's3cret-value', enabled: false },
    ]);
    await checkA11y(page);
  });

  it("applies the owner's stylesheet last, over the UI's own rules, and ?nocss=1 turns it off for the visit", async () => {
    await writeFile(join(stack().install.paths.config, 'custom-theme.css'), 'h1 { color: rgb(200, 0, 100); }\n');
    const page = await stack().newPage();
    await logIn(page);
    const h1Color = () => page.locator('h1').evaluate((el) => getComputedStyle(el).color);
    expect(await h1Color()).toBe('rgb(200, 0, 100)');
    const last = await page.evaluate(() => [...document.head.querySelectorAll('link[rel=stylesheet], style')].at(-1)?.getAttribute('href'));
    expect(last).toBe('api/theme/custom.css');

    await page.goto('/activity?nocss=1');
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    expect(await h1Color()).not.toBe('rgb(200, 0, 100)');
    await open(page, 'Library');
    expect(await h1Color()).not.toBe('rgb(200, 0, 100)');
    await page.goto('/library');
    await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
    expect(await h1Color()).not.toBe('rgb(200, 0, 100)');
  });
});

describe('the track editor in the browser', () => {
  it('sets a default audio track and removes one on a real file, showing the command and the streams after', async () => {
    const { paths } = stack().install;
    const movie = join(paths.drive, 'Movies', 'Zulu (1964)', 'Zulu (1964).mkv');
    await mkdir(join(movie, '..'), { recursive: true });
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=880',
      '-map',
      '0',
      '-map',
      '1',
      '-map',
      '2',
      '-t',
      '2',
      '-c:v',
      'mpeg4',
      '-c:a',
      'aac',
      '-metadata:s:a:0',
      'language=eng',
      '-metadata:s:a:1',
      'language=fre',
      '-disposition:a:0',
      'default',
      '-disposition:a:1',
      '0',
      '-y',
      movie,
    ]);
    const page = await stack().newPage();
    await logIn(page);
    await open(page, 'Library');
    await page.getByRole('button', { name: 'Scan library' }).click();
    await page.getByRole('listitem').getByText('Zulu (1964)').click();
    await page.getByRole('link', { name: 'Zulu (1964).mkv' }).click();
    await page.getByRole('heading', { level: 1, name: 'Zulu (1964).mkv' }).waitFor();
    await checkA11y(page);
    const flags = (index: number) => page.locator(`tr[data-stream="${index}"] td`).nth(5).textContent();
    expect(await flags(2)).toBe('');

    await page.getByRole('button', { name: 'Set default stream 2' }).click();
    await page.getByRole('heading', { name: 'Done: the command that ran' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.command code').textContent()).toMatch(/^ffmpeg /);
    await page.waitForFunction(() => document.querySelector('tr[data-stream="2"] td:nth-child(6)')?.textContent === 'default');
    expect(await flags(1)).toBe('');

    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await page.getByRole('button', { name: 'Remove stream 1' }).click();
    expect(await asked).toBe('Remove audio stream 1 (English) from Zulu (1964).mkv? The file is rewritten without it; this cannot be undone.');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-stream]').length === 2, undefined, { timeout: 20_000 });
  }, 60_000);
});

describe('a transcode in the browser', () => {
  it('shows its progress moving live, and cancels it', async () => {
    const { paths } = stack().install;
    const movie = join(paths.drive, 'Movies', 'Big (1988)', 'Big (1988).mkv');
    await mkdir(join(movie, '..'), { recursive: true });
    // Long enough that the job is still running when the test has seen two progress values.
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30', '-t', '120', '-c:v', 'mpeg4', '-q:v', '8', '-y', movie]);
    const page = await stack().newPage();
    await logIn(page);
    await open(page, 'Library');
    await page.getByRole('button', { name: 'Scan library' }).click();
    await page.getByRole('listitem').getByText('Big (1988)').waitFor();

    await open(page, 'Transcodes');
    await page.getByRole('cell', { name: movie }).waitFor();
    await page.getByRole('button', { name: 'Run next' }).click();
    const percent = page.locator('.running [data-testid="percent"]');
    await percent.waitFor({ timeout: 20_000 });
    const first = parseFloat((await percent.textContent())!);
    await page.waitForFunction(
      (before) => {
        const el = document.querySelector('.running [data-testid="percent"]');
        return el !== null && parseFloat(el.textContent!) > before;
      },
      first,
      { timeout: 20_000 },
    );
    // Activity shows the same job running, its progress with speed and ETA coming from the live events.
    await open(page, 'Activity');
    const row = page.locator('tr[data-queue="transcode"][data-state="active"]');
    await row.locator('[data-testid="percent"]').waitFor({ timeout: 20_000 });
    await row.getByText(/ETA \d/).waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toMatch(/\d\.\d\d×/);
    await open(page, 'Transcodes');
    await page.locator('.running').getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.running').waitFor({ state: 'detached', timeout: 20_000 });
    await page.locator(`tr[data-status="failed"]`).getByRole('button', { name: 'Retry' }).waitFor({ timeout: 20_000 });
  }, 90_000);
});
