import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack({ toml: '[app]\ndry_run = false\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });

beforeAll(async () => {
  await setUpOwner(stack());
});

describe('Import as… on the Downloads page, in a browser', () => {
  it('opens on a skipped row, marks a refused field, previews the destination, imports, and remembers the alias shown in Settings', async () => {
    const { paths } = stack().install;
    for (const f of ['Doctor Who (1963)', 'Doctor Who (2005)']) await mkdir(join(paths.drive, 'TV', f), { recursive: true });
    const source = join(paths.downloads, 'Doctor.Who.S01E01.720p.mkv');
    await writeFile(source, Buffer.alloc(4096, 3));
    await writeFile(join(paths.downloads, 'Doctor.Who.S01E01.720p.en.srt'), 'subtitle');
    const page = await stack().newPage();
    page.setDefaultTimeout(10_000);
    await logIn(page);
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    expect(await page.evaluate(() => fetch('/api/scan?wait=30', { method: 'POST' }).then((r) => r.status))).toBe(200);
    await page.getByRole('link', { name: 'Downloads' }).click();

    const row = page.locator('tr[data-pending]');
    await row.getByText('ambiguous').waitFor();
    await row.getByRole('button', { name: /^Import as…/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Import as…' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Kind').inputValue()).toBe('episode');
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Doctor Who');
    const reading = dialog.getByLabel('Reading');
    const later = await reading.locator('option', { hasText: 'Doctor Who (2005)' }).getAttribute('value');
    await reading.selectOption(later!);
    expect(await dialog.getByLabel('Year').inputValue()).toBe('2005');
    await dialog.getByLabel('Season').fill('-1');
    await dialog.getByLabel('Episodes').fill('1');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByLabel('Season').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByRole('alert').textContent()).not.toMatch(/bad_request|expected/);

    await dialog.getByLabel('Season').fill('1');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const season = join(paths.drive, 'TV', 'Doctor Who (2005)', 'Season 01');
    const destination = dialog.getByTestId('destination');
    await destination.waitFor();
    expect((await destination.textContent())!.startsWith(`${season}/`)).toBe(true);
    expect(existsSync(source)).toBe(true);
    await checkA11y(page);

    await dialog.getByLabel('Remember').check();
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText(/^Imported to /).waitFor();
    await dialog.getByText('From now on “Doctor Who” goes to Doctor Who (2005).').waitFor();
    expect(existsSync(source)).toBe(false);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await row.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Settings' }).click();
    const aliases = page.locator('section[aria-labelledby="aliases-h"]');
    await aliases.getByText('“Doctor Who” → Doctor Who (2005)').waitFor();
    await aliases.getByRole('button', { name: /^Remove/ }).click();
    await aliases.getByText('No aliases yet.').waitFor();
  });
});
