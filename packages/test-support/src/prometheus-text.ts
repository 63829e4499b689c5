// A strict reader of the Prometheus text exposition format 0.0.4 (prometheus.io, "Exposition
// formats", text-based format), with the naming rules of promtool's `check metrics` linter on top.
// The npm parsers found are lenient ports that accept invalid names and unknown types, so the
// tests read the answer line by line themselves. Returns every problem found; [] when valid.

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/**
 * Go's ParseFloat forms the format allows, and the three specials. NaN in any case: prom-client
 * writes `Nan` (an event-loop figure with no samples yet), and Prometheus reads it with ParseFloat,
 * which takes every case.
 */
const VALUE = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[nN][aA][nN]|[+-]Inf)$/;
const TIMESTAMP = /^-?\d+$/;
/** promtool: "use base unit" for these. */
const NON_BASE_UNITS = [
  'milliseconds',
  'microseconds',
  'nanoseconds',
  'minutes',
  'hours',
  'days',
  'weeks',
  'kilobytes',
  'megabytes',
  'gigabytes',
  'terabytes',
  'kibibytes',
  'mebibytes',
  'gibibytes',
  'bits',
  'percent',
  'celsius',
  'fahrenheit',
  'grams',
];

/**
 * Gauges prom-client's default metrics name `_total` (promtool flags them too); kept as they are,
 * since they are the names the Node.js dashboards chart.
 */
export const PROM_CLIENT_TOTAL_GAUGES: readonly string[] = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  /** undefined: no TYPE line. */
  type: string | undefined;
  help: string | undefined;
  samples: Sample[];
}

export interface Exposition {
  families: Map<string, Family>;
  problems: string[];
}

/** HELP text: only `\\` and `\n` are escapes. */
function unescapeHelp(text: string): string | null {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\\') {
      out += text[i];
      continue;
    }
    const next = text[++i];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else return null;
  }
  return out;
}

function parseValue(text: string): number | null {
  if (!VALUE.test(text)) return null;
  if (text.toLowerCase() === 'nan') return NaN;
  if (text.endsWith('Inf')) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

/** `name{a="x",b="y"} value [timestamp]`, or why not. */
function parseSample(line: string): Sample | string {
  let i = 0;
  while (i < line.length && line[i] !== '{' && line[i] !== ' ' && line[i] !== '\t') i++;
  const name = line.slice(0, i);
  if (!METRIC_NAME.test(name)) return `invalid metric name ${JSON.stringify(name)}`;
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    for (;;) {
      while (line[i] === ' ' || line[i] === '\t') i++;
      if (line[i] === '}') break;
      const start = i;
      while (i < line.length && !'= \t},"'.includes(line[i]!)) i++;
      const label = line.slice(start, i);
      if (!LABEL_NAME.test(label)) return `invalid label name ${JSON.stringify(label)}`;
      if (label.startsWith('__')) return `reserved label name ${label}`;
      if (label in labels) return `label ${label} given twice`;
      while (line[i] === ' ' || line[i] === '\t') i++;
      if (line[i++] !== '=') return `no "=" after label ${label}`;
      while (line[i] === ' ' || line[i] === '\t') i++;
      if (line[i++] !== '"') return `label ${label}: value not quoted`;
      let value = '';
      for (;;) {
        const ch = line[i++];
        if (ch === undefined) return `label ${label}: unterminated value`;
        if (ch === '"') break;
        if (ch === '\\') {
          const esc = line[i++];
          if (esc === '\\' || esc === '"') value += esc;
          else if (esc === 'n') value += '\n';
          else return `label ${label}: invalid escape \\${esc ?? ''}`;
        } else value += ch;
      }
      labels[label] = value;
      while (line[i] === ' ' || line[i] === '\t') i++;
      if (line[i] === ',') {
        i++;
        continue;
      }
      if (line[i] !== '}') return `label ${label}: expected "," or "}"`;
    }
    i++;
  }
  const rest = line.slice(i);
  if (!/^[ \t]/.test(rest)) return 'no blank between the name (or labels) and the value';
  const parts = rest.trim().split(/[ \t]+/);
  if (parts.length > 2) return `trailing text ${JSON.stringify(parts.slice(2).join(' '))}`;
  const value = parseValue(parts[0]!);
  if (value === null) return `invalid value ${JSON.stringify(parts[0])}`;
  if (parts[1] !== undefined && !TIMESTAMP.test(parts[1])) return `invalid timestamp ${JSON.stringify(parts[1])}`;
  return { name, labels, value };
}

/** The family a sample belongs to: histograms and summaries add suffixes to their samples. */
function familyOf(sample: string, families: Map<string, Family>): Family | undefined {
  const exact = families.get(sample);
  if (exact) return exact;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sample.endsWith(suffix)) continue;
    const f = families.get(sample.slice(0, -suffix.length));
    if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return f;
  }
  return undefined;
}

