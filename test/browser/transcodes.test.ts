import { execFileSync } from 'node:child_process';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { withTestKey } from '@mo/test-support/service';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack({
  toml: '[app]\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n\n[transcoder]\nkeep_original = true\n',
});
const TITLES = ['Alpha (2001)', 'Bravo (2002)', 'Charlie (2003)'];
const movie = (title: string) => join(stack().install.paths.drive, 'Movies', title, `${title}.mkv`);

beforeAll(async () => {
  await setUpOwner(stack());
  for (const title of TITLES) {
    await mkdir(join(movie(title), '..'), { recursive: true });
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '1', '-c:v', 'mpeg4', '-y', movie(title)]);
  }
});

async function open(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** The Position column, by the movie's folder, as the table shows it now. */
function positions(page: Page): Promise<Record<string, string>> {
  return page
    .locator('tbody tr')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((r) => [r.querySelector('td.path')!.textContent!.split('/').at(-2), r.querySelector('[data-testid="position"]')!.textContent]),
      ),
    );
}

const row = (page: Page, title: string) => page.locator('tbody tr', { has: page.getByRole('cell', { name: movie(title), exact: true }) });

describe('the Transcodes page steering the queue, in a browser', () => {
  it('lists Run all as commands in dry run, reorders the line, pauses and resumes, then runs one and discards its original', async () => {
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await logIn(page, 'Activity');
    await open(page, 'Library');
    await page.getByRole('button', { name: 'Scan library' }).click();
    await page.getByRole('listitem').getByText('Charlie (2003)').waitFor();

    await open(page, 'Transcodes');
    await row(page, 'Charlie (2003)').waitFor();
    expect(await positions(page)).toEqual({ 'Alpha (2001)': '1', 'Bravo (2002)': '2', 'Charlie (2003)': '3' });

    await page.getByRole('button', { name: 'Run all' }).click();
    await page.getByRole('heading', { name: 'Dry run: Run all would start 3 transcodes' }).waitFor({ timeout: 20_000 });
    const commands = await page.locator('.plan code').allTextContents();
    expect(commands).toHaveLength(3);
    TITLES.forEach((title, i) => {
      expect(commands[i]).toMatch(/^ffmpeg /);
      expect(commands[i]).toContain(movie(title));
    });
    await checkA11y(page);

    await row(page, 'Charlie (2003)').getByRole('button', { name: 'Move to top' }).click();
    await expect.poll(() => positions(page)).toEqual({ 'Charlie (2003)': '1', 'Alpha (2001)': '2', 'Bravo (2002)': '3' });
    const bravo = page.getByLabel('Priority of Bravo (2002).mkv');
    await bravo.fill('50');
    await bravo.press('Enter');
    await expect.poll(() => positions(page)).toEqual({ 'Bravo (2002)': '1', 'Charlie (2003)': '2', 'Alpha (2001)': '3' });

    // Dry run answers Run next with its command even while paused: the refusal is for a real start.
    const off = await fetch(
      `${stack().baseUrl}/api/settings`,
      withTestKey({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ app: { dry_run: false } }) }),
    );
    expect(off.status).toBe(200);
    await page.reload();
    await page.getByText('Live: changes files').waitFor();

    await page.getByRole('button', { name: 'Pause queue' }).click();
    await page.getByRole('status').getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Run next' }).click();
    await page.getByRole('alert').getByText('the transcode queue is paused; resume it first').waitFor();
    expect(await positions(page)).toEqual({ 'Bravo (2002)': '1', 'Charlie (2003)': '2', 'Alpha (2001)': '3' });

    await page.getByRole('button', { name: 'Resume queue' }).click();
    await page.getByRole('button', { name: 'Pause queue' }).waitFor();
    expect(await page.getByRole('status').getByText('Paused', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Run next' }).click();
    await page
      .getByRole('status')
      .getByText(/^Started the transcode of .*Bravo \(2002\)/)
      .waitFor();

    const done = row(page, 'Bravo (2002)');
    await done.and(page.locator('[data-status="done"]')).waitFor({ timeout: 30_000 });
    expect(await done.getByTestId('position').textContent()).toBe('–');
    expect(await done.getByTestId('result').textContent()).toMatch(/B → .*B.*mpeg4 → h264.*in \d+s/);
    await done.getByRole('button', { name: 'Discard original' }).click();
    const ask = page.getByRole('dialog', { name: 'Move the original Bravo (2002).mkv to the recycle bin?' });
    expect(await ask.textContent()).toContain('the MP4 made from it stays');
    await ask.getByRole('button', { name: 'Recycle the original' }).click();
    await page
      .getByRole('status')
      .getByText(/^Removed /)
      .waitFor();
    await done.getByRole('button', { name: 'Discard original' }).waitFor({ state: 'detached' });
    await expect(access(movie('Bravo (2002)'))).rejects.toThrow();
    await access(join(movie('Bravo (2002)'), '..', 'Bravo (2002).mp4'));
    expect(await positions(page)).toEqual({ 'Charlie (2003)': '1', 'Alpha (2001)': '2', 'Bravo (2002)': '–' });
  }, 90_000);
});
