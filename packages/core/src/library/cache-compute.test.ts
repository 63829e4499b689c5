import { describe, expect, it } from 'vitest';
import { computeAll, keptItems, sortComputes, type Compute } from './cache-compute.ts';
import { item } from '../releases/test-fixtures/index-items.ts';

const pass = (value: unknown): Compute<unknown> => ({ pass: () => ({ add() {}, finish: () => value }) });

describe('sortComputes', () => {
  it('starts the passes, keeps the functions of the whole index, and records a pass that cannot start as its error', () => {
    const boom = new Error('no start');
    const whole = () => 'w';
    const {
      passes,
      whole: functions,
      outcomes,
    } = sortComputes([
      ['a', pass(1)],
      ['b', whole],
      [
        'c',
        {
          pass: () => {
            throw boom;
          },
        },
      ],
    ]);
    expect(passes.map(([key]) => key)).toEqual(['a']);
    expect(functions).toEqual([['b', whole]]);
    expect([...outcomes]).toEqual([['c', { error: boom }]]);
  });
});

describe('keptItems', () => {
  it('gives the items back only for the index they belong to, and forgets them for another', () => {
    const kept = keptItems(60_000);
    const items = [item('/m/Movies/Alien (1979)/Alien (1979).mkv')];
    kept.keep(3, items);
    expect(kept.of(3)).toBe(items);
    expect(kept.of(4)).toBeUndefined();
    kept.dropOthers(3);
    expect(kept.of(3)).toBe(items);
    kept.dropOthers(4);
    expect(kept.of(3)).toBeUndefined();
    kept.keep(4, items);
    kept.clear();
    expect(kept.of(4)).toBeUndefined();
  });

  it('drops them a while after the last use', async () => {
    const kept = keptItems(5);
    kept.keep(1, []);
    kept.dropLater();
    expect(kept.of(1)).toEqual([]);
    await new Promise((r) => setTimeout(r, 30));
    expect(kept.of(1)).toBeUndefined();
  });
});

describe('computeAll', () => {
  it('before the first scan, finishes every value with no header and no items, and reads nothing', async () => {
    const seen: unknown[] = [];
    const { outcomes, files } = await computeAll(
      [
        ['pass', { pass: () => ({ add() {}, finish: (header, version) => [header, version] }) }],
        ['whole', (index) => seen.push(index)],
        [
          'broken',
          () => {
            throw new Error('bad view');
          },
        ],
      ],
      null,
      1,
      keptItems(60_000),
    );
    expect(files).toBeNull();
    expect(outcomes.get('pass')).toEqual({ value: [null, 1] });
    expect(outcomes.get('whole')).toEqual({ value: 1 });
    expect(seen).toEqual([null]);
    expect(outcomes.get('broken')).toEqual({ error: new Error('bad view') });
  });
});
