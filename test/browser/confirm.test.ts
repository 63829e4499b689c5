import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { withTestKey } from '@mo/test-support/service';
import { logIn, setUpOwner } from './support/owner.ts';
import { a11yViolations, formatViolations, useStack } from './support/stack.ts';

// Dry run off from the start; the worker takes no transcodes, so that what Run all queues waits
// where Cancel all can reach it.
const stack = useStack({
  toml: '[app]\ndry_run = false\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n\n[transcoder]\nkeep_original = false\n',
  workerEnv: { WORKER_QUEUES: 'scan,library,media' },
});

const TITLES = ['Alpha (2001)', 'Bravo (2002)', 'Charlie (2003)'];

beforeAll(async () => {
  await setUpOwner(stack());
  for (const title of TITLES) {
    const file = join(stack().install.paths.drive, 'Movies', title, `${title}.mkv`);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, Buffer.alloc(4096));
  }
  const scanned = await fetch(`${stack().baseUrl}/api/library/scan?wait=60`, withTestKey({ method: 'POST' }));
  expect(scanned.status).toBe(200);
});

async function api<T>(path: string): Promise<T> {
  return (await (await fetch(`${stack().baseUrl}${path}`, withTestKey())).json()) as T;
}

/** The transcode entries that hold a job (queued by Run all, not yet started). */
async function withJob(): Promise<number> {
  const answer = await api<{ queue: { job_id: string | null }[] }>('/api/tools/transcoder');
  return answer.queue.filter((e) => e.job_id !== null).length;
}

