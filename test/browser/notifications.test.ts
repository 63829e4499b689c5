import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '@mo/test-support/service';
import { fakeTarget, type FakeTarget } from '@mo/test-support/fake-target';
import { checkA11y, useStack } from './support/stack.ts';
import { logIn, setUpOwner } from './support/owner.ts';

const stack = useStack();
let ntfy: FakeTarget;
let gotify: FakeTarget;

beforeAll(async () => {
  // Two chat services on loopback: one takes the message, the other refuses the token.
  ntfy = await fakeTarget(() => ({ status: 200, body: '{"id":"x1"}' }));
  gotify = await fakeTarget(() => ({
    status: 401,
    body: '{"error":"Unauthorized","errorDescription":"you need to provide a valid access token or user credentials to access this api"}',
  }));
});
afterAll(async () => {
  await ntfy?.close();
  await gotify?.close();
});

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('notification targets on the Settings page, in a browser at $width px', (viewport) => {
  it('tests each saved target and says what it answered', async () => {
    ntfy.seen.length = 0;
    gotify.seen.length = 0;
    const targets = [
      { name: 'phone', kind: 'ntfy', url: `${ntfy.base}/films`, enabled: true },
      { name: 'desk', kind: 'gotify', url: gotify.base, token: 'WrongAppToken', enabled: true },
    ];
    const res = await fetch(`${stack().baseUrl}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY },
      body: JSON.stringify({ notifications: { targets } }),
    });
    expect(res.status).toBe(200);
    if (viewport.width === 1280) await setUpOwner(stack());
    const page = await stack().newPage();
    await page.setViewportSize(viewport);
    page.setDefaultTimeout(8000);
    await logIn(page, 'Activity');
    // The phone's links sit behind the Menu button.
    if (viewport.width < 720) await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    await page.getByRole('button', { name: 'Test phone' }).click();
    const phone = page.locator('[data-target="0"] [role="status"]');
    await phone.getByText('phone answered: the test message was sent.').waitFor();
    expect(ntfy.seen).toHaveLength(1);
    expect(JSON.parse(ntfy.seen[0]!.body)).toMatchObject({ topic: 'films', title: 'Test from media-organizer' });

    await page.getByRole('button', { name: 'Test desk' }).click();
    const desk = page.locator('[data-target="1"] [role="status"]');
    await desk.getByText(/^Test failed: desk: POST \/message: answered HTTP 401: /).waitFor();
    expect(await desk.textContent()).toContain('you need to provide a valid access token');
    expect(await page.content()).not.toContain('WrongAppToken');
    expect(gotify.seen[0]!.headers['x-gotify-key']).toBe('WrongAppToken');

    // An edited target is not what the API would test: its button waits for a save.
    await page.getByLabel('Target 1 URL').fill(`${ntfy.base}/other`);
    expect(await page.getByRole('button', { name: 'Test phone' }).isDisabled()).toBe(true);
    await checkA11y(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  });
});
