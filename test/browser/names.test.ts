import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { withTestKey } from '@mo/test-support/service';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

// Issue 29: pages read from the index tell the truth before the first scan, and jobs and files are
// named, not numbered. Live, so that a track edit and a transcode really run; originals are kept.
const stack = useStack({
  toml: '[app]\ndry_run = false\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n\n[transcoder]\nkeep_original = true\n',
});

const WIDTHS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const TITLE = 'Akira (1988)';
const movie = () => join(stack().install.paths.drive, 'Movies', TITLE, `${TITLE}.mkv`);

/** Pages whose answer comes from the library index, and the all-clear each must not give unscanned. */
const INDEX_PAGES = [
  ['/library', 'Library', null],
  ['/wanted', 'Wanted', 'No missing or upcoming episodes.'],
  ['/subtitles', 'Subtitles', 'Every video has subtitles.'],
  ['/transcodes', 'Transcodes', 'Every video is already MP4.'],
  ['/duplicates', 'Duplicates', 'No duplicates.'],
] as const;

beforeAll(async () => {
  await setUpOwner(stack());
  await mkdir(join(movie(), '..'), { recursive: true });
  // A Matroska file with an English and a Japanese audio track.
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-f', 'lavfi', '-i', 'sine=frequency=880'],
    ...['-map', '0', '-map', '1', '-map', '2', '-t', '2', '-c:v', 'mpeg4', '-c:a', 'aac'],
    ...['-metadata:s:a:0', 'language=eng', '-metadata:s:a:1', 'language=jpn', '-y', movie()],
  ]);
});

async function pageAt(size: { width: number; height: number }): Promise<Page> {
  const page = await stack().newPage();
  page.setDefaultTimeout(15_000);
  await page.setViewportSize(size);
  await logIn(page, 'Activity');
  return page;
}

async function visit(page: Page, path: string, h1: string) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: h1, exact: true }).waitFor();
}

describe('before the first library scan, in a browser', () => {
  it.each(WIDTHS)(
    'each page read from the index says it is not scanned yet and offers Scan library, at %s width',
    async (_w, size) => {
      const page = await pageAt(size);
      for (const [path, h1, allClear] of INDEX_PAGES) {
        await visit(page, path, h1);
        await page.getByText('The library is not scanned yet.').waitFor();
        await page.getByRole('button', { name: 'Scan library' }).waitFor();
        const text = (await page.locator('main').textContent()) ?? '';
        if (allClear) expect(text, path).not.toContain(allClear);
        expect(text, path).not.toMatch(/Index of|never/);
        await checkA11y(page);
      }
    },
    60_000,
  );

  it('Scan library on a page starts the scan, and the page then shows its real answer', async () => {
    const page = await pageAt(WIDTHS[0][1]);
    await visit(page, '/duplicates', 'Duplicates');
    await page.getByRole('button', { name: 'Scan library' }).click();
    await page.getByText('No duplicates.').waitFor({ timeout: 30_000 });
    expect(await page.getByText('The library is not scanned yet.').count()).toBe(0);
    await page.getByText(/^Library scanned /).waitFor();

    await visit(page, '/subtitles', 'Subtitles');
    await page.getByRole('link', { name: movie(), exact: true }).waitFor();
    await visit(page, '/transcodes', 'Transcodes');
    await page.getByRole('cell', { name: movie(), exact: true }).waitFor();
    await visit(page, '/library', 'Library');
    await page.getByRole('listitem').getByText(TITLE).waitFor();
    expect(await page.getByText('The library is not scanned yet.').count()).toBe(0);
    await checkA11y(page);
  }, 60_000);
});

describe('a file and its jobs, named, in a browser', () => {
  it.each(WIDTHS)(
    'the file page names the container and languages and leads back to its movie, at %s width',
    async (_w, size) => {
      const page = await pageAt(size);
      await visit(page, '/library', 'Library');
      await page.getByRole('listitem').getByText(TITLE).click();
      await page.getByRole('link', { name: `${TITLE}.mkv` }).click();
      await page.getByRole('heading', { level: 1, name: `${TITLE}.mkv` }).waitFor();
      expect(await page.getByTestId('container').textContent()).toBe('Matroska');
      const languages = await page.locator('tr[data-stream] td:nth-child(4)').allTextContents();
      expect(languages).toEqual(['–', 'English (eng)', 'Japanese (jpn)']);
      expect(await page.locator('tr[data-stream="0"] td:nth-child(3)').textContent()).toMatch(/^MPEG-4 Part 2 /);
      await checkA11y(page);

      await page.getByRole('link', { name: TITLE, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: TITLE, exact: true }).waitFor();
      await page.getByRole('link', { name: `${TITLE}.mkv` }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/library/folder');
      await checkA11y(page);
    },
    60_000,
  );

  it('Activity names a library scan, a downloads scan, a track edit and a transcode by what they work on, never by the id alone', async () => {
    const page = await pageAt(WIDTHS[0][1]);
    const scan = await fetch(`${stack().baseUrl}/api/scan?wait=30`, withTestKey({ method: 'POST' }));
    expect(scan.status).toBe(200);

    // A real remux: the Japanese track becomes the default.
    await visit(page, `/library/file?path=${encodeURIComponent(movie())}`, `${TITLE}.mkv`);
    await page.getByRole('button', { name: 'Set default stream 2' }).click();
    await page.getByRole('heading', { name: 'Done: the command that ran' }).waitFor({ timeout: 30_000 });

    await visit(page, '/transcodes', 'Transcodes');
    await page.getByRole('button', { name: 'Run next' }).click();
    await page.locator('tr[data-status="done"]').waitFor({ timeout: 60_000 });

    await visit(page, '/activity', 'Activity');
    const title = (queue: string) => page.locator(`tr[data-queue="${queue}"] .job-title`).first();
    const named = async (queue: string, text: string) => {
      await page.locator(`tr[data-queue="${queue}"] .job-title`, { hasText: text }).first().waitFor();
      expect(await title(queue).textContent()).toBe(text);
    };
    await named('library', 'Library scan');
    await named('scan', 'Downloads scan');
    await named('media', `Make audio stream 2 (Japanese) the default of ${TITLE}.mkv`);
    await named('transcode', `Transcode ${TITLE}.mkv to MP4`);
    const rows = await page
      .locator('tr[data-job]')
      .evaluateAll((trs) => trs.map((tr) => ({ id: tr.getAttribute('data-job')!, title: tr.querySelector('.job-title')?.textContent ?? '' })));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) {
      expect(r.title).not.toBe(r.id);
      expect(r.title).toMatch(/[A-Za-z]{4}/);
    }
    await checkA11y(page);
    await page.setViewportSize(WIDTHS[1][1]);
    await checkA11y(page);
  }, 120_000);
});
