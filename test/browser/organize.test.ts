import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { withTestKey } from '@mo/test-support/service';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

// Issue 31 item 4: Library → Organize. Dry run on until the last tests turn it off.
const stack = useStack({ toml: '[app]\ndry_run = true\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n' });

const drive = () => stack().install.paths.drive;
const HEAT_DIR = 'Movies/Heat.1995.1080p.BluRay';
const HEAT = `${HEAT_DIR}/Heat.1995.1080p.BluRay.x264-GRP.mkv`;
const OFFICE = 'TV/The Office/Season 1/the.office.s01e02.mkv';
const OFFICE_SRT = 'TV/The Office/Season 1/the.office.s01e02.en.srt';
const at = (rel: string) => join(drive(), rel);

beforeAll(async () => {
  await setUpOwner(stack());
  for (const rel of [HEAT, OFFICE, OFFICE_SRT, 'Movies/Alien (1979)/Alien (1979).mkv']) {
    await mkdir(join(at(rel), '..'), { recursive: true });
    await writeFile(at(rel), Buffer.alloc(64));
  }
});

async function pageAt(viewport: { width: number; height: number }): Promise<Page> {
  const page = await stack().newPage();
  await page.setViewportSize(viewport);
  page.setDefaultTimeout(15_000);
  await logIn(page, 'Activity');
  return page;
}

async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

const isApply = (r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/library/organize';

/** Confirms Apply's question and returns the body the page sent. */
async function applyAfterAsking(page: Page, question: string, confirm: string): Promise<{ paths?: string[] }> {
  await page.getByRole('button', { name: /^Apply \(/ }).click();
  const dialog = page.getByRole('dialog', { name: question });
  await dialog.waitFor();
  const sent = page.waitForRequest(isApply);
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
  return (await sent).postDataJSON() as { paths?: string[] };
}

async function setDryRun(on: boolean) {
  const res = await fetch(
    `${stack().baseUrl}/api/settings`,
    withTestKey({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ app: { dry_run: on } }) }),
  );
  expect(res.status).toBe(200);
}

