import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack({ toml: '[app]\ndry_run = false\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });

beforeAll(async () => {
  await setUpOwner(stack());
});

describe('Import as… on the Downloads page, in a browser', () => {
  it('opens on a skipped row, marks a refused field, previews the destination, imports, and remembers the alias shown in Settings', async () => {
    const { paths } = stack().install;
    for (const f of ['Doctor Who (1963)', 'Doctor Who (2005)']) await mkdir(join(paths.drive, 'TV', f), { recursive: true });
    const source = join(paths.downloads, 'Doctor.Who.S01E01.720p.mkv');
    await writeFile(source, Buffer.alloc(4096, 3));
    await writeFile(join(paths.downloads, 'Doctor.Who.S01E01.720p.en.srt'), 'subtitle');
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await logIn(page);
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    expect(await page.evaluate(() => fetch('/api/scan?wait=30', { method: 'POST' }).then((r) => r.status))).toBe(200);
    await page.getByRole('link', { name: 'Downloads' }).click();

    const row = page.locator('tr[data-pending]');
    await row.getByText('ambiguous').waitFor();
    await row.getByRole('button', { name: /^Import as…/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Import as…' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Kind').inputValue()).toBe('episode');
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Doctor Who');
    const reading = dialog.getByLabel('Reading');
    const later = await reading.locator('option', { hasText: 'Doctor Who (2005)' }).getAttribute('value');
    await reading.selectOption(later!);
    expect(await dialog.getByLabel('Year').inputValue()).toBe('2005');
    // Replace is for a download the library holds already (`exists`), not for an ambiguous one.
    expect(await dialog.getByLabel('Replace').count()).toBe(0);
    await dialog.getByLabel('Season').fill('-1');
    await dialog.getByLabel('Episodes').fill('1');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByLabel('Season').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByRole('alert').textContent()).not.toMatch(/bad_request|expected/);

    await dialog.getByLabel('Season').fill('1');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const season = join(paths.drive, 'TV', 'Doctor Who (2005)', 'Season 01');
    const destination = dialog.getByTestId('destination');
    await destination.waitFor();
    expect((await destination.textContent())!.startsWith(`${season}/`)).toBe(true);
    expect(existsSync(source)).toBe(true);
    await checkA11y(page);

    await dialog.getByLabel('Remember').check();
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText(/^Imported to /).waitFor();
    await dialog.getByText('From now on “Doctor Who” goes to Doctor Who (2005).').waitFor();
    expect(existsSync(source)).toBe(false);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await row.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Settings' }).click();
    const aliases = page.locator('section[aria-labelledby="aliases-h"]');
    await aliases.getByText('“Doctor Who” → Doctor Who (2005)').waitFor();
    await aliases.getByRole('button', { name: /^Remove/ }).click();
    await aliases.getByText('No aliases yet.').waitFor();
  });

  it('offers Replace for a download the library holds already, says why it was not an upgrade, and previews with replace: true', async () => {
    const { paths } = stack().install;
    // Held under another extension, as CONTRACT.md's example: the skip's detail names it.
    const held = join(paths.drive, 'Movies', 'Heat (1995)', 'Heat (1995).avi');
    await mkdir(join(held, '..'), { recursive: true });
    await writeFile(held, Buffer.alloc(2048, 1));
    const source = join(paths.downloads, 'Heat.1995.1080p.BluRay.x264-GRP.mkv');
    await writeFile(source, Buffer.alloc(4096, 2));
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await logIn(page, 'Activity');
    // The scanner finds the movie's folder through the library index.
    expect(await page.evaluate(() => fetch('/api/library/scan?wait=30', { method: 'POST' }).then((r) => r.status))).toBe(200);
    expect(await page.evaluate(() => fetch('/api/scan?wait=30', { method: 'POST' }).then((r) => r.status))).toBe(200);

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/downloads');
      const row = page.locator(`tr[data-pending="${source}"]`);
      await row.getByText('exists', { exact: true }).waitFor();
      // Why it was not an upgrade: the held file and both qualities, readable on a phone.
      await row.getByText(/the library holds this movie already: .*Heat \(1995\)\.avi/).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await row.getByRole('button', { name: /^Import as…/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Import as…' });
      await dialog.waitFor();
      // Pre-filled with the download's own reading: an exists skip has no candidates of its own.
      expect([
        await dialog.getByLabel('Kind').inputValue(),
        await dialog.getByLabel('Title').inputValue(),
        await dialog.getByLabel('Year').inputValue(),
      ]).toEqual(['movie', 'Heat', '1995']);
      const replace = dialog.getByLabel('Replace');
      expect(await replace.isChecked()).toBe(false);
      await replace.check();
      const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/imports/manual');
      await dialog.getByRole('button', { name: 'Preview' }).click();
      const request = await sent;
      expect(new URL(request.url()).searchParams.get('dry_run')).toBe('true');
      expect(request.postDataJSON()).toMatchObject({ path: source, replace: true });
      // The preview names the held file and says it goes to the recycle bin; nothing moves yet.
      const note = dialog.getByTestId('replace-note');
      await note.waitFor();
      expect(await note.textContent()).toMatch(/replacing .*Heat \(1995\)\.avi.*goes to the recycle bin/);
      // Import with Replace asks first, naming the held file; Cancel imports nothing.
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      const ask = page.getByRole('dialog', { name: /^Replace the library’s file with / });
      await ask.waitFor();
      expect(await ask.textContent()).toMatch(/Heat \(1995\)\.avi and its subtitles go to the drive’s recycle bin first/);
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      expect(existsSync(source) && existsSync(held)).toBe(true);
      await checkA11y(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
  });
});
