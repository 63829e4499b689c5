import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack({ toml: '[app]\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });
const OWNER = { username: 'owner', password: 'a good passphrase' };

beforeAll(async () => {
  const token = new URL(await stack().setupUrl()).searchParams.get('token');
  const res = await fetch(`${stack().baseUrl}/api/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, ...OWNER }),
  });
  expect(res.status).toBe(201);
});

describe('the Activity page, in a browser', () => {
  it('shows a dry-run pass run while it is open: the job, the plan with its destination, and the skip reason', async () => {
    const { paths } = stack().install;
    await writeFile(join(paths.downloads, 'Alien.1979.1080p.BluRay.x264-GRP.mkv'), Buffer.alloc(4096));
    await writeFile(join(paths.downloads, 'holiday at the lake.mkv'), Buffer.alloc(4096));
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await page.goto('/');
    await page.getByLabel('Username').fill(OWNER.username);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await page.getByText('No scanner pass has run yet.').waitFor();
    await page.getByText('No jobs yet.').waitFor();

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
