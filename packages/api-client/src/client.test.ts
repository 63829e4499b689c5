import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { stubJobs, testApp, type TestApp } from '@mo/api/test-support/app';
import { createApiClient, type ApiClient, type ApiError, type Schemas } from './index.ts';

let t: TestApp;
let api: ApiClient;

beforeAll(async () => {
  // No job is ever found: enough for the job route's 404.
  t = await testApp({ jobs: { ...stubJobs(), get: async () => null } });
  api = createApiClient({ baseUrl: 'http://localhost', fetch: async (req) => t.app.request(req) });
});
afterAll(() => t?.close());

describe('createApiClient', () => {
  it('calls the real app and types its answers', async () => {
    const health = await api.GET('/api/health');
    expect(health.response.status).toBe(200);
    expectTypeOf(health.data).toEqualTypeOf<Schemas['Health'] | undefined>();
    expect(health.data).toEqual({ ok: true });

    const { data, error } = await api.GET('/api/library');
    expectTypeOf(data).toEqualTypeOf<Schemas['Library'] | undefined>();
    expect(error).toBeUndefined();
    expect(data?.summary.scanned_at).toBeNull();
    expect(data?.movies).toEqual([]);
  });

  it('types path and query parameters, and error answers', async () => {
    const job = await api.GET('/api/jobs/{queue}/{id}', { params: { path: { queue: 'scan', id: 'nope' } } });
    expect(job.response.status).toBe(404);
    expectTypeOf(job.error).toEqualTypeOf<ApiError | undefined>();
    expect(job.error?.error.code).toBe('not_found');

    const subtitles = await api.GET('/api/tools/subtitles', { params: { query: { language: 'xx-not-a-language' } } });
    expect(subtitles.error?.error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('language') });

    // @ts-expect-error: the queue is an enum of the queues that exist
    await api.GET('/api/jobs/{queue}/{id}', { params: { path: { queue: 'nope', id: '1' } } });
  });

  it('sends typed bodies', async () => {
    const res = await api.POST('/api/settings', { body: { settle_seconds: 7 } });
    expect(res.error).toBeUndefined();
    expect(res.data?.settings.app.settle_seconds).toBe(7);
    // @ts-expect-error: settle_seconds is a number
    await api.POST('/api/settings', { body: { settle_seconds: 'soon' } });
  });
});
