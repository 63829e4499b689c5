import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TEST_API_KEY } from '@mo/test-support/service';
import { logIn, setUpOwner } from './support/owner.ts';
import { a11yViolations, formatViolations, useStack } from './support/stack.ts';

// Issue 29: a phone is a first-class screen. Long names and deep folders, as a real library has them.
const stack = useStack({ toml: '[app]\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });

const PAGES = ['Activity', 'Downloads', 'Library', 'Wanted', 'Subtitles', 'Transcodes', 'Duplicates', 'Settings', 'System'];
const MOVIE = 'The Extraordinarily Long Title of a Film About Absolutely Everything (2019)';
const SERIES = 'A Series Whose Name Goes On and On Without End (2005)';
const RELEASE = 'The.Extraordinarily.Long.Title.of.a.Film.About.Absolutely.Everything.2019.2160p.UHD.BluRay.REMUX.HDR.HEVC.Atmos-SUPERLONGGROUPNAME';
const UNKNOWN = 'some_unrecognizable_home_video_recording_without_any_spaces_or_dots_whatsoever_from_the_summer_holiday';
const movieFile = () => join(stack().install.paths.drive, 'Movies', MOVIE, `${MOVIE}.avi`);

beforeAll(async () => {
  await setUpOwner(stack());
  const { paths } = stack().install;
  await mkdir(join(movieFile(), '..'), { recursive: true });
  // A real video, so the file page has its streams table; .avi so the Transcodes queue lists it.
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '1', '-c:v', 'mpeg4', '-y', movieFile()]);
  const season = join(paths.drive, 'TV', SERIES, 'Season 01');
  await mkdir(season, { recursive: true });
  for (const e of ['01', '02']) await writeFile(join(season, `${SERIES} - S01E${e} - An Episode Title That Is Also Rather Long.mkv`), Buffer.alloc(4096));
  await mkdir(join(paths.downloads, RELEASE, 'Featurettes', 'Behind.The.Scenes'), { recursive: true });
  await writeFile(join(paths.downloads, RELEASE, `${RELEASE}.mkv`), Buffer.alloc(4096));
  await writeFile(join(paths.downloads, RELEASE, 'Featurettes', 'Behind.The.Scenes', `${UNKNOWN}.mkv`), Buffer.alloc(4096));
  await writeFile(join(paths.downloads, `${UNKNOWN}.mkv`), Buffer.alloc(4096));
  // The library index and a dry-run pass, so Activity, Downloads, Library and Transcodes have rows.
  const headers = { 'x-api-key': TEST_API_KEY };
  for (const url of ['/api/library/scan?wait=30', '/api/scan?wait=30']) {
    const res = await fetch(`${stack().baseUrl}${url}`, { method: 'POST', headers });
    expect(res.status, url).toBe(200);
  }
});

/**
 * The page reaches no further sideways than the viewport: the document's and the body's scroll
 * widths. On failure the widest elements are named, to say where to look.
 */
