import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TEST_API_KEY } from '@mo/test-support/service';
import { logIn, setUpOwner } from './support/owner.ts';
import { a11yViolations, formatViolations, useStack } from './support/stack.ts';

// The Library page asks for one page at a time: more movies than a page holds, two drives, a poster,
// a series with a gap. Sorting, filtering and paging are the server's, so each step is a new request.
const stack = useStack({ toml: '[app]\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });

const MOVIES = 104;

async function put(path: string, bytes: number) {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, Buffer.alloc(bytes));
}

async function api(path: string, init: RequestInit = {}) {
  const res = await fetch(`${stack().baseUrl}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY },
  });
  expect(res.status, path).toBe(200);
  return res.json();
}

beforeAll(async () => {
  await setUpOwner(stack());
  const drive = stack().install.paths.drive;
  const disk2 = join(drive, '..', 'disk2');
  for (let i = 1; i <= MOVIES; i++) {
    const name = `Film ${String(i).padStart(3, '0')} (2001)`;
    await put(join(drive, 'Movies', name, `${name}.mkv`), 1000 + i);
  }
  await put(join(drive, 'Movies', 'Zulu (1964)', 'Zulu (1964).mkv'), 500_000);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=60x90',
    '-frames:v',
    '1',
    '-y',
    join(drive, 'Movies', 'Zulu (1964)', 'poster.jpg'),
  ]);
  await put(join(disk2, 'Movies', 'Brazil (1985)', 'Brazil (1985).mkv'), 200);
  await put(join(drive, 'TV', 'Lost', 'Season 1', 'Lost - S01E01.mkv'), 10);
  await put(join(drive, 'TV', 'Lost', 'Season 1', 'Lost - S01E03.mkv'), 10);
  const config = await api('/api/config');
  await api('/api/settings', { method: 'POST', body: JSON.stringify({ drives: [...config.drives, { name: 'disk2', path: disk2 }] }) });
  await api('/api/library/scan?wait=120', { method: 'POST' });
}, 120_000);

async function noViolations(page: Page) {
  const violations = await a11yViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

const titles = (page: Page) => page.getByRole('list', { name: 'Movies' }).locator(':scope > li .title').allTextContents();
const shown = (page: Page) => page.getByRole('navigation', { name: 'Pages of the library' }).getByRole('status');

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  describe(`the Library page at ${viewport.width}x${viewport.height}`, () => {
    it('pages, sorts, filters by drive and by what is missing, and shows a poster', async () => {
      const page = await stack().newPage();
      await page.setViewportSize(viewport);
      await logIn(page, 'Activity');
      await page.goto('/library');
      await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
      await page.getByRole('tab', { name: `Movies (${MOVIES + 2})` }).waitFor();
      expect(await shown(page).textContent()).toBe(`1–100 of ${MOVIES + 2}`);
      expect((await titles(page))[0]).toBe('Brazil (1985)');
      await noViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      await page.getByRole('button', { name: 'Next' }).click();
      await shown(page)
        .filter({ hasText: `101–${MOVIES + 2} of ${MOVIES + 2}` })
        .waitFor();
      expect((await titles(page)).at(-1)).toBe('Zulu (1964)');
      expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

      // Largest first: Zulu leads page one again, with its poster as a lazy thumbnail that loaded.
      await page.getByLabel('Sort').selectOption({ label: 'Largest first' });
      await shown(page)
        .filter({ hasText: `1–100 of ${MOVIES + 2}` })
        .waitFor();
      expect((await titles(page))[0]).toBe('Zulu (1964)');
      const poster = page.getByRole('listitem').filter({ hasText: 'Zulu (1964)' }).locator('img');
      expect(await poster.getAttribute('loading')).toBe('lazy');
      expect(await poster.getAttribute('alt')).toBe('');
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.library-list img');
        return img !== null && img.complete && img.naturalWidth === 60;
      });
      await noViolations(page);

      await page.getByLabel('Drive').selectOption('disk2');
      await shown(page).filter({ hasText: '1–1 of 1' }).waitFor();
      expect(await titles(page)).toEqual(['Brazil (1985)']);
      await page.getByLabel('Drive').selectOption('');

      await page.getByLabel('Missing').selectOption({ label: 'No picture' });
      await shown(page)
        .filter({ hasText: `1–100 of ${MOVIES + 1}` })
        .waitFor();
      await page.getByLabel('Search').fill('zulu');
      await page.getByText('Nothing matches.').waitFor();
      await page.getByLabel('Missing').selectOption({ label: 'Anything' });
      await shown(page).filter({ hasText: '1–1 of 1' }).waitFor();

      await page.getByLabel('Search').fill('');
      await page.getByLabel('Missing').selectOption({ label: 'Episodes (gaps)' });
      await page.getByRole('tab', { name: 'Series (1)' }).click();
      await page.getByRole('list', { name: 'Series' }).getByText('Lost').waitFor();
      expect(await page.getByRole('list', { name: 'Series' }).textContent()).toContain('episodes missing');
      await noViolations(page);
    }, 60_000);
  });
}
