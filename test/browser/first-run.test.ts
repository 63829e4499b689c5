import { describe, expect, it } from 'vitest';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack();

const status = (page: import('playwright-core').Page, path: string) => page.evaluate((p) => fetch(p).then((r) => r.status), path);

describe('the first-run set-up page, in a browser', () => {
  it('refuses a wrong token, says why on the page, and creates no account', async () => {
    const page = await stack().newPage();
    const link = new URL(await stack().setupUrl());
    link.searchParams.set('token', 'not-the-token');
    await page.goto(link.href);
    await page.getByLabel('User name').fill('owner');
    await page.getByLabel('Password').fill('a good passphrase');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByRole('alert').getByText('the set-up token is not right').waitFor();
    expect(await page.evaluate(() => fetch('/api/auth/status').then((r) => r.json()))).toMatchObject({ owner: false, authenticated: false });
  });

  it('creates the owner from the logged link, and the session lets the browser use the API', async () => {
    const page = await stack().newPage();
    const link = await stack().setupUrl();
    await page.goto(link);
    await checkA11y(page);
    await page.getByLabel('User name').fill('owner');
    await page.getByLabel('Password').fill('a good passphrase');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByText('Done: you are logged in as the owner.').waitFor();
    // The one-time token leaves the address bar (and so the history) once used.
    expect(new URL(page.url()).search).toBe('');

    const cookies = await page.context().cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'mo_session', httpOnly: true, sameSite: 'Strict' })]);
    expect(await status(page, '/api/config')).toBe(200);
    const stranger = await stack().newPage();
    await stranger.goto(`${stack().baseUrl}/setup`);
    expect(await status(stranger, '/api/config')).toBe(401);

    // The link works once: opened again, it says the account exists.
    const again = await stack().newPage();
    await again.goto(link);
    await again.getByLabel('User name').fill('thief');
    await again.getByLabel('Password').fill('another passphrase');
    await again.getByRole('button', { name: 'Create the account' }).click();
    await again.getByRole('alert').getByText('the owner account exists already').waitFor();
  });
});
