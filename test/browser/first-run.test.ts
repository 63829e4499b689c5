import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack();

const status = (page: Page, path: string) => page.evaluate((p) => fetch(p).then((r) => r.status), path);

const WIDTHS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

async function pageAt(size: { width: number; height: number }): Promise<Page> {
  const page = await stack().newPage();
  await page.setViewportSize(size);
  return page;
}

/** The set-up link opens the web UI: its own stylesheet (the app's, from its build), its fonts and colours. */
async function expectAppStyled(page: Page) {
  const styled = await page.evaluate(() => ({
    sheets: [...document.styleSheets].map((s) => s.href ?? '').filter((h) => /\/assets\/[^/]+\.css$/.test(h)).length,
    font: getComputedStyle(document.body).fontFamily,
    main: document.querySelector('main')?.className,
  }));
  expect(styled.sheets).toBeGreaterThan(0);
  expect(styled.main).toContain('auth');
  expect(styled.font).not.toBe('');
}

describe('the first-run set-up page, in a browser', () => {
  it.each(WIDTHS)('is the app’s own page at %s width: a wrong token is refused in words, and no account is made', async (_width, size) => {
    const page = await pageAt(size);
    const link = new URL(await stack().setupUrl());
    link.searchParams.set('token', 'not-the-token');
    await page.goto(link.href);
    await page.getByRole('heading', { level: 1, name: 'Set up media-organizer' }).waitFor();
    await expectAppStyled(page);
    await checkA11y(page);
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill('a good passphrase');
    await page.getByRole('button', { name: 'Create owner' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('the set-up token is not right').waitFor();
    // The code is for scripts: a person reads the sentence alone.
    expect(await alert.textContent()).not.toMatch(/\((bad_request|unauthorized|forbidden|conflict)\)/);
    await checkA11y(page);
    expect(await page.evaluate(() => fetch('api/auth/status').then((r) => r.json()))).toMatchObject({ owner: false, authenticated: false });
  });

  it('creates the owner from the logged link at phone width and lands in the app; the link opened again asks to log in', async () => {
    const page = await pageAt(WIDTHS[1][1]);
    const link = await stack().setupUrl();
    await page.goto(link);
    expect(await page.getByLabel('Set-up token').inputValue()).toBe(new URL(link).searchParams.get('token'));
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill('a good passphrase');
    await page.getByRole('button', { name: 'Create owner' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    // In the app, at its first page; the one-time token has left the address bar (and so the history).
    expect(new URL(page.url()).pathname).toBe('/activity');
    expect(new URL(page.url()).search).toBe('');
    await checkA11y(page);

    const cookies = await page.context().cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'mo_session', httpOnly: true, sameSite: 'Strict' })]);
    expect(await status(page, '/api/config')).toBe(200);

    // The same link, in this browser: the app.
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();

    // Elsewhere, at desktop width: the account exists, so the page asks to log in rather than set up.
    const again = await pageAt(WIDTHS[0][1]);
    await again.goto(link);
    await again.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await again.getByText('The owner account exists already: log in with it.').waitFor();
    expect(await again.getByRole('button', { name: 'Create owner' }).count()).toBe(0);
    expect(await status(again, '/api/config')).toBe(401);
    await checkA11y(again);
  });
});
