import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserStack } from './stack.ts';

export const OWNER = { username: 'owner', password: 'a good passphrase' };

/** Makes the owner through the one-time set-up link the stack's API printed, as a first visit does. */
export async function setUpOwner(stack: BrowserStack): Promise<void> {
  const token = new URL(await stack.setupUrl()).searchParams.get('token');
  const res = await fetch(`${stack.baseUrl}/api/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, ...OWNER }),
  });
  expect(res.status).toBe(201);
}

/** Logs the owner in through the form; `landing`: the page heading to wait for, if any. */
export async function logIn(page: Page, landing?: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(OWNER.username);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  if (landing) await page.getByRole('heading', { level: 1, name: landing }).waitFor();
}
