import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack();
const OWNER = { username: 'owner', password: 'a good passphrase' };

async function openPage(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

describe('open sessions in Settings, in a browser', () => {
  it('lists this browser and another, and ending the other sends it to the login form', async () => {
    const mine = await stack().newPage();
    const token = new URL(await stack().setupUrl()).searchParams.get('token')!;
    await mine.goto(`/?token=${token}`);
    await mine.getByLabel('Username').fill(OWNER.username);
    await mine.getByLabel('Password').fill(OWNER.password);
    await mine.getByRole('button', { name: 'Create owner' }).click();
    await mine.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();

    const other = await stack().newPage();
    await other.goto('/');
    await other.getByLabel('Username').fill(OWNER.username);
    await other.getByLabel('Password').fill(OWNER.password);
    await other.getByRole('button', { name: 'Log in' }).click();
    await other.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();

    await openPage(mine, 'Settings');
    const table = mine.getByRole('table', { name: 'Open sessions' });
    const rows = table.locator('tbody tr');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    const current = table.locator('tr[data-current="true"]');
    expect(await current.getByText('this browser').count()).toBe(1);
    expect(await current.textContent()).toMatch(/Headless Chrome \d+ on Linux/);
    expect(await current.textContent()).toContain('127.0.0.1');
    await checkA11y(mine);

    await table.locator('tr[data-current="false"]').getByRole('button', { name: 'End' }).click();
    await table.locator('tr[data-current="false"]').waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1);
    expect(await mine.evaluate(() => fetch('/api/config').then((r) => r.status))).toBe(200);

    // Only the click: the 401 may bring the login form before the Library heading ever shows.
    await other.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Library', exact: true }).click();
    await other.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await other.evaluate(() => fetch('/api/config').then((r) => r.status))).toBe(401);
  });
});
