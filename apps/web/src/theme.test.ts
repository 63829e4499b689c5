import { describe, expect, it } from 'vitest';
import { ownerStylesheetWanted } from './theme.ts';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

describe('ownerStylesheetWanted', () => {
  it('is on by default, off for the rest of the visit after ?nocss=1, and back on with ?nocss=0', () => {
    const session = memoryStorage();
    expect(ownerStylesheetWanted('', session)).toBe(true);
    expect(ownerStylesheetWanted('?nocss=1', session)).toBe(false);
    expect(ownerStylesheetWanted('?page=2', session)).toBe(false);
    expect(ownerStylesheetWanted('', session)).toBe(false);
    expect(ownerStylesheetWanted('?nocss=0', session)).toBe(true);
    expect(ownerStylesheetWanted('', session)).toBe(true);
  });

  it('follows the address alone where the browser gives no storage (a frame on another site)', () => {
    expect(ownerStylesheetWanted('', null)).toBe(true);
    expect(ownerStylesheetWanted('?nocss=1', null)).toBe(false);
    expect(ownerStylesheetWanted('?nocss=0', null)).toBe(true);
  });
});