const seriesKey = (s: Sample, without?: string) =>
  JSON.stringify(
    Object.entries(s.labels)
      .filter(([k]) => k !== without)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

function checkHistogram(f: Family, problems: string[]): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const s of f.samples) {
    const key = seriesKey(s, 'le');
    const g = groups.get(key) ?? { buckets: [] };
    groups.set(key, g);
    if (s.name.endsWith('_bucket')) {
      const le = s.labels.le === undefined ? null : parseValue(s.labels.le);
      if (le === null) problems.push(`${s.name}: bucket without a valid le label`);
      else g.buckets.push([le, s.value]);
    } else if (s.name.endsWith('_count')) g.count = s.value;
    else if (s.name.endsWith('_sum')) g.sum = s.value;
    else problems.push(`${s.name}: not a sample a histogram has`);
  }
  for (const [key, g] of groups) {
    const inf = g.buckets.find(([le]) => le === Infinity);
    if (!inf) problems.push(`${f.name} ${key}: no le="+Inf" bucket`);
    if (g.count === undefined || g.sum === undefined) problems.push(`${f.name} ${key}: _count or _sum missing`);
    if (inf && g.count !== undefined && inf[1] !== g.count) problems.push(`${f.name} ${key}: +Inf bucket ${inf[1]} differs from _count ${g.count}`);
    const sorted = [...g.buckets].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++)
      if (sorted[i]![1] < sorted[i - 1]![1]) problems.push(`${f.name} ${key}: buckets not cumulative at le=${sorted[i]![0]}`);
  }
}

/** promtool check metrics: names that say what they count, in base units. */
function lint(f: Family, problems: string[], totalGauges: readonly string[]): void {
  if (f.help === undefined || f.help.trim() === '') problems.push(`${f.name}: no HELP`);
  if (f.type === undefined) problems.push(`${f.name}: no TYPE`);
  if (f.type === 'counter' && !f.name.endsWith('_total')) problems.push(`${f.name}: counter metrics should have "_total" suffix`);
  if (f.type !== 'counter' && f.name.endsWith('_total') && !(f.type === 'gauge' && totalGauges.includes(f.name)))
    problems.push(`${f.name}: non-counter metrics should not have "_total" suffix`);
  for (const unit of NON_BASE_UNITS) if (f.name.split('_').includes(unit)) problems.push(`${f.name}: use base unit instead of "${unit}"`);
  if (f.type === 'untyped') problems.push(`${f.name}: untyped`);
  if (f.type === 'counter') for (const s of f.samples) if (!(s.value >= 0)) problems.push(`${s.name}: counter value ${s.value}`);
}

/** `totalGauges`: gauges whose `_total` is let pass (PROM_CLIENT_TOTAL_GAUGES for a scrape with prom-client's defaults). */
export function readExposition(text: string, opts: { totalGauges?: readonly string[] } = {}): Exposition {
  const problems: string[] = [];
  const families = new Map<string, Family>();
  if (text !== '' && !text.endsWith('\n')) problems.push('the last line does not end with a line feed');
  const closed = new Set<string>();
  const seen = new Set<string>();
  let current: Family | undefined;
  const lines = text.split('\n');
  lines.forEach((line, n) => {
    const at = `line ${n + 1}`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const m = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!m) return; // a plain comment
      const [, keyword, name, rest = ''] = m;
      if (!METRIC_NAME.test(name!)) return void problems.push(`${at}: invalid metric name in ${keyword}: ${JSON.stringify(name)}`);
      let f = families.get(name!);
      if (f && f.samples.length > 0) return void problems.push(`${at}: ${keyword} for ${name} after its samples`);
      if (!f) {
        if (closed.has(name!)) return void problems.push(`${at}: ${name} appears in two groups`);
        if (current) closed.add(current.name);
        f = { name: name!, type: undefined, help: undefined, samples: [] };
        families.set(name!, f);
        current = f;
      }
      if (keyword === 'HELP') {
        if (f.help !== undefined) return void problems.push(`${at}: second HELP for ${name}`);
        const help = unescapeHelp(rest);
        if (help === null) return void problems.push(`${at}: invalid escape in the HELP of ${name}`);
        f.help = help;
      } else {
        if (f.type !== undefined) return void problems.push(`${at}: second TYPE for ${name}`);
        if (!TYPES.has(rest)) return void problems.push(`${at}: unknown type ${JSON.stringify(rest)} for ${name}`);
        f.type = rest;
      }
      return;
    }
    const sample = parseSample(line);
    if (typeof sample === 'string') return void problems.push(`${at}: ${sample}`);
    const f = familyOf(sample.name, families);
    if (!f) return void problems.push(`${at}: ${sample.name} has no HELP or TYPE line before it`);
    if (f !== current) return void problems.push(`${at}: ${sample.name} is not grouped with the rest of ${f.name}`);
    const key = `${sample.name}${seriesKey(sample)}`;
    if (seen.has(key)) return void problems.push(`${at}: ${sample.name} ${seriesKey(sample)} given twice`);
    seen.add(key);
    if ((f.type === 'counter' || f.type === 'gauge') && sample.name !== f.name) return void problems.push(`${at}: ${sample.name} in the ${f.type} ${f.name}`);
    f.samples.push(sample);
  });
  for (const f of families.values()) {
    if (f.type === 'histogram') checkHistogram(f, problems);
    lint(f, problems, opts.totalGauges ?? []);
  }
  return { families, problems };
}
