import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { z } from 'zod';
import { AppError, sessionId, validationError, type AuthService, type FailureLimiter, type Session } from '@mo/core';
import { authApiKeyBody, authLoginBody, authPasswordBody, authSetupBody } from '@mo/shared';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { jsonBody } from '../http/body.ts';
import { clientKey, isLocalRequest, overHttps, SESSION_COOKIE, sessionClient, tooManyFailures } from '../http/auth.ts';

async function parse<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  const body = await jsonBody(c);
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

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

  /** Runs a check of secrets: refused at once while over the limit, and a 401 counts a failure. */
  async function guarded<T>(c: Context, run: () => Promise<T>): Promise<T | Response> {
    const limited = tooManyFailures(c, limiter);
    if (limited) return limited;
    try {
      return await run();
    } catch (err) {
      if (err instanceof AppError && err.code === 'unauthorized') limiter.fail(clientKey(c));
      throw err;
    }
  }

  return new Hono<AppEnv>()
    .get('/auth/status', async (c) => {
      const session = getCookie(c, SESSION_COOKIE);
      const username = session === undefined ? null : await auth.session(session, sessionClient(c));
      const via = username !== null ? 'session' : config.current().app.auth === 'local_open' && isLocalRequest(c) ? 'local' : null;
      return c.json({
        owner: await auth.ownerExists(),
        authenticated: via !== null,
        via,
        username,
        auth: config.current().app.auth,
      });
    })
    .post('/auth/setup', async (c) => {
      const body = await parse(c, authSetupBody);
      const out = await guarded(c, () => auth.setup(body.token, body.username, body.password, sessionClient(c)));
      if (out instanceof Response) return out;
      deps.logger.info({ username: body.username.trim() }, 'owner account set up');
      return c.json(startSession(c, out, body.username.normalize('NFC').trim()), 201);
    })
    .post('/auth/login', async (c) => {
      const body = await parse(c, authLoginBody);
      const out = await guarded(c, () => auth.login(body.username, body.password, sessionClient(c)));
      if (out instanceof Response) return out;
      return c.json(startSession(c, out, body.username.normalize('NFC').trim()));
    })
    .post('/auth/logout', async (c) => {
      const session = getCookie(c, SESSION_COOKIE);
      if (session !== undefined) await auth.logout(session);
      endCookie(c);
      return c.json({ ok: true as const });
    })
    .get('/auth/sessions', async (c) => c.json({ sessions: await auth.sessions(getCookie(c, SESSION_COOKIE)) }))
    .post('/auth/sessions/:id/end', async (c) => {
      const id = c.req.param('id');
      await auth.endSession(id);
      deps.logger.info({ session: id }, 'session ended by the owner');
      const session = getCookie(c, SESSION_COOKIE);
      if (session !== undefined && sessionId(session) === id) endCookie(c);
      return c.json({ ended: true as const });
    })
    .post('/auth/password', async (c) => {
      const body = await parse(c, authPasswordBody);
      const out = await guarded(c, () => auth.changePassword(body.current_password, body.new_password, sessionClient(c)));
      if (out instanceof Response) return out;
      deps.logger.info('owner password changed; every session ended');
      const owner = await auth.session(out.token);
      return c.json(startSession(c, out, owner ?? ''));
    })
    .post('/auth/api-key', async (c) => {
      const body = await parse(c, authApiKeyBody);
      const out = await guarded(c, async () => {
        if (body.regenerate) return auth.regenerateApiKey(body.password);
        await auth.checkPassword(body.password);
        return auth.apiKey();
      });
      if (out instanceof Response) return out;
      if (body.regenerate) deps.logger.info('generated API key replaced');
      return c.json({ api_key: out, source: auth.keyFromConfig() ? ('config' as const) : ('generated' as const) });
    });
}
