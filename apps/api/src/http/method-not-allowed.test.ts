import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mo/shared';
import { testApp, type TestApp } from '../test-support/app.ts';
import { allowedMethods } from './method-not-allowed.ts';

describe('allowedMethods', () => {
  const allowed = allowedMethods([
    { method: 'ALL', path: '/api/*' },
    { method: 'GET', path: '/api/health' },
    { method: 'POST', path: '/api/scan' },
    { method: 'GET', path: '/api/jobs/:queue/:id' },
    { method: 'POST', path: '/api/jobs/transcode/:id/cancel' },
    { method: 'GET', path: '/api/things' },
    { method: 'POST', path: '/api/things' },
    { method: 'ALL', path: '/api/admin/queues/*' },
  ]);

  it.each([
    ['/api/health', ['GET', 'HEAD']],
    ['/api/scan', ['POST']],
    ['/api/things', ['GET', 'HEAD', 'POST']],
    ['/api/jobs/scan/17', ['GET', 'HEAD']],
    ['/api/jobs/transcode/9/cancel', ['POST']],
    // Only middleware and mounted apps match these: no route of the app, so a 404.
    ['/api/nowhere', []],
    ['/api/admin/queues/api/queues', []],
    ['/api/health/', []],
    ['/api/jobs/scan', []],
    ['/elsewhere', []],
  ])('%s answers to %j', (path, methods) => {
    expect(allowed(path)).toEqual(methods);
  });
});

describe('a known route asked with another method', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  it.each([
    ['POST', '/api/health', 'GET, HEAD'],
    ['DELETE', '/api/downloads', 'GET, HEAD'],
    ['GET', '/api/scan', 'POST'],
    ['PUT', '/api/settings', 'POST'],
    ['PATCH', '/api/jobs/scan/1', 'GET, HEAD'],
    ['GET', '/api/jobs/transcode/1/cancel', 'POST'],
    ['OPTIONS', '/api/metrics', 'GET, HEAD'],
  ])('%s %s is 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
    const res = await t.app.request(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    const body = errorBodySchema.parse(await res.json());
    expect(body.error.code).toBe('method_not_allowed');
    expect(body.error.details).toEqual({ allow: allow.split(', ') });
  });

  it('an unknown path stays a 404, and the right method still reaches the route', async () => {
    const missing = await t.app.request('/api/nowhere', { method: 'POST' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('allow')).toBeNull();
    expect((await t.app.request('/api/health')).status).toBe(200);
    expect((await t.app.request('/api/health', { method: 'HEAD' })).status).toBe(200);
    expect((await t.app.request('/api/health/', { method: 'POST' })).status).toBe(404);
  });
});
