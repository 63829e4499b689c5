// The figures each fault file measures, printed as a table at the end of the file and saved under
// test-results/faults-figures/ so that scripts/test-faults can print them all after the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@mo/test-support/service';

export type Figure = string | number | boolean | null;

export class Figures {
  private readonly rows: [string, Figure][] = [];
  constructor(readonly file: string) {}

  set(name: string, value: Figure): void {
    const i = this.rows.findIndex(([n]) => n === name);
    if (i >= 0) this.rows[i] = [name, value];
    else this.rows.push([name, value]);
  }

  add(name: string, by = 1): void {
    const i = this.rows.findIndex(([n]) => n === name);
    const now = i >= 0 ? Number(this.rows[i]![1]) : 0;
    this.set(name, now + by);
  }

  get(name: string): Figure | undefined {
    return this.rows.find(([n]) => n === name)?.[1];
  }

  table(): string {
    const width = Math.max(10, ...this.rows.map(([n]) => n.length));
    const lines = this.rows.map(([n, v]) => `  ${n.padEnd(width)}  ${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : String(v)}`);
    return [`== faults summary: ${this.file} ==`, ...lines].join('\n');
  }

  /** Prints the table and saves it; call from afterAll so a failed test still reports. */
  print(): void {
    console.log(this.table());
    try {
      const dir = join(REPO_ROOT, 'test-results', 'faults-figures');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${this.file}.json`), `${JSON.stringify(Object.fromEntries(this.rows), null, 2)}\n`);
    } catch {
      // The table on stdout is what matters.
    }
  }
}

/** Nearest-rank percentile of sorted values (ms). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
