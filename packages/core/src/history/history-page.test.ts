import { describe, expect, it } from 'vitest';
import type { ImportRecord } from './history-record.ts';
import { historyPage, type HistoryQuery } from './history-page.ts';

const id = { dev: 1, ino: 1, size: 100, mtime_ms: 1 };
function record(n: number, over: Partial<ImportRecord> = {}): ImportRecord {
  return {
    t: 'import',
    id: n,
    at: `2026-01-0${n}T00:00:00.000Z`,
    mode: 'copy',
    method: 'copy',
    source: `/dl/${n}.mkv`,
    destination: `/lib/${n}.mkv`,
    from: id,
    to: id,
    sidecars: [],
    created_dirs: [],
    pass: 'p',
    undone_at: null,
    notified: null,
    ...over,
  };
}
const all = [1, 2, 3, 4, 5].map((n) => record(n));
const q = (over: Partial<HistoryQuery> = {}): HistoryQuery => ({ limit: 50, before: null, source: null, destination: null, ...over });
const ids = (p: ReturnType<typeof historyPage>) => [p.items.map((i) => i.id), p.next];

describe('historyPage', () => {
  it('answers newest first, as CONTRACT.md shows an item', () => {
    const r = record(1, { sidecars: [{ source: '/dl/1.srt', destination: '/lib/1.srt', from: { ...id, size: 5 }, to: id }], undone_at: 'u' });
    expect(historyPage([r], q())).toEqual({
      items: [
        {
          id: 1,
          at: r.at,
          mode: 'copy',
          method: 'copy',
          source: '/dl/1.mkv',
          destination: '/lib/1.mkv',
          bytes: 105,
          sidecars: [{ source: '/dl/1.srt', destination: '/lib/1.srt' }],
          pass: 'p',
          undone_at: 'u',
          notified: null,
          replaced: null,
        },
      ],
      next: null,
    });
  });

  it.each([
    ['everything', q(), [[5, 4, 3, 2, 1], null]],
    ['a first page', q({ limit: 2 }), [[5, 4], 4]],
    ['the page after', q({ limit: 2, before: 4 }), [[3, 2], 2]],
    ['the last page, exactly full', q({ limit: 1, before: 2 }), [[1], null]],
    ['before the first id', q({ before: 1 }), [[], null]],
    ['before an id past the newest', q({ before: 99 }), [[5, 4, 3, 2, 1], null]],
    ['by source', q({ source: '/dl/3.mkv' }), [[3], null]],
    ['by destination', q({ destination: '/lib/2.mkv' }), [[2], null]],
    ['by both, not the same import', q({ source: '/dl/3.mkv', destination: '/lib/2.mkv' }), [[], null]],
    ['no match', q({ source: '/nope' }), [[], null]],
  ] as const)('%s', (_name, query, want) => {
    expect(ids(historyPage(all, query))).toEqual(want);
  });

  it('filters on sidecars too, and pages a filtered list by the filtered items', () => {
    const side = (n: number) => record(n, { source: '/dl/same.mkv', sidecars: [{ source: `/dl/${n}.srt`, destination: `/lib/${n}.srt`, from: id, to: id }] });
    const records = [side(1), record(2), side(3), record(4), side(5)];
    expect(ids(historyPage(records, q({ destination: '/lib/3.srt' })))).toEqual([[3], null]);
    expect(ids(historyPage(records, q({ source: '/dl/same.mkv', limit: 2 })))).toEqual([[5, 3], 3]);
    expect(ids(historyPage(records, q({ source: '/dl/same.mkv', limit: 2, before: 3 })))).toEqual([[1], null]);
  });
});
