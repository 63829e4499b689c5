import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort } from '@mo/test-support/redis';
import { logIn, OWNER, setUpOwner } from './support/owner.ts';
import { useStack } from './support/stack.ts';

const stack = useStack();

// A dashboard of another origin (Organizr, Homarr) embedding the service's page.
let dashboard: Server;
let dashboardOrigin: string;
/** The same server by the service's own address: another origin, but the same site (ports do not make sites). */
let sameSiteOrigin: string;
beforeAll(async () => {
  const port = await freePort();
  dashboardOrigin = `http://localhost:${port}`;
  sameSiteOrigin = `http://127.0.0.1:${port}`;
  dashboard = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>Dashboard</title><iframe title="media-organizer" src="${stack().baseUrl}/" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => dashboard.listen(port, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => dashboard?.close(resolve));
});

/** The framed page once the dashboard has loaded: the service's own, or the browser's error page for a refused frame. */
async function framedUrl(page: Page, origin = dashboardOrigin): Promise<string> {
  await page.goto(origin, { waitUntil: 'load' });
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  // A refused frame's error page may commit after the dashboard's load event.
  await expect.poll(() => frame.url(), { timeout: 10_000 }).toMatch(/^(?:chrome-error|http):/);
  return frame.url();
}

async function saveEmbedding(page: Page, value: string) {
  await page.getByLabel('Sites that may show these pages in a frame').fill(value);
  await page.getByRole('button', { name: 'Save settings' }).click();
}

describe('embedding the page in a dashboard, in a browser', () => {
  it('is refused until the owner lists the dashboard in Settings, then shows the page; a bad entry is marked on the field', async () => {
    await setUpOwner(stack());
    const dash = await stack().newPage();
    expect(await framedUrl(dash)).toMatch(/^chrome-error:/);

    const owner = await stack().newPage();
    await logIn(owner, 'Activity');
    await owner.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await saveEmbedding(owner, `${dashboardOrigin}/organizr`);
    const field = owner.getByLabel('Sites that may show these pages in a frame');
    await owner.locator('[data-path="app.frame_ancestors"] [aria-invalid="true"]').waitFor();
    const message = await owner.locator(`[id="${(await field.getAttribute('aria-describedby'))!.split(' ')[0]}"]`).textContent();
    expect(message).toMatch(/^Sites that may show these pages in a frame, entry 1, must be an origin/);

    await saveEmbedding(owner, dashboardOrigin);
    await owner.getByRole('status').getByText('Saved.').waitFor();
    expect(await framedUrl(dash)).toBe(`${stack().baseUrl}/`);
    // Another site than the service's: the page shows, and the login it offers cannot hold in the frame.
    await dash.frameLocator('iframe').getByLabel('Password').waitFor();

    // A dashboard on the same site: the session cookie (SameSite=Strict) holds inside the frame.
    await saveEmbedding(owner, `${dashboardOrigin}, ${sameSiteOrigin}`);
    await owner.getByRole('status').getByText('Saved.').waitFor();
    expect(await framedUrl(dash, sameSiteOrigin)).toBe(`${stack().baseUrl}/`);
    const frame = dash.frameLocator('iframe');
    await frame.getByLabel('Username').fill(OWNER.username);
    await frame.getByLabel('Password').fill(OWNER.password);
    await frame.getByRole('button', { name: 'Log in' }).click();
    await frame.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();

    await saveEmbedding(owner, '');
    await owner.getByRole('status').getByText('Saved.').waitFor();
    expect(await framedUrl(dash)).toMatch(/^chrome-error:/);
  });
});
