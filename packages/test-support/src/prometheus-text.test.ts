import { describe, expect, it } from 'vitest';
import { readExposition } from './prometheus-text.ts';

const VALID = `# HELP mo_requests_total Requests served, by "route" \\\\ and\\nstatus
# TYPE mo_requests_total counter
mo_requests_total{route="/api/x",status="200"} 3
mo_requests_total{route="a \\"quoted\\" \\\\ value\\n",status="404"} 1e3 1700000000000
# A plain comment.
# HELP mo_up 1 when up
# TYPE mo_up gauge
mo_up 1
# HELP mo_level Anything
# TYPE mo_level gauge
mo_level{kind="a"} -Inf
mo_level{kind="b"} NaN
mo_level{kind="c"} +Inf
mo_level{kind="d",} .5
mo_level{kind="e"} Nan
# HELP mo_duration_seconds How long
# TYPE mo_duration_seconds histogram
mo_duration_seconds_bucket{le="0.1",route="x"} 1
mo_duration_seconds_bucket{le="+Inf",route="x"} 2
mo_duration_seconds_sum{route="x"} 0.3
mo_duration_seconds_count{route="x"} 2
`;

describe('readExposition', () => {
  it('reads a valid exposition with escapes, specials, timestamps and a histogram', () => {
    const { families, problems } = readExposition(VALID);
    expect(problems).toEqual([]);
    expect([...families.keys()]).toEqual(['mo_requests_total', 'mo_up', 'mo_level', 'mo_duration_seconds']);
    expect(families.get('mo_requests_total')).toMatchObject({ type: 'counter', help: 'Requests served, by "route" \\ and\nstatus' });
    expect(families.get('mo_requests_total')!.samples[1]).toEqual({
      name: 'mo_requests_total',
      labels: { route: 'a "quoted" \\ value\n', status: '404' },
      value: 1000,
    });
    expect(families.get('mo_level')!.samples.map((s) => s.value)).toEqual([-Infinity, NaN, Infinity, 0.5, NaN]);
    expect(families.get('mo_duration_seconds')!.samples).toHaveLength(4);
  });

  const gauge = (name: string, sample = `${name} 1`) => `# HELP ${name} h\n# TYPE ${name} gauge\n${sample}\n`;
  const counter = (name: string, sample = `${name} 1`) => `# HELP ${name} h\n# TYPE ${name} counter\n${sample}\n`;

  it.each([
    ['a counter without _total', counter('mo_jobs_finished'), /counter metrics should have "_total" suffix/],
    ['a gauge named _total', gauge('mo_jobs_finished_total'), /non-counter metrics should not have "_total" suffix/],
    ['a non-base unit', gauge('mo_duration_milliseconds'), /use base unit instead of "milliseconds"/],
    ['kilobytes', gauge('mo_size_kilobytes'), /use base unit/],
    ['no HELP', '# TYPE mo_x gauge\nmo_x 1\n', /mo_x: no HELP/],
    ['no TYPE', '# HELP mo_x h\nmo_x 1\n', /mo_x: no TYPE/],
    ['a sample before any HELP or TYPE', 'mo_x 1\n', /no HELP or TYPE line before it/],
    ['an unknown type', '# HELP mo_x h\n# TYPE mo_x meter\nmo_x 1\n', /unknown type "meter"/],
    ['untyped', '# HELP mo_x h\n# TYPE mo_x untyped\nmo_x 1\n', /mo_x: untyped/],
    ['two TYPE lines', '# HELP mo_x h\n# TYPE mo_x gauge\n# TYPE mo_x gauge\nmo_x 1\n', /second TYPE/],
    ['two HELP lines', '# HELP mo_x h\n# HELP mo_x h\n# TYPE mo_x gauge\nmo_x 1\n', /second HELP/],
    ['TYPE after the samples', '# HELP mo_x h\nmo_x 1\n# TYPE mo_x gauge\n', /TYPE for mo_x after its samples/],
    ['a metric in two groups', gauge('mo_x') + gauge('mo_y') + gauge('mo_x', 'mo_x{a="b"} 2'), /mo_x appears in two groups|second HELP|after its samples/],
    ['a sample out of its group', gauge('mo_x') + gauge('mo_y') + 'mo_x{a="b"} 2\n', /not grouped with the rest of mo_x/],
    ['a duplicate series', gauge('mo_x', 'mo_x{a="1"} 1\nmo_x{a="1"} 2'), /given twice/],
    ['an invalid metric name', gauge('mo-x'), /invalid metric name/],
    ['a name starting with a digit', '# HELP 1mo h\n# TYPE 1mo gauge\n1mo 1\n', /invalid metric name/],
    ['an invalid label name', gauge('mo_x', 'mo_x{a-b="1"} 1'), /invalid label name/],
    ['a reserved label name', gauge('mo_x', 'mo_x{__name__="1"} 1'), /reserved label name/],
    ['a label given twice', gauge('mo_x', 'mo_x{a="1",a="2"} 1'), /label a given twice/],
    ['an unquoted label value', gauge('mo_x', 'mo_x{a=1} 1'), /value not quoted/],
    ['an invalid escape in a label value', gauge('mo_x', 'mo_x{a="\\t"} 1'), /invalid escape/],
    ['an unterminated label value', gauge('mo_x', 'mo_x{a="1} 1'), /unterminated value/],
    ['an invalid escape in HELP', '# HELP mo_x a \\" b\n# TYPE mo_x gauge\nmo_x 1\n', /invalid escape in the HELP/],
    ['an invalid value', gauge('mo_x', 'mo_x one'), /invalid value "one"/],
    ['Infinity spelled out', gauge('mo_x', 'mo_x Infinity'), /invalid value/],
    ['a hexadecimal value', gauge('mo_x', 'mo_x 0x10'), /invalid value/],
    ['an invalid timestamp', gauge('mo_x', 'mo_x 1 1.5'), /invalid timestamp/],
    ['trailing text', gauge('mo_x', 'mo_x 1 2 3'), /trailing text/],
    ['no value', gauge('mo_x', 'mo_x'), /no blank between/],
    ['a negative counter', counter('mo_x_total', 'mo_x_total -1'), /counter value -1/],
    ['a suffixed sample in a gauge', gauge('mo_x', 'mo_x_count 1'), /no HELP or TYPE line before it/],
    ['no final line feed', gauge('mo_x').trimEnd(), /does not end with a line feed/],
    [
      'a histogram without +Inf',
      '# HELP mo_h_seconds h\n# TYPE mo_h_seconds histogram\nmo_h_seconds_bucket{le="1"} 1\nmo_h_seconds_sum 1\nmo_h_seconds_count 1\n',
      /no le="\+Inf" bucket/,
    ],
    [
      'a histogram whose +Inf differs from _count',
      '# HELP mo_h_seconds h\n# TYPE mo_h_seconds histogram\nmo_h_seconds_bucket{le="+Inf"} 1\nmo_h_seconds_sum 1\nmo_h_seconds_count 2\n',
      /differs from _count/,
    ],
    [
      'non-cumulative buckets',
      '# HELP mo_h_seconds h\n# TYPE mo_h_seconds histogram\nmo_h_seconds_bucket{le="1"} 3\nmo_h_seconds_bucket{le="2"} 2\nmo_h_seconds_bucket{le="+Inf"} 3\nmo_h_seconds_sum 1\nmo_h_seconds_count 3\n',
      /not cumulative/,
    ],
    [
      'a bucket without le',
      '# HELP mo_h_seconds h\n# TYPE mo_h_seconds histogram\nmo_h_seconds_bucket 3\nmo_h_seconds_sum 1\nmo_h_seconds_count 3\n',
      /without a valid le/,
    ],
  ])('finds %s', (_what, text, problem) => {
    const { problems } = readExposition(text);
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });
});

describe('readExposition with prom-client gauges let pass', () => {
  const gauge = (name: string) => `# HELP ${name} h\n# TYPE ${name} gauge\n${name} 1\n`;

  it('lets pass only the gauges named, and only as gauges', () => {
    const opts = { totalGauges: ['nodejs_active_handles_total'] };
    expect(readExposition(gauge('nodejs_active_handles_total'), opts).problems).toEqual([]);
    expect(readExposition(gauge('nodejs_active_handles_total')).problems).toEqual([expect.stringMatching(/non-counter metrics should not have "_total"/)]);
    expect(readExposition(gauge('mo_jobs_total'), opts).problems).toEqual([expect.stringMatching(/non-counter metrics should not have "_total"/)]);
    const summary = '# HELP nodejs_active_handles_total h\n# TYPE nodejs_active_handles_total summary\nnodejs_active_handles_total_count 1\n';
    expect(readExposition(summary, opts).problems).toEqual([expect.stringMatching(/non-counter metrics should not have "_total"/)]);
  });
});
