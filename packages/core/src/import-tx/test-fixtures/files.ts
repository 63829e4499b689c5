import { lstatSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SourceFile } from '../driver.ts';

/** Long settled: what a pass takes. */
export const OLD = new Date('2024-01-01T00:00:00Z');

/** Writes `text` at `path` (its folders made), last changed at OLD. */
export function put(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, OLD, OLD);
  return path;
}

/** A file as a plan sees it. */
export function file(path: string): SourceFile {
  const st = lstatSync(path);
  return { path, size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino };
}