describe('Library → Organize, in a browser', () => {
  it('before the first scan says so and offers Scan library; then lists the renames by movie or series, unticks, and a dry-run Apply renames nothing', async () => {
    const viewport = { width: 1280, height: 800 };
    const page = await pageAt(viewport);
    await page.goto('/library');
    await page.getByRole('link', { name: 'Organize' }).click();
    await page.getByRole('heading', { level: 1, name: 'Organize' }).waitFor();
    await page.getByText('The library is not scanned yet.').waitFor();
    expect(await page.locator('main').textContent()).not.toContain('Every name already matches');
    await checkA11y(page);
    await page.getByRole('button', { name: 'Scan library' }).click();

    // Two groups: the release-named movie folder (its file and the folder) and the series (an episode and its subtitle).
    const heat = page.locator(`fieldset[data-folder="${at(HEAT_DIR)}"]`);
    const office = page.locator(`fieldset[data-folder="${at('TV/The Office')}"]`);
    await heat.waitFor({ timeout: 30_000 });
    await office.waitFor();
    expect(await page.locator('fieldset.organize-group').count()).toBe(2);
    await heat.getByText('Heat (1995).mkv', { exact: true }).waitFor();
    await office.getByText('Season 1/the.office.s01e02.mkv', { exact: true }).waitFor();
    await office.getByText(/1 subtitle or info file follow it/).waitFor();
    expect(await page.getByTestId('organize-summary').textContent()).toMatch(/^4 renames proposed in 2 movies and series; 4 are ticked\./);
    await page.getByRole('button', { name: 'Apply (4)' }).waitFor();
    await checkA11y(page);
    await expectNoSidewaysScroll(page, viewport.width);

    // Untick the folder's rename: the movie's box reads as partly ticked.
    await heat.getByRole('checkbox', { name: /^Heat\.1995\.1080p\.BluRay to Heat \(1995\)/ }).uncheck();
    const heatBox = heat.getByRole('checkbox', { name: `Every rename in Heat.1995.1080p.BluRay` });
    expect(await heatBox.evaluate((b: HTMLInputElement) => b.indeterminate)).toBe(true);
    // Untick the whole series, then tick it again from its box.
    const officeBox = office.getByRole('checkbox', { name: 'Every rename in The Office' });
    await officeBox.uncheck();
    expect(await office.getByRole('checkbox', { name: /the\.office\.s01e02\.mkv/ }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Apply (1)' }).waitFor();
    await officeBox.check();
    expect(await office.getByRole('checkbox', { name: /the\.office\.s01e02\.mkv/ }).isChecked()).toBe(true);

    // Asks first, naming the count; Cancel sends nothing.
    await page.getByRole('button', { name: 'Apply (3)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename 3 files?' });
    await dialog.waitFor();
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The ticked renames with the subtitle that follows its episode; dry run: nothing renamed, and what would be.
    const body = await applyAfterAsking(page, 'Rename 3 files?', 'Rename 3 files');
    expect(body.paths).toEqual([at(HEAT), at(OFFICE), at(OFFICE_SRT)]);
    const dry = page.getByTestId('organize-dry-run');
    await dry.getByText(/^Dry run: nothing was renamed\. With dry run off, these 3 renames would be made:/).waitFor();
    await dry.getByText('The Office - S01E02.en.srt').waitFor();
    for (const rel of [HEAT, OFFICE, OFFICE_SRT]) expect(existsSync(at(rel))).toBe(true);
    await checkA11y(page);
    await expectNoSidewaysScroll(page, viewport.width);
  }, 90_000);

  it('at 390 px: no sideways scroll, a whole group unticked from its box leaves its renames out of Apply', async () => {
    const viewport = { width: 390, height: 844 };
    const page = await pageAt(viewport);
    await page.goto('/library/organize');
    const office = page.locator(`fieldset[data-folder="${at('TV/The Office')}"]`);
    await office.waitFor();
    await expectNoSidewaysScroll(page, viewport.width);
    await checkA11y(page);
    await office.getByRole('checkbox', { name: 'Every rename in The Office' }).uncheck();
    const body = await applyAfterAsking(page, 'Rename 1 file and 1 folder?', 'Rename 1 file and 1 folder');
    expect(body.paths).toEqual([at(HEAT), at(HEAT_DIR)]);
    await page
      .getByTestId('organize-dry-run')
      .getByText(/these 2 renames would be made/)
      .waitFor();
    await expectNoSidewaysScroll(page, viewport.width);
  }, 60_000);

  // How the page follows an apply that outlives the POST's wait (202, then the job's status), with
  // the API's two answers stubbed (a real apply of four renames ends within the wait). The real run is below.
  it('follows a queued apply to its result: the count renamed and each skipped one with its reason', async () => {
    const page = await pageAt({ width: 390, height: 844 });
    let polls = 0;
    await page.route('**/api/library/organize', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      await route.fulfill({ status: 202, json: { job: { id: '41', queue: 'library', state: 'waiting' }, status_url: '/api/jobs/library/41' } });
    });
    await page.route('**/api/jobs/library/41', async (route) => {
      polls += 1;
      const base = { id: '41', queue: 'library', name: 'library-organize', error: null, error_code: null, created_at: new Date().toISOString() };
      await route.fulfill({
        json:
          polls === 1
            ? { ...base, state: 'active', progress: { done: 1, total: 4 }, finished_at: null }
            : {
                ...base,
                state: 'completed',
                progress: { done: 4, total: 4 },
                result: {
                  renamed: [{ from: at(HEAT), to: at(`${HEAT_DIR}/Heat (1995).mkv`) }],
                  skipped: [{ from: at(OFFICE), reason: 'its new name is taken' }],
                },
                finished_at: new Date().toISOString(),
              },
      });
    });
    await page.goto('/library/organize');
    await page.locator('fieldset.organize-group').first().waitFor();
    await applyAfterAsking(page, 'Rename 3 files and 1 folder?', 'Rename 3 files and 1 folder');
    await page.getByRole('progressbar', { name: 'Renames done' }).waitFor();
    const result = page.getByTestId('organize-result');
    await result.getByText(/^Renamed 1 file or folder; 1 was left as it was:/).waitFor();
    await result.getByText(/its new name is taken/).waitFor();
    await checkA11y(page);
    await expectNoSidewaysScroll(page, 390);
  }, 60_000);

  it('applies every rename live with its progress, shows the result, and the list then says all names match', async () => {
    await setDryRun(false);
    try {
      const page = await pageAt({ width: 1280, height: 800 });
      await page.goto('/library/organize');
      await page.getByText('Live: changes files').waitFor();
      const body = await applyAfterAsking(page, 'Rename 3 files and 1 folder?', 'Rename 3 files and 1 folder');
      expect(body.paths).toBeUndefined();
      await page
        .getByTestId('organize-result')
        .getByText(/^Renamed 4 files and folders\./)
        .waitFor({ timeout: 30_000 });
      await page.getByText('Every name already matches the templates.').waitFor();
      expect(existsSync(join(drive(), 'Movies/Heat (1995)/Heat (1995).mkv'))).toBe(true);
      expect(existsSync(join(drive(), 'TV/The Office/Season 1/The Office - S01E02.en.srt'))).toBe(true);
      expect(existsSync(at(HEAT))).toBe(false);
      await checkA11y(page);
      // The renames are history items, each with its Undo.
      await page.goto('/activity');
      await page.locator('section[aria-labelledby="imports-h"]').getByText('rename').first().waitFor();
    } finally {
      await setDryRun(true);
    }
  }, 90_000);
});