async function expectFits(page: Page, what: string, width: number) {
  const seen = await page.evaluate(() => ({
    doc: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    widest: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      // Inside a scrolling box (a log, a long command) it scrolls there, not the page.
      .filter((e) => {
        for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return false;
        return true;
      })
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${(e as HTMLElement).className} ${Math.round(e.getBoundingClientRect().right)}px`),
  }));
  expect({ what, ...seen, doc: seen.doc <= width, body: seen.body <= width }).toEqual({ what, doc: true, body: true, widest: [] });
}

async function expectAccessible(page: Page, what: string) {
  const violations = await a11yViolations(page);
  expect(formatViolations(violations), `${what}: axe`).toBe('');
}

async function openByMenu(page: Page, name: string) {
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  expect(await menu.getAttribute('aria-expanded')).toBe('true');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  // Choosing a page folds the menu again and puts focus on the page.
  expect(await menu.getAttribute('aria-expanded')).toBe('false');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
}

describe('a phone is a first-class screen', () => {
  it('shows the login page without sideways scrolling, at 390 px and 1280 px', async () => {
    for (const width of [390, 1280]) {
      const page = await stack().newPage();
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await expectFits(page, `login at ${width}`, width);
      await expectAccessible(page, `login at ${width}`);
    }
  });

  it('folds the navigation behind Menu at 390 px: Escape closes it and gives focus back to the button', async () => {
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, 'Activity');
    const menu = page.getByRole('button', { name: 'Menu' });
    const links = page.getByRole('navigation', { name: 'Pages' }).getByRole('link');
    expect([await menu.getAttribute('aria-expanded'), await links.first().isVisible()]).toEqual(['false', false]);
    expect(await page.locator(`#${await menu.getAttribute('aria-controls')}`).count()).toBe(1);
    await menu.click();
    expect(await links.allTextContents()).toEqual(PAGES);
    for (const name of PAGES) expect(await links.getByText(name, { exact: true }).isVisible(), name).toBe(true);
    await expectFits(page, 'the open menu', 390);
    await expectAccessible(page, 'the open menu');
    await links.getByText('Wanted', { exact: true }).focus();
    await page.keyboard.press('Escape');
    expect([await menu.getAttribute('aria-expanded'), await links.first().isVisible()]).toEqual(['false', false]);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');
    // A tap outside the open menu closes it, as with any drop-down.
    await menu.click();
    await page.mouse.click(200, 700);
    expect([await menu.getAttribute('aria-expanded'), await links.first().isVisible()]).toEqual(['false', false]);
  });

  it('keeps the navigation as a row of links at 1280 px, with no Menu button', async () => {
    const page = await stack().newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await logIn(page, 'Activity');
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    const links = page.getByRole('navigation', { name: 'Pages' }).getByRole('link');
    for (const name of PAGES) expect(await links.getByText(name, { exact: true }).isVisible(), name).toBe(true);
  });

  it('fits every page into 390 px, and each passes axe at 390 px and at 1280 px', async () => {
    const page = await stack().newPage();
    page.setDefaultTimeout(15_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, 'Activity');
    // Wait for the seeded rows, so the widths measured are those of a page with long names in it.
    await page.locator('tr[data-queue="scan"][data-state="completed"]').waitFor();
    const ready: Record<string, () => Promise<unknown>> = {
      Activity: async () => {
        await page.locator('li[data-pass] summary').first().click();
        await page.locator('li[data-pass] tr[data-reason]').first().waitFor();
      },
      Downloads: async () => {
        await page.getByText(`${UNKNOWN}.mkv`).first().waitFor();
        await page.getByRole('button', { name: 'Scan downloads' }).click();
        await page.getByRole('heading', { name: 'Plan (dry run: nothing moved)' }).waitFor();
      },
      Library: () => page.getByText(MOVIE).first().waitFor(),
      Transcodes: () => page.locator('tbody tr').first().waitFor(),
      System: () => page.getByRole('heading', { level: 2, name: 'Health' }).waitFor(),
    };
    for (const name of PAGES) {
      await openByMenu(page, name);
      await ready[name]?.();
      await expectFits(page, name, 390);
      await expectAccessible(page, `${name} at 390`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await expectAccessible(page, `${name} at 1280`);
      await page.setViewportSize({ width: 390, height: 844 });
    }
    await page.goto(`/library/file?path=${encodeURIComponent(movieFile())}`);
    await page.getByRole('heading', { level: 1, name: `${MOVIE}.avi` }).waitFor();
    await page.locator('table.streams tbody tr').first().waitFor();
    await expectFits(page, 'the file page', 390);
    await expectAccessible(page, 'the file page at 390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectAccessible(page, 'the file page at 1280');
  });

  it('stacks a table into rows that name each cell, and shortens a path to what matters with the whole path on demand', async () => {
    const { paths } = stack().install;
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, 'Activity');
    const pass = page.locator('li[data-pass]');
    await pass.locator('summary').first().click();
    const skipped = pass.locator('tr[data-reason="unrecognized"]').first();
    await skipped.waitFor();

    // Stacked: each cell on a line of its own under the last, its column's name shown before it.
    const cells = skipped.getByRole('cell');
    const [first, second] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
    expect(second!.y).toBeGreaterThanOrEqual(first!.y + first!.height - 1);
    const label = await cells.nth(0).evaluate((c) => [c.getAttribute('data-label'), getComputedStyle(c, '::before').content]);
    expect(label[0]).toBeTruthy();
    expect(label[1]).toBe(`"${label[0]}"`);

    // The path: the part below the downloads folder shows, the folders above it wait behind a button.
    const path = cells.nth(0).locator('.path-text');
    const whole = (await path.getAttribute('data-full-path'))!;
    expect(whole.startsWith(paths.downloads + '/')).toBe(true);
    const shown = () => path.locator('.path').evaluate((e) => (e as HTMLElement).innerText);
    expect(await shown()).toBe(whole.slice(paths.downloads.length + 1));
    const toggle = path.getByRole('button', { name: 'Whole path' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await shown()).toBe(whole);
    // Copyable: the whole path is one run of selectable text, the button's mark no part of it.
    const selected = await path.locator('.path').evaluate((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
      return getSelection()!.toString();
    });
    expect(selected).toBe(whole);

    // At desktop width the table is a table again and the path is whole, with no button.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await toggle.isVisible()).toBe(false);
    expect(await cells.nth(0).evaluate((c) => getComputedStyle(c).display)).toBe('table-cell');
  });
});
