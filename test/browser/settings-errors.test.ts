import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, setUpOwner } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

// Settings refused: every field at once, each in a sentence beside it and in the alert, never the
// validator's text or the error code; a save that goes through leaves no stale error behind.
const stack = useStack({ toml: '[app]\nscan_interval_seconds = 0\nwatch = false\n' });

beforeAll(async () => {
  await setUpOwner(stack());
});

const SCAN = 'Scan interval (seconds, 0 = off)';
const SETTLE = 'Settle time (seconds)';
const DOWNLOADS = 'Downloads folder';

const JARGON = /Too small|Too big|Invalid input|expected|received|>=|\((bad_request|unauthorized|forbidden)\)/;

async function openSettings(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await logIn(page, 'Activity');
  await page.goto('/settings');
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  await page.getByLabel(SCAN, { exact: true }).waitFor();
}

/** The sentence shown beside a field, read through the field's own aria-describedby, as a screen reader does. */
async function fieldError(page: Page, label: string): Promise<string | null> {
  const input = page.getByLabel(label, { exact: true });
  if ((await input.getAttribute('aria-invalid')) !== 'true') return null;
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.length === 1 ? page.locator(`[id="${ids[0]}"]`).textContent() : null;
}

async function refuseThree(page: Page) {
  await page.getByLabel(SCAN, { exact: true }).fill('-1');
  await page.getByLabel(SETTLE, { exact: true }).fill('soon');
  await page.getByLabel(DOWNLOADS, { exact: true }).fill('downloads');
  await page.getByRole('button', { name: 'Save settings' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Not saved' });
  await alert.waitFor();
  expect(await alert.getByRole('listitem').allTextContents()).toEqual([
    'Scan interval must be a whole number of seconds, 0 or more.',
    'Settle time must be a whole number of seconds, from 0 to 31,536,000.',
    'Downloads folder must be an absolute path.',
  ]);
  expect(await alert.textContent()).not.toMatch(JARGON);
  expect(await fieldError(page, SCAN)).toBe('Scan interval must be a whole number of seconds, 0 or more.');
  expect(await fieldError(page, SETTLE)).toBe('Settle time must be a whole number of seconds, from 0 to 31,536,000.');
  expect(await fieldError(page, DOWNLOADS)).toBe('Downloads folder must be an absolute path.');
  expect(await page.locator('main').textContent()).not.toMatch(JARGON);
  await checkA11y(page);
}

async function expectNoError(page: Page) {
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
}

describe('Settings errors, in a browser', () => {
  it('at desktop width: every refused field in a sentence; putting the values back and saving clears them', async () => {
    const page = await stack().newPage();
    await openSettings(page, { width: 1280, height: 800 });
    const downloads = await page.getByLabel(DOWNLOADS, { exact: true }).inputValue();
    await refuseThree(page);
    // Nothing left to send: saved as it stands, and the refusal no longer shows.
    await page.getByLabel(SCAN, { exact: true }).fill('0');
    await page.getByLabel(SETTLE, { exact: true }).fill('120');
    await page.getByLabel(DOWNLOADS, { exact: true }).fill(downloads);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expectNoError(page);
    await checkA11y(page);
  });

  it('at phone width: the same sentences, and a save that changes a setting clears them', async () => {
    const page = await stack().newPage();
    await openSettings(page, { width: 390, height: 844 });
    const downloads = await page.getByLabel(DOWNLOADS, { exact: true }).inputValue();
    await refuseThree(page);
    await page.getByLabel(SCAN, { exact: true }).fill('600');
    await page.getByLabel(SETTLE, { exact: true }).fill('30');
    await page.getByLabel(DOWNLOADS, { exact: true }).fill(downloads);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expectNoError(page);
    expect(await page.evaluate(() => fetch('api/config').then((r) => r.json()))).toMatchObject({ app: { scan_interval_seconds: 600, settle_seconds: 30 } });
    await checkA11y(page);
  });
});
