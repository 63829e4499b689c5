import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack({ toml: '[app]\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });

beforeAll(async () => {
  await setUpOwner(stack());
});

describe('the Activity page, in a browser', () => {
  it('shows a dry-run pass run while it is open: the job, the plan with its destination, and the skip reason', async () => {
    const { paths } = stack().install;
    await writeFile(join(paths.downloads, 'Alien.1979.1080p.BluRay.x264-GRP.mkv'), Buffer.alloc(4096));
    await writeFile(join(paths.downloads, 'holiday at the lake.mkv'), Buffer.alloc(4096));
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await logIn(page);
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await page.getByText('No scanner pass has run yet.').waitFor();
    // The daily recycle bin purge runs once when a new install's worker first schedules it; no scan has.
    await page.getByText('Recent jobs', { exact: true }).or(page.getByText('No jobs yet.')).first().waitFor();
    expect(await page.locator('tr[data-queue="scan"]').count()).toBe(0);

    // Started elsewhere (a script, the schedule): the page learns of it from the live events alone.
    const scan = await page.evaluate(() => fetch('/api/scan?wait=30', { method: 'POST' }).then((r) => r.status));
    expect(scan).toBe(200);
    const job = page.locator('tr[data-queue="scan"][data-state="completed"]');
    await job.waitFor();
    expect(await job.textContent()).toContain('1 planned, 0 moved, 0 failed, 1 skipped');

    const pass = page.locator('li[data-pass]');
    await pass.getByText('Dry run', { exact: true }).waitFor();
    await pass.locator('summary').click();
    await pass.getByRole('cell', { name: join(paths.drive, 'Movies', 'Alien (1979)', 'Alien (1979).mkv'), exact: true }).waitFor();
    const skipped = pass.locator('tr[data-reason="unrecognized"]');
    expect(await skipped.getByRole('cell').first().textContent()).toBe(join(paths.downloads, 'holiday at the lake.mkv'));
    expect(await skipped.locator('[data-status]').textContent()).toBe('unrecognized');
    await checkA11y(page);
  });
});

describe('the Activity page’s imports, in a browser', () => {
  it('lists an import the scanner made live, and its Undo puts the download back', async () => {
    const { paths } = stack().install;
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await logIn(page);
    await page.getByRole('heading', { level: 2, name: 'Imports' }).waitFor();
    await page.getByText('Nothing has been imported into the library yet.').waitFor();

    const source = join(paths.downloads, 'Heat.1995.1080p.BluRay.x264-GRP.mkv');
    await writeFile(source, Buffer.alloc(4096, 7));
    const live = await page.evaluate(async () => {
      const settings = await fetch('/api/settings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dry_run: false }),
      });
      const scan = await fetch('/api/scan?wait=30', { method: 'POST' });
      return [settings.status, scan.status];
    });
    expect(live).toEqual([200, 200]);
    const destination = join(paths.drive, 'Movies', 'Heat (1995)', 'Heat (1995).mkv');
    const row = page.locator('tr[data-import]', { has: page.getByRole('cell', { name: destination, exact: true }) });
    await row.and(page.locator('[data-undone="false"]')).waitFor();
    expect(existsSync(source)).toBe(false);

    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: /^Undo/ }).click();
    await row.and(page.locator('[data-undone="true"]')).waitFor();
    await page.getByRole('status').filter({ hasText: 'undone' }).waitFor();
    expect(existsSync(source)).toBe(true);
    expect(existsSync(destination)).toBe(false);
    await checkA11y(page);
  });
});
