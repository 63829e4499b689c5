import { describe, expect, it } from 'vitest';
import type { JobContext, JobHandlers } from '@mo/core';
import { withFreshConfig } from './fresh-config.ts';

describe('withFreshConfig', () => {
  it('re-reads state.json before every job of every handler, and passes the job through', async () => {
    const seen: string[] = [];
    const config = { refresh: async () => void seen.push('refresh') };
    const handlers: JobHandlers = {
      notify: async (payload) => {
        seen.push(`notify ${payload.pass}`);
        return { told: [], failed: {} } as never;
      },
    };
    const wrapped = withFreshConfig(config, handlers);
    expect(Object.keys(wrapped)).toEqual(['notify']);
    const ctx = {} as JobContext;
    await wrapped.notify!({ pass: 'p1' } as never, ctx);
    await wrapped.notify!({ pass: 'p2' } as never, ctx);
    expect(seen).toEqual(['refresh', 'notify p1', 'refresh', 'notify p2']);
  });
});
