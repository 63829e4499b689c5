import { spawnSync } from 'node:child_process';
import { PROM_CLIENT_TOTAL_GAUGES } from './prometheus-text.ts';

/** Prometheus's own linter, where installed (Debian's `prometheus` package has it); null elsewhere. */
export const promtool: string | null = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0 ? 'promtool' : null;

/**
 * What `promtool check metrics` finds in a scrape, one line each: [] when it passes. Its findings
 * about prom-client's `_total` gauges are left out (readExposition's PROM_CLIENT_TOTAL_GAUGES).
 */
export function promtoolProblems(text: string): string[] {
  const r = spawnSync(promtool ?? 'promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (r.error) throw r.error;
  const lines = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim() !== '');
  const found = lines.filter((l) => !PROM_CLIENT_TOTAL_GAUGES.some((name) => l.startsWith(`${name} `) && l.includes('"_total" suffix')));
  // A failure without a line to say why (a parse error prints one, a lint finding too) is a problem in itself.
  if (r.status !== 0 && found.length === 0 && lines.length === found.length) found.push(`promtool exited with ${r.status}`);
  return found;
}
