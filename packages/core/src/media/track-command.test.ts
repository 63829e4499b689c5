import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { muxerFor } from './containers.ts';
import type { MediaProbe, MediaStream } from './probe.ts';
import { checkTrackRequest, streamsAfter, trackCommand, trackTarget } from './track-command.ts';

function stream(index: number, type: MediaStream['type'], extra: Partial<MediaStream> = {}): MediaStream {
  return { index, type, codec: 'x', language: null, title: null, default: false, forced: false, channels: null, width: null, height: null, ...extra };
}

const streams = [
  stream(0, 'video', { default: true }),
  stream(1, 'audio', { default: true, language: 'eng' }),
  stream(2, 'audio', { language: 'fra' }),
  stream(3, 'subtitle', { language: 'eng' }),
  stream(4, 'subtitle', { language: 'spa', default: true, forced: true }),
];
const mkv: Pick<MediaProbe, 'streams' | 'others'> = { streams, others: [{ index: 5, type: 'attachment', codec: 'ttf' }] };
const mp4: Pick<MediaProbe, 'streams' | 'others'> = { streams, others: [{ index: 5, type: 'data', codec: 'bin_data' }] };
const HEAD = ['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-n'];
// The input is read with the demuxer its extension names, over the file protocol only.
const MKV_IN = ['-protocol_whitelist', 'file', '-format_whitelist', 'matroska', '-f', 'matroska', '-i'];
const MP4_IN = ['-protocol_whitelist', 'file', '-format_whitelist', 'mov', '-f', 'mov', '-enable_drefs', '0', '-use_absolute_path', '0', '-i'];
const TAIL = ['-max_muxing_queue_size', '4096', '-f'];

describe('trackCommand', () => {
  it('set_default: flags the chosen track, clears the type’s other default, copies everything', () => {
    expect(trackCommand(mkv, { action: 'set_default', stream: 2 }, '/m/a.mkv', '/m/.t.part', muxerFor('a.mkv')!)).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0',
      '-map_metadata',
      '0',
      '-map_chapters',
      '0',
      '-c',
      'copy',
      '-disposition:a:0',
      '-default',
      '-disposition:a:1',
      '+default',
      ...TAIL,
      'matroska',
      '-write_crc32',
      '0',
      '/m/.t.part',
    ]);
  });

  it('set_default on a subtitle counts subtitle outputs and leaves other flags (forced) alone', () => {
    expect(trackCommand(mkv, { action: 'set_default', stream: 3 }, '/m/a.mkv', '/m/.t.part', muxerFor('a.mkv')!)).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0',
      '-map_metadata',
      '0',
      '-map_chapters',
      '0',
      '-c',
      'copy',
      '-disposition:s:0',
      '+default',
      '-disposition:s:1',
      '-default',
      ...TAIL,
      'matroska',
      '-write_crc32',
      '0',
      '/m/.t.part',
    ]);
  });

  it('remove: maps everything but that stream; attachments stay', () => {
    expect(trackCommand(mkv, { action: 'remove', stream: 1 }, '/m/a.mkv', '/m/.t.part', muxerFor('a.mkv')!)).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0',
      '-map',
      '-0:1',
      '-map_metadata',
      '0',
      '-map_chapters',
      '0',
      '-c',
      'copy',
      ...TAIL,
      'matroska',
      '-write_crc32',
      '0',
      '/m/.t.part',
    ]);
  });

  it('MP4: leaves out the old chapter track, since -map_chapters writes it again', () => {
    expect(trackCommand(mp4, { action: 'remove', stream: 4 }, '/m/a.mp4', '/m/.t.part', muxerFor('a.MP4')!)).toEqual([
      ...HEAD,
      ...MP4_IN,
      '/m/a.mp4',
      '-map',
      '0',
      '-map',
      '-0:4',
      '-map',
      '-0:5',
      '-map_metadata',
      '0',
      '-map_chapters',
      '0',
      '-c',
      'copy',
      ...TAIL,
      'mp4',
      '/m/.t.part',
    ]);
  });

  it('m2ts keeps its 192-byte packets although the temp name does not end in .m2ts', () => {
    expect(trackCommand(mkv, { action: 'remove', stream: 2 }, '/m/a.m2ts', '/m/.t.part', muxerFor('a.m2ts')!).slice(-4)).toEqual([
      'mpegts',
      '-mpegts_m2ts_mode',
      '1',
      '/m/.t.part',
    ]);
  });

  it('refuses video streams and streams the file does not have', () => {
    for (const n of [0, 9]) {
      const err = (() => {
        try {
          trackCommand(mkv, { action: 'remove', stream: n }, '/a.mkv', '/t', muxerFor('a.mkv')!);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('bad_request');
      expect((err as AppError).message).toMatch(/^stream: /);
    }
  });
});

describe('streamsAfter and checkTrackRequest', () => {
  const mkvMuxer = muxerFor('a.mkv')!;
  const mp4Muxer = muxerFor('a.mp4')!;

  it('remove drops exactly that stream', () => {
    expect(streamsAfter(streams, { action: 'remove', stream: 2 }, mkvMuxer).map((s) => s.index)).toEqual([0, 1, 3, 4]);
  });

  it('set_default moves the flag within the type only', () => {
    const after = streamsAfter(streams, { action: 'set_default', stream: 3 }, mkvMuxer);
    expect(after.map((s) => s.default)).toEqual([true, true, false, true, false]);
    expect(after[4]!.forced).toBe(true);
  });

  it('MP4: a type left without a default gets its first track as default, as MP4 players see it', () => {
    expect(streamsAfter(streams, { action: 'remove', stream: 1 }, mkvMuxer).map((s) => s.default)).toEqual([true, false, false, true]);
    expect(streamsAfter(streams, { action: 'remove', stream: 1 }, mp4Muxer).map((s) => s.default)).toEqual([true, true, false, true]);
  });

  it('names the audio or subtitle stream, in a container that can mark one default', () => {
    expect(trackTarget(streams, 4)).toBe(streams[4]);
    expect(() => trackTarget(streams, 0)).toThrow(/video, not an audio or subtitle/);
    expect(checkTrackRequest(streams, { action: 'remove', stream: 2 }, muxerFor('a.avi')!)).toBe(streams[2]);
    expect(() => checkTrackRequest(streams, { action: 'set_default', stream: 2 }, muxerFor('a.avi')!)).toThrow(
      /^action: a avi file cannot mark a default track/,
    );
  });
});

describe('muxerFor', () => {
  it('knows the library’s containers and nothing else', () => {
    expect(muxerFor('/x/a.MKV')?.format).toBe('matroska');
    expect(muxerFor('/x/a.m4v')?.format).toBe('mp4');
    expect(muxerFor('/x/a.wmv')?.format).toBe('asf');
    expect(muxerFor('/x/a.rmvb')).toBeNull();
  });
});