async function open(page: Page, name: string) {
  const nav = page.getByRole('navigation', { name: 'Pages' });
  // At phone width the links fold behind Menu.
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await nav.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

async function expectAccessible(page: Page) {
  const violations = await a11yViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

/** The dialog fits the screen's width, whatever the page behind it does (its tables are another issue's). */
async function expectDialogFits(page: Page) {
  const fits = await page.evaluate(() => {
    const box = document.querySelector('dialog[open]')!.getBoundingClientRect();
    const d = document.querySelector('dialog[open]')!;
    return box.left >= 0 && box.right <= window.innerWidth && d.scrollWidth <= d.clientWidth;
  });
  expect(fits).toBe(true);
}

describe.each([
  { width: 1280, height: 800, movie: 'Heat.1995.1080p', title: 'Heat (1995)' },
  { width: 390, height: 844, movie: 'Alien.1979.1080p', title: 'Alien (1979)' },
])('asking before changing many files, at $width×$height', ({ width, height, movie, title }) => {
  it('Run all asks with the count and the originals’ fate; Cancel and Escape queue nothing; Cancel all empties the run queue', async () => {
    const page = await stack().newPage();
    await page.setViewportSize({ width, height });
    page.setDefaultTimeout(15_000);
    await logIn(page, 'Activity');
    await open(page, 'Transcodes');
    await page.getByText('Live: changes files').waitFor();
    await page
      .locator('tbody tr')
      .nth(TITLES.length - 1)
      .waitFor();

    const runAll = page.getByRole('button', { name: 'Run all' });
    await runAll.click();
    const ask = page.getByRole('dialog', { name: 'Transcode 3 files to MP4?' });
    await ask.waitFor();
    expect(await ask.textContent()).toContain('The 3 original MKV files will go to the recycle bin after each transcode succeeds');
    // Focus starts on Cancel: Enter alone changes nothing.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expectAccessible(page);
    await expectDialogFits(page);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await withJob()).toBe(0);

    await runAll.click();
    await ask.waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    expect(await withJob()).toBe(0);

    await runAll.click();
    await ask.getByRole('button', { name: 'Transcode 3 files' }).click();
    await page.getByRole('status').getByText('Queued 3 transcodes.').waitFor();
    await expect.poll(withJob).toBe(3);

    await page.getByRole('button', { name: 'Cancel all' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel 3 waiting transcodes?' });
    await cancel.waitFor();
    expect(await cancel.textContent()).toContain('no file is touched');
    await expectAccessible(page);
    await cancel.getByRole('button', { name: 'Cancel 3 transcodes' }).click();
    await page.getByRole('status').getByText('Cancelled 3 waiting transcodes.').waitFor();
    expect(await withJob()).toBe(0);
  }, 60_000);

  it('Scan downloads with dry run off shows the plan first; Import these moves exactly the previewed files', async () => {
    const { downloads, drive } = stack().install.paths;
    const source = join(downloads, movie, `${movie}.mkv`);
    const late = join(downloads, 'Late.Arrival.2011.mkv');
    const destination = join(drive, 'Movies', title, `${title}.mkv`);
    await mkdir(join(source, '..'), { recursive: true });
    await writeFile(source, Buffer.alloc(4096));

    const page = await stack().newPage();
    await page.setViewportSize({ width, height });
    page.setDefaultTimeout(15_000);
    await logIn(page, 'Activity');
    await open(page, 'Downloads');
    await page.getByText('Live: changes files').waitFor();
    await page.getByRole('button', { name: 'Scan downloads' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing moved yet' }).waitFor();
    // A phone shows the part below the drive; the whole path is the element's data-full-path at any width.
    await page.locator(`td [data-full-path="${destination}"]`).waitFor();
    expect(existsSync(source)).toBe(true);
    expect(existsSync(destination)).toBe(false);
    await expectAccessible(page);

    // Arrives after the preview: not among the files the owner saw, so not imported.
    await writeFile(late, Buffer.alloc(4096));
    await page.getByRole('button', { name: 'Import these (1)' }).click();
    const ask = page.getByRole('dialog', { name: 'Move 1 file into the library?' });
    await ask.waitFor();
    expect(await ask.textContent()).toContain('It leaves the downloads folder for the library.');
    await expectAccessible(page);
    await expectDialogFits(page);
    await ask.getByRole('button', { name: 'Move 1 file' }).click();
    await page.getByRole('heading', { name: 'Pass result' }).waitFor();
    await page.locator('.pass-result [data-status="moved"]').waitFor();
    expect(existsSync(destination)).toBe(true);
    expect(existsSync(source)).toBe(false);
    expect(existsSync(late)).toBe(true);
    expect(existsSync(join(drive, 'Movies', 'Late Arrival (2011)'))).toBe(false);
    await rm(late);
  }, 60_000);
});

describe('a question that no longer holds', () => {
  it('Run all queues nothing when the line changed while the question was open, and says so', async () => {
    const page = await stack().newPage();
    page.setDefaultTimeout(15_000);
    await logIn(page, 'Activity');
    await open(page, 'Transcodes');
    await page
      .locator('tbody tr')
      .nth(TITLES.length - 1)
      .waitFor();
    await page.getByRole('button', { name: 'Run all' }).click();
    const ask = page.getByRole('dialog', { name: 'Transcode 3 files to MP4?' });
    await ask.waitFor();

    const file = join(stack().install.paths.drive, 'Movies', 'Delta (2004)', 'Delta (2004).mkv');
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, Buffer.alloc(4096));
    expect((await fetch(`${stack().baseUrl}/api/library/scan?wait=60`, withTestKey({ method: 'POST' }))).status).toBe(200);

    // The movies the downloads tests imported are indexed now too.
    const listed = await api<{ queue: { status: string; job_id: string | null }[] }>('/api/tools/transcoder');
    const waiting = listed.queue.filter((e) => e.status === 'queued' && e.job_id === null).length;
    expect(waiting).toBeGreaterThan(3);
    await ask.getByRole('button', { name: 'Transcode 3 files' }).click();
    await page
      .getByRole('alert')
      .getByText(`The line changed: ${waiting} files wait to be queued now, not the 3 asked about. Nothing was queued; ask again.`)
      .waitFor();
    expect(await withJob()).toBe(0);
  }, 60_000);
});
