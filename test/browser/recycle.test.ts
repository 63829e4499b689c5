import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { recycleFile } from '@mo/core/recycle';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack({ toml: '[app]\ndry_run = false\nscan_interval_seconds = 0\nwatch = false\n' });

beforeAll(async () => {
  await setUpOwner(stack());
});

const drive = () => ({ name: 'disk1', path: stack().install.paths.drive });

/** A library file put in the bin by the function the service recycles with. */
async function recycled(title: string, content: string) {
  const file = join(stack().install.paths.drive, 'Movies', title, `${title}.mkv`);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, content);
  const [item] = await recycleFile({ drives: [drive()], file });
  return { file, bin: item!.path };
}

async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('the Recycle bin page, in a browser at $width px', (viewport) => {
  it('lists, restores, says why a taken path stops a restore, and empties after asking', async () => {
    const tag = viewport.width;
    const heat = await recycled(`Heat ${tag} (1995)`, 'heat video');
    const alien = await recycled(`Alien ${tag} (1979)`, 'alien video');
    const page = await stack().newPage();
    await page.setViewportSize(viewport);
    page.setDefaultTimeout(8000);
    await logIn(page, 'Activity');
    await page.goto('/library');
    await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
    await page.getByRole('link', { name: 'Recycle bin' }).click();
    await page.getByRole('heading', { level: 1, name: 'Recycle bin' }).waitFor();

    // Listed with both paths.
    await page.locator(`tr[data-path="${heat.bin}"]`).waitFor();
    await page.locator(`tr[data-path="${alien.bin}"]`).waitFor();
    expect(await page.getByTestId('recycle-summary').textContent()).toMatch(/^2 files, /);
    await checkA11y(page);
    await expectNoSidewaysScroll(page, viewport.width);

    // Restored: the file is back on disk.
    await page.getByRole('button', { name: `Restore Heat ${tag} (1995).mkv` }).click();
    await page.getByTestId('recycle-restored').waitFor();
    expect(await page.getByTestId('recycle-restored').locator('[data-full-path]').getAttribute('data-full-path')).toBe(heat.file);
    expect(await readFile(heat.file, 'utf8')).toBe('heat video');
    await page.locator(`tr[data-path="${heat.bin}"]`).waitFor({ state: 'detached' });

    // A taken original: a sentence, and nothing moves.
    await writeFile(alien.file, 'a newer alien');
    await page.getByRole('button', { name: `Restore Alien ${tag} (1979).mkv` }).click();
    const alert = page.getByRole('alert');
    await alert.getByText(/is taken: move that file away first, then restore/).waitFor();
    expect(await readFile(alien.file, 'utf8')).toBe('a newer alien');
    expect(await readFile(alien.bin, 'utf8')).toBe('alien video');

    // Empty: asks first, naming the count and the bytes; Cancel keeps everything.
    await page.getByRole('button', { name: 'Empty recycle bin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 1 file from the recycle bin?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('deleted for good (11 B)');
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await readFile(alien.bin, 'utf8')).toBe('alien video');
    await page.getByRole('button', { name: 'Empty recycle bin' }).click();
    await dialog.getByRole('button', { name: 'Delete 1 file' }).click();
    await page.getByTestId('recycle-emptied').getByText('Deleted 1 file (11 B).').waitFor();
    await page.getByText('The recycle bin is empty.').waitFor();
    await expect(readFile(alien.bin)).rejects.toThrow(/ENOENT/);
    expect(await readFile(alien.file, 'utf8')).toBe('a newer alien');
    await checkA11y(page);
    await expectNoSidewaysScroll(page, viewport.width);

    // The System page shows the bin's size as last counted.
    await page.goto('/system');
    await page
      .getByTestId('system-recycle')
      .getByText(/Recycle bin: 0 files, 0 B\./)
      .waitFor();
    await expectNoSidewaysScroll(page, viewport.width);
  });
});
