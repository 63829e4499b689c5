import type { MediaProbe, MediaStream } from './probe.ts';

/** What one output stream must be; fields left out are not checked. */
export type ExpectedStream = Partial<Omit<MediaStream, 'index'>> & Pick<MediaStream, 'type'>;

export interface OutputExpectation {
  streams: ExpectedStream[];
  /** Attachments (fonts…) that must come through; not checked when undefined. */
  attachments?: number;
  /** Chapters that must come through; not checked when undefined. */
  chapters?: number;
  /** The source's duration; the output's must match it. */
  duration_seconds: number | null;
  /** A name that must appear in the output's ffprobe format name, e.g. "mp4". */
  container?: string;
}

const DURATION_TOLERANCE = 0.01;
// Containers round durations to whole packets, so a clip of a few seconds can be off by more
// than 1% while a film cannot; below this floor the relative rule would reject good output.
const DURATION_FLOOR_SECONDS = 0.1;

/** The identity of a stream as a remux must keep it: everything but its position. */
export function streamIdentity(s: MediaStream): ExpectedStream {
  const { index: _, ...rest } = s;
  return rest;
}

function describe(s: ExpectedStream): string {
  return JSON.stringify(s);
}

/** Why `actual` is not the expected output; empty when it is. */
export function verifyOutput(expected: OutputExpectation, actual: MediaProbe): string[] {
  const problems: string[] = [];
  if (expected.container && !(actual.container ?? '').split(',').includes(expected.container)) {
    problems.push(`container is ${actual.container ?? 'unknown'}, expected ${expected.container}`);
  }
  if (actual.streams.length !== expected.streams.length) {
    problems.push(`${actual.streams.length} streams, expected ${expected.streams.length}`);
  } else {
    expected.streams.forEach((want, i) => {
      const got = actual.streams[i]!;
      const wrong = (Object.keys(want) as (keyof ExpectedStream)[]).filter((k) => want[k] !== got[k]);
      if (wrong.length > 0) problems.push(`stream ${i}: ${wrong.join(', ')} differ: expected ${describe(want)}, got ${describe(streamIdentity(got))}`);
    });
  }
  if (expected.attachments !== undefined) {
    const n = actual.others.filter((o) => o.type === 'attachment').length;
    if (n !== expected.attachments) problems.push(`${n} attachments, expected ${expected.attachments}`);
  }
  if (expected.chapters !== undefined && actual.chapters !== expected.chapters) {
    problems.push(`${actual.chapters} chapters, expected ${expected.chapters}`);
  }
  const want = expected.duration_seconds;
  if (want !== null) {
    const got = actual.duration_seconds;
    const slack = Math.max(want * DURATION_TOLERANCE, DURATION_FLOOR_SECONDS);
    if (got === null || Math.abs(got - want) > slack) {
      problems.push(`duration is ${got ?? 'unknown'} s, expected ${want} s ± ${slack.toFixed(3)} s`);
    }
  }
  return problems;
}

const IDENTITY_KEYS = ['type', 'codec', 'language', 'title', 'default', 'forced', 'channels', 'width', 'height'] as const;

/** Same streams in the same order; with `positions`, at the same indexes too. */
export function sameStreams(a: readonly MediaStream[], b: readonly MediaStream[], opts: { positions: boolean }): boolean {
  return (
    a.length === b.length &&
    a.every((s, i) => {
      const t = b[i]!;
      return (!opts.positions || s.index === t.index) && IDENTITY_KEYS.every((k) => s[k] === t[k]);
    })
  );
}
