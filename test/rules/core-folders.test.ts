// ESLint's import-x/no-cycle sees files; this sees @mo/core's folders, the units its barrels export.
// A folder that imports another which (through any path) imports it back cannot be understood, moved or
// tested on its own, so the folders of packages/core/src must form a graph without cycles.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE = join(dirname(fileURLToPath(import.meta.url)), '../../packages/core/src');

/** Folder → the other core folders its non-test files import (type-only imports too: they couple as much). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const folder of readdirSync(CORE, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const edges = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
          for (const m of readFileSync(path, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
            const target = resolve(dirname(path), m[1]!);
            const top = target.startsWith(`${CORE}/`) ? target.slice(CORE.length + 1).split('/')[0]! : null;
            if (top !== null && top !== folder.name && target.slice(CORE.length + 1).includes('/')) edges.add(top);
          }
        }
      }
    };
    walk(join(CORE, folder.name));
    graph.set(folder.name, edges);
  }
  return graph;
}

/** A path from `from` back to itself, or null. */
function cycleThrough(graph: Map<string, Set<string>>, from: string): string[] | null {
  const seen = new Set<string>();
  const stack: [string, string[]][] = [[from, [from]]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    for (const next of graph.get(node) ?? []) {
      if (next === from) return [...path, from];
      if (!seen.has(next)) {
        seen.add(next);
        stack.push([next, [...path, next]]);
      }
    }
  }
  return null;
}

describe('packages/core folders', () => {
  it('import one way: no folder reaches itself again', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    const cycles = [...graph.keys()].map((f) => cycleThrough(graph, f)).filter((c) => c !== null);
    expect(cycles.map((c) => c.join(' → '))).toEqual([]);
  });
});
