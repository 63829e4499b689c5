import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createRoute, z } from '@hono/zod-openapi';
import { sessionId, type AuthService, type FailureLimiter, type Session } from '@mo/core';
import {
  authApiKeyBody,
  authApiKeyResponse,
  authLoginBody,
  authLogoutResponse,
  authPasswordBody,
  authSessionEndResponse,
  authSessionResponse,
  authSessionsResponse,
  authSetupBody,
  authStatusResponse,
} from '@mo/shared';
import type { AppDeps } from '../http/env.ts';
import { isLocalRequest, limitedCheck, overHttps, SESSION_COOKIE, sessionClient } from '../http/auth.ts';
import { AUTH_FAILURES, body, errors, json, OPEN, router, segment } from '../openapi/route.ts';

const status = createRoute({
  method: 'get',
  path: '/auth/status',
  operationId: 'getAuthStatus',
  summary: 'Is there an owner, and who is asking',
  tags: ['auth'],
  ...OPEN,
  responses: { 200: json(authStatusResponse) },
});

const setup = createRoute({
  method: 'post',
  path: '/auth/setup',
  operationId: 'postAuthSetup',
  summary: 'Create the owner account once, with the set-up token printed at start',
  tags: ['auth'],
  ...OPEN,
  description: 'Answers with the session cookie mo_session (HttpOnly, SameSite=Strict).',
  request: { body: body(authSetupBody) },
  responses: {
    201: json(authSessionResponse, 'Created'),
    ...errors({
      400: 'user name (1 to 64 characters) or password (10 to 1024) refused',
      401: 'the set-up token is not right',
      409: 'an owner exists already',
      ...AUTH_FAILURES,
    }),
  },
});

const login = createRoute({
  method: 'post',
  path: '/auth/login',
  operationId: 'postAuthLogin',
  summary: 'Log in as the owner: sets the session cookie',
  tags: ['auth'],
  ...OPEN,
  request: { body: body(authLoginBody) },
  responses: {
    200: json(authSessionResponse),
    ...errors({ 400: 'the body is not a user name and password', 401: 'the user name or password is not right', ...AUTH_FAILURES }),
  },
});

const logout = createRoute({
  method: 'post',
  path: '/auth/logout',
  operationId: 'postAuthLogout',
  summary: 'End this session',
  tags: ['auth'],
  ...OPEN,
  responses: { 200: json(authLogoutResponse) },
});

const password = createRoute({
  method: 'post',
  path: '/auth/password',
  operationId: 'postAuthPassword',
  summary: 'Change the owner password; every session ends, this client gets a new one',
  tags: ['auth'],
  ...OPEN,
  request: { body: body(authPasswordBody) },
  responses: {
    200: json(authSessionResponse),
    ...errors({
      400: 'the new password is refused (10 to 1024 characters)',
      401: 'the current password is not right',
      409: 'no owner account exists yet',
      ...AUTH_FAILURES,
    }),
  },
});

const apiKey = createRoute({
  method: 'post',
  path: '/auth/api-key',
  operationId: 'postAuthApiKey',
  summary: 'Show the API key, or replace the generated one (regenerate: true)',
  tags: ['auth'],
  ...OPEN,
  description: 'Needs the owner password. A key set in the config file (app.api_key) wins and cannot be regenerated here.',
  request: { body: body(authApiKeyBody) },
  responses: {
    200: json(authApiKeyResponse),
    ...errors({
      400: 'the body is not a password (and regenerate)',
      401: 'the password is not right',
      409: 'no owner account exists yet, or app.api_key is set in the config file',
      ...AUTH_FAILURES,
    }),
  },
});

const listSessions = createRoute({
  method: 'get',
  path: '/auth/sessions',
  operationId: 'getAuthSessions',
  summary: 'The open sessions, the most recently used first',
  tags: ['auth'],
  responses: { 200: json(authSessionsResponse) },
});

