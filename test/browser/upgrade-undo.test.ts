import { readFileSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runUpgradeJob } from '@mo/core/test-fixtures';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack({ toml: '[app]\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n' });

beforeAll(async () => {
  await setUpOwner(stack());
});

describe('an upgrade on the Activity page, in a browser', () => {
  it('shows what an upgrade replaced, and its Undo brings that back from the recycle bin', async () => {
    const { paths } = stack().install;
    const folder = join(paths.drive, 'Movies', 'Ronin (1998)');
    const put = async (path: string, text: string) => {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
      await utimes(path, new Date('2024-01-01'), new Date('2024-01-01'));
      return path;
    };
    const held = { video: await put(join(folder, 'Ronin (1998).mkv'), 'old 480p'), srt: await put(join(folder, 'Ronin (1998).en.srt'), 'old subs') };
    const dl = {
      video: await put(join(paths.downloads, 'Ronin.1998.1080p.mkv'), 'new 1080p'),
      srt: await put(join(paths.downloads, 'Ronin.1998.1080p.en.srt'), 'new subs'),
    };
    // The import driver's upgrade, as a pass carries it out once the planner decides one.
    await runUpgradeJob({ data: paths.data, downloads: paths.downloads, drive: paths.drive, mode: 'move', held, dl, job: 'import' });

    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await logIn(page);
    await page.getByRole('heading', { level: 2, name: 'Imports' }).waitFor();
    const live = await page.evaluate(async () => {
      const r = await fetch('/api/settings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ dry_run: false }) });
      return r.status;
    });
    expect(live).toBe(200);
    const row = page.locator('tr[data-import]', { has: page.locator('[data-replaced]') });
    await row.getByText('now in the recycle bin').waitFor();
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: /^Undo/ }).click();
    await page.getByRole('status').filter({ hasText: 'back from the recycle bin to' }).waitFor();
    await row.and(page.locator('[data-undone="true"]')).waitFor();
    expect([readFileSync(held.video, 'utf8'), readFileSync(held.srt, 'utf8'), readFileSync(dl.video, 'utf8')]).toEqual(['old 480p', 'old subs', 'new 1080p']);
    await checkA11y(page);
  });
});
