import { createRoute, z } from '@hono/zod-openapi';
import { OPEN, other, router } from '../openapi/route.ts';

// The page the set-up link printed at start opens: until the web UI serves its own, it is the one
// place a browser can create the owner account. It carries no data and posts to /api/auth/setup
// with a path relative to itself, so it works under URL_BASE too.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>media-organizer: set up the owner account</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E%3Crect width=%2216%22 height=%2216%22 rx=%223%22 fill=%22%232563eb%22/%3E%3C/svg%3E">
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; }
label { display: block; margin-top: 1rem; }
input { width: 100%; box-sizing: border-box; padding: .4rem; font: inherit; }
button { margin-top: 1.5rem; padding: .5rem 1rem; font: inherit; }
[role=alert] { color: #a00; }
</style>
</head>
<body>
<h1>Set up the owner account</h1>
<p>This account manages media-organizer from the browser. The link you opened works once.</p>
<form id="setup">
<label>User name <input name="username" autocomplete="username" required maxlength="64"></label>
<label>Password (at least 10 characters) <input name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="1024"></label>
<button type="submit">Create the account</button>
<p id="message" role="alert"></p>
</form>
<script>
const form = document.getElementById('setup');
const message = document.getElementById('message');
const token = new URLSearchParams(location.search).get('token') || '';
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  message.textContent = '';
  const data = new FormData(form);
  const res = await fetch('api/auth/setup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, username: data.get('username'), password: data.get('password') }),
  });
  if (res.ok) {
    history.replaceState(null, '', location.pathname);
    form.outerHTML = '<p>Done: you are logged in as the owner.</p>';
    return;
  }
  const body = await res.json().catch(() => null);
  message.textContent = (body && body.error && body.error.message) || 'The account could not be created (' + res.status + ').';
});
</script>
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
  responses: { 200: other('text/html', 'A form that posts to /api/auth/setup; no data.') },
});

export function setupPage() {
  return router().openapi(getSetupPage, (c) => {
    // The token is in the address: keep it out of Referer headers and caches (and frames: frameAncestors).
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; img-src data:; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'",
    );
    return c.html(PAGE, 200);
  });
}
