import { createRoute, z } from '@hono/zod-openapi';
import { OPEN, other, router } from '../openapi/route.ts';
import { PAGE_POLICY, send, type Asset } from './web.ts';

// Without a built web UI there is no set-up page to show: this says so, and how to make the owner anyway.
const NOT_BUILT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>media-organizer: set up</title>
</head>
<body>
<h1>The web UI is not built</h1>
<p>The set-up page is part of the web UI. Build it (<code>pnpm build</code>, or start the service with <code>scripts/start</code>) and open the link again,
or create the owner account from a script: <code>POST api/auth/setup</code> with <code>{"token", "username", "password"}</code>.</p>
</body>
</html>
`;

const getSetupPage = createRoute({
  method: 'get',
  path: '/setup',
  operationId: 'getSetupPage',
  summary: 'The page the set-up link printed at start opens',
  tags: ['auth'],
  ...OPEN,
  request: {
    query: z.object({ token: z.string().optional().meta({ description: 'The one-time set-up token (read by the page, not the server)' }) }),
  },
  responses: { 200: other('text/html', 'The web UI, which shows its set-up form until the owner exists and the app after; no data.') },
});

/**
 * The set-up link opens the web UI itself: its set-up form while no owner exists, and the app (or its
 * login) once one does, styled like every other page. `index` is the UI's index.html; null when not built.
 */
export function setupPage(index: (() => Promise<Asset>) | null) {
  return router().openapi(getSetupPage, async (c) => {
    // The token is in the address: keep it out of Referer headers and caches (and frames: frameAncestors).
    if (index) return send(c, await index(), 'no-store', { 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'no-referrer' });
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    c.header('Content-Security-Policy', "default-src 'none'; form-action 'none'; base-uri 'none'");
    return c.html(NOT_BUILT, 200);
  });
}
