type Plain = Record<string, unknown>;

function isPlain(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; arrays and scalars from `over` replace those of `base`. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (!isPlain(base) || !isPlain(over)) return (over === undefined ? base : over) as T;
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    // defineProperty, not assignment: a "__proto__" key from a file must stay a plain (unknown) key.
    Object.defineProperty(out, k, {
      value: Object.hasOwn(out, k) ? deepMerge(out[k], v) : v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}