const endSession = createRoute({
  method: 'post',
  path: '/auth/sessions/{id}/end',
  operationId: 'postAuthSessionEnd',
  summary: 'End one open session (logs its browser out)',
  tags: ['auth'],
  description: "Ending the session this request's cookie holds also clears the cookie. Takes no body.",
  request: { params: z.object({ id: segment.meta({ description: 'A session id from GET /api/auth/sessions' }) }) },
  responses: { 200: json(authSessionEndResponse), ...errors({ 404: 'no open session has this id' }) },
});

/**
 * The owner's account: set up once with the token printed at start, then log in, log out, change
 * the password (which ends every session) and see or regenerate the API key. Open routes, so each
 * wrong token or password counts against the client's address like a wrong key. The list of open
 * sessions, and ending one, need credentials like any other route.
 */
export function authRoutes(deps: AppDeps & { auth: AuthService; limiter: FailureLimiter }) {
  const { auth, limiter, config } = deps;
  const cookiePath = `${deps.urlBase ?? ''}/`;

  function startSession(c: Context, session: Session, username: string) {
    setCookie(c, SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: overHttps(c),
      path: cookiePath,
      expires: new Date(session.expires_at),
    });
    return { username, expires_at: session.expires_at };
  }

  function endCookie(c: Context) {
    deleteCookie(c, SESSION_COOKIE, { path: cookiePath, secure: overHttps(c) });
  }

  return router()
    .openapi(status, async (c) => {
      const session = getCookie(c, SESSION_COOKIE);
      const username = session === undefined ? null : await auth.session(session, sessionClient(c));
      const via = username !== null ? 'session' : config.current().app.auth === 'local_open' && isLocalRequest(c) ? 'local' : null;
      return c.json({ owner: await auth.ownerExists(), authenticated: via !== null, via, username, auth: config.current().app.auth }, 200);
    })
    .openapi(setup, async (c) => {
      const body = c.req.valid('json');
      const out = await limitedCheck(c, limiter, () => auth.setup(body.token, body.username, body.password, sessionClient(c)));
      if (out instanceof Response) return out;
      deps.logger.info({ username: body.username.trim() }, 'owner account set up');
      return c.json(startSession(c, out, body.username.normalize('NFC').trim()), 201);
    })
    .openapi(login, async (c) => {
      const body = c.req.valid('json');
      const out = await limitedCheck(c, limiter, () => auth.login(body.username, body.password, sessionClient(c)));
      if (out instanceof Response) return out;
      return c.json(startSession(c, out, body.username.normalize('NFC').trim()), 200);
    })
    .openapi(logout, async (c) => {
      const session = getCookie(c, SESSION_COOKIE);
      if (session !== undefined) await auth.logout(session);
      endCookie(c);
      return c.json({ ok: true as const }, 200);
    })
    .openapi(listSessions, async (c) => c.json({ sessions: await auth.sessions(getCookie(c, SESSION_COOKIE)) }, 200))
    .openapi(endSession, async (c) => {
      const { id } = c.req.valid('param');
      await auth.endSession(id);
      deps.logger.info({ session: id }, 'session ended by the owner');
      const session = getCookie(c, SESSION_COOKIE);
      if (session !== undefined && sessionId(session) === id) endCookie(c);
      return c.json({ ended: true as const }, 200);
    })
    .openapi(password, async (c) => {
      const body = c.req.valid('json');
      const out = await limitedCheck(c, limiter, () => auth.changePassword(body.current_password, body.new_password, sessionClient(c)));
      if (out instanceof Response) return out;
      deps.logger.info('owner password changed; every session ended');
      const owner = await auth.session(out.token);
      return c.json(startSession(c, out, owner ?? ''), 200);
    })
    .openapi(apiKey, async (c) => {
      const body = c.req.valid('json');
      const out = await limitedCheck(c, limiter, async () => {
        if (body.regenerate) return auth.regenerateApiKey(body.password);
        await auth.checkPassword(body.password);
        return auth.apiKey();
      });
      if (out instanceof Response) return out;
      if (body.regenerate) deps.logger.info('generated API key replaced');
      return c.json({ api_key: out, source: auth.keyFromConfig() ? ('config' as const) : ('generated' as const) }, 200);
    });
}
