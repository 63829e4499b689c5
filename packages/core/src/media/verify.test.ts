import { describe, expect, it } from 'vitest';
import type { MediaProbe, MediaStream } from './probe.ts';
import { sameStreams, streamIdentity, verifyOutput, type OutputExpectation } from './verify.ts';

function stream(index: number, type: MediaStream['type'], extra: Partial<MediaStream> = {}): MediaStream {
  return { index, type, codec: 'aac', language: null, title: null, default: false, forced: false, channels: null, width: null, height: null, ...extra };
}

const streams = [stream(0, 'video', { codec: 'h264' }), stream(1, 'audio', { default: true, language: 'eng' }), stream(2, 'subtitle', { codec: 'subrip' })];
const actual: MediaProbe = {
  container: 'matroska,webm',
  duration_seconds: 7200,
  size_bytes: 1,
  streams,
  others: [{ index: 3, type: 'attachment', codec: 'ttf' }],
  chapters: 12,
};
const good: OutputExpectation = { streams: streams.map(streamIdentity), attachments: 1, chapters: 12, duration_seconds: 7200, container: 'matroska' };

describe('verifyOutput', () => {
  it('passes an output that is what was expected', () => {
    expect(verifyOutput(good, actual)).toEqual([]);
  });

  it('names a missing stream, a wrong flag, a lost attachment or chapter, and the wrong container', () => {
    expect(verifyOutput({ ...good, streams: good.streams.slice(1) }, actual)).toEqual(['3 streams, expected 2']);
    const flags = verifyOutput({ ...good, streams: [good.streams[0]!, { ...good.streams[1]!, default: false }, good.streams[2]!] }, actual);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatch(/^stream 1: default differ/);
    expect(verifyOutput({ ...good, attachments: 2 }, actual)).toEqual(['1 attachments, expected 2']);
    expect(verifyOutput({ ...good, chapters: 13 }, actual)).toEqual(['12 chapters, expected 13']);
    expect(verifyOutput({ ...good, container: 'mp4' }, actual)).toEqual(['container is matroska,webm, expected mp4']);
  });

  it('checks only the fields an expectation names', () => {
    expect(verifyOutput({ streams: [{ type: 'video' }, { type: 'audio', codec: 'aac' }, { type: 'subtitle' }], duration_seconds: null }, actual)).toEqual([]);
  });

  it('wants the duration within 1%, with a floor for clips of a few seconds', () => {
    expect(verifyOutput({ ...good, duration_seconds: 7200 * 1.0099 }, actual)).toEqual([]);
    expect(verifyOutput({ ...good, duration_seconds: 7200 * 1.011 }, actual)[0]).toMatch(/^duration is 7200 s/);
    expect(verifyOutput({ ...good, duration_seconds: 3.02 }, { ...actual, duration_seconds: 3.04 })).toEqual([]);
    expect(verifyOutput({ ...good, duration_seconds: 3.02 }, { ...actual, duration_seconds: 3.5 })).toHaveLength(1);
    expect(verifyOutput(good, { ...actual, duration_seconds: null })).toHaveLength(1);
  });
});

describe('sameStreams', () => {
  it('compares identity, and positions only when asked', () => {
    const moved = streams.map((s) => ({ ...s, index: s.index + 1 }));
    expect(sameStreams(streams, moved, { positions: false })).toBe(true);
    expect(sameStreams(streams, moved, { positions: true })).toBe(false);
    expect(sameStreams(streams, [...streams.slice(0, 2), { ...streams[2]!, title: 'x' }], { positions: false })).toBe(false);
    expect(sameStreams(streams, streams.slice(1), { positions: false })).toBe(false);
  });
});
