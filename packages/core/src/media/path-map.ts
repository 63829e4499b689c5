export interface PathMapping {
  from: string;
  to: string;
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

function under(path: string, prefix: string): boolean {
  const p = trimSlash(prefix);
  return p === '/' || path === p || path.startsWith(`${p}/`);
}

function swap(path: string, fromPrefix: string, toPrefix: string): string {
  const from = trimSlash(fromPrefix);
  const to = trimSlash(toPrefix);
  const rest = from === '/' ? path : path.slice(from.length);
  return (to === '/' ? '' : to) + rest || '/';
}

function longest(path: string, map: readonly PathMapping[], side: 'from' | 'to'): PathMapping | undefined {
  return map.filter((m) => under(path, m[side])).sort((a, b) => trimSlash(b[side]).length - trimSlash(a[side]).length)[0];
}

/**
 * A path as the queue names it → the same file as this box mounts it. The longest matching
 * prefix wins, and only at a folder boundary ("/media" does not match "/media2").
 */
export function mapPath(path: string, map: readonly PathMapping[]): string {
  const m = longest(path, map, 'from');
  return m ? swap(path, m.from, m.to) : path;
}

/** The inverse of mapPath: a path on this box → the name the rest of the service knows it by. */
export function unmapPath(path: string, map: readonly PathMapping[]): string {
  const m = longest(path, map, 'to');
  return m ? swap(path, m.to, m.from) : path;
}

/** Roots as configured and as this box mounts them: the config may name either. */
export function mappedRoots(roots: readonly string[], map: readonly PathMapping[]): string[] {
  return [...new Set([...roots, ...roots.map((r) => mapPath(r, map))])];
}
