import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

// Two drives that are not there as the config says: one whose folder is gone, one an empty folder
// (a mount point without its disk). The System page must say so, and what to do, at both widths.
const disks = mkdtempSync(join(tmpdir(), 'mo-browser-health-'));
afterAll(() => rmSync(disks, { recursive: true, force: true }));
const stack = useStack({
  toml: `[[drives]]\nname = "gone"\npath = "${join(disks, 'gone')}"\n\n[[drives]]\nname = "bare"\npath = "${disks}"\n`,
});

async function openSystem(page: Page) {
  await logIn(page, 'Activity');
  // At phone width the page links fold behind Menu.
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'System', exact: true }).click();
  await page.getByRole('heading', { level: 2, name: 'Health' }).waitFor();
}

describe('the System page as a health page, in a browser', () => {
  it.each([
    ['desktop', 1280, 800],
    ['phone', 390, 844],
  ])('shows each problem as a sentence saying what to do, and what allowed_hosts does, at %s width', async (_name, width, height) => {
    if (width === 1280) await setUpOwner(stack());
    const page = await stack().newPage();
    await page.setViewportSize({ width, height });
    await openSystem(page);
    const warnings = page.getByTestId('health-warnings');
    await warnings.waitFor();
    expect(await warnings.getAttribute('role')).toBe('alert');
    const items = await warnings.locator('[data-warning]').evaluateAll((ps) => ps.map((p) => [p.getAttribute('data-warning'), p.getAttribute('data-subject')]));
    expect(items).toEqual([
      ['drive-missing', 'gone'],
      ['drive-empty', 'bare'],
    ]);
    expect(await warnings.locator('[data-subject="gone"]').textContent()).toBe(
      `Drive gone is not mounted: ${join(disks, 'gone')} does not exist or cannot be read. Mount the disk (or the Docker volume) at ${join(disks, 'gone')}, or remove the drive from the config; until then nothing is moved to it.`,
    );
    expect(await warnings.locator('[data-subject="bare"]').textContent()).toContain(
      `${disks} is an empty folder. If its disk should be mounted there, mount it`,
    );
    expect(await page.getByTestId('allowed-hosts').textContent()).toMatch(/^Not set: the service answers whatever host name a request is addressed to\./);
    // The sentences name long paths: they wrap, and the page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await checkA11y(page);
  });

  it('says nothing needs attention once the drives are there', async () => {
    const page = await stack().newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    // The disks come back: each folder holds its media again.
    mkdirSync(join(disks, 'gone', 'Movies'), { recursive: true });
    await openSystem(page);
    await page.getByTestId('health-ok').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('health-warnings').count()).toBe(0);
    expect(await page.getByTestId('health-ok').textContent()).toBe('Nothing needs attention.');
    await checkA11y(page);
  });
});
