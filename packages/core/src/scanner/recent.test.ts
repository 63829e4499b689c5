import { describe, expect, it } from 'vitest';
import type { RecentEntry } from '@mo/shared';
import { mergeRecent } from './recent.ts';

const plan = (source: string, at = 't1'): RecentEntry => ({ type: 'plan', source, destination: `/lib/${source}`, at, status: 'planned' });
const move = (source: string, at = 't2'): RecentEntry => ({ type: 'move', source, destination: `/lib/${source}`, at, status: 'moved' });

describe('mergeRecent', () => {
  it('puts new entries first', () => {
    expect(mergeRecent([move('a', 't0')], [plan('b')])).toEqual([plan('b'), move('a', 't0')]);
  });

  it('replaces a source’s older plans instead of piling them up', () => {
    expect(mergeRecent([plan('a', 't0'), plan('b', 't0')], [plan('a', 't1')])).toEqual([plan('a', 't1'), plan('b', 't0')]);
    expect(mergeRecent([plan('a', 't0')], [move('a')])).toEqual([move('a')]);
  });

  it('keeps every move: they are history', () => {
    expect(mergeRecent([move('a', 't0')], [move('a', 't1')])).toEqual([move('a', 't1'), move('a', 't0')]);
  });

  it('keeps at most the limit, newest first', () => {
    const current = Array.from({ length: 5 }, (_, i) => move(`old${i}`));
    expect(mergeRecent(current, [plan('new')], 3).map((e) => e.source)).toEqual(['new', 'old0', 'old1']);
  });
});
