import { describe, expect, it } from 'vitest';
import { deepMerge } from './merge.ts';

describe('deepMerge', () => {
  it('merges objects key by key, keeping keys only in base', () => {
    const base = { a: { x: 1, y: 2 }, b: 'keep' };
    expect(deepMerge(base, { a: { y: 3 } })).toEqual({ a: { x: 1, y: 3 }, b: 'keep' });
  });

  it('adds keys only in over', () => {
    expect(deepMerge({ a: 1 }, { b: { c: 2 } })).toEqual({ a: 1, b: { c: 2 } });
  });

  it('replaces arrays whole instead of merging them', () => {
    expect(deepMerge({ list: [1, 2, 3] }, { list: [9] })).toEqual({ list: [9] });
    expect(deepMerge({ list: [{ a: 1 }, { a: 2 }] }, { list: [] })).toEqual({ list: [] });
  });

  it('lets scalars, null and objects replace one another', () => {
    expect(deepMerge({ a: { x: 1 } }, { a: 5 })).toEqual({ a: 5 });
    expect(deepMerge({ a: 5 }, { a: { x: 1 } })).toEqual({ a: { x: 1 } });
    expect(deepMerge({ a: 5 }, { a: null })).toEqual({ a: null });
    expect(deepMerge({ a: false }, { a: true })).toEqual({ a: true });
  });

  it('skips undefined values and keeps base when over is undefined', () => {
    expect(deepMerge({ a: 1, b: 2 }, { a: undefined })).toEqual({ a: 1, b: 2 });
    const base = { a: 1 };
    expect(deepMerge(base, undefined)).toBe(base);
  });

  it('does not mutate its inputs', () => {
    const base = { a: { x: 1, list: [1] }, b: 2 };
    const over = { a: { x: 2, list: [3] } };
    const baseCopy = structuredClone(base);
    const overCopy = structuredClone(over);
    const out = deepMerge(base, over);
    expect(base).toEqual(baseCopy);
    expect(over).toEqual(overCopy);
    expect(out).not.toBe(base);
    expect(out.a).not.toBe(base.a);
  });
});
