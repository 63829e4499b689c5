import { describe, expect, it } from 'vitest';
import { normaliseProbe, probeCommand } from './probe.ts';

const disposition = (d: Partial<Record<'default' | 'forced' | 'attached_pic', number>> = {}) => ({
  default: 0,
  dub: 0,
  forced: 0,
  attached_pic: 0,
  ...d,
});

describe('normaliseProbe', () => {
  it('reads an MP4 track’s title from its handler name, unless that only names the handler', () => {
    const titles = (format_name: string) =>
      normaliseProbe({
        streams: [
          { index: 0, codec_type: 'audio', tags: { handler_name: 'English Stereo' } },
          { index: 1, codec_type: 'audio', tags: { handler_name: 'SoundHandler' } },
          { index: 2, codec_type: 'video', tags: { handler_name: 'Core Media Video' } },
          { index: 3, codec_type: 'subtitle', tags: { handler_name: 'GPAC ISO Text Handler' } },
          { index: 4, codec_type: 'audio', tags: { title: 'Commentary', handler_name: 'Director' } },
        ],
        format: { format_name },
      }).streams.map((s) => s.title);
    expect(titles('mov,mp4,m4a,3gp,3g2,mj2')).toEqual(['English Stereo', null, null, null, 'Commentary']);
    expect(titles('matroska,webm')).toEqual([null, null, null, null, 'Commentary']);
  });

  it('keeps video, audio and subtitle streams in the contract shape and the rest aside', () => {
    const probe = normaliseProbe({
      streams: [
        { index: 0, codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080, channels: 9, disposition: disposition({ default: 1 }) },
        {
          index: 1,
          codec_type: 'audio',
          codec_name: 'eac3',
          channels: 6,
          width: 5,
          tags: { language: 'ger', title: 'Deutsch 5.1' },
          disposition: disposition({ default: 1 }),
        },
        { index: 2, codec_type: 'audio', codec_name: 'aac', channels: 2, tags: { LANGUAGE: 'eng', Title: '  Commentary ' }, disposition: disposition() },
        { index: 3, codec_type: 'subtitle', codec_name: 'hdmv_pgs_subtitle', tags: { language: 'und' }, disposition: disposition({ forced: 1 }) },
        { index: 4, codec_type: 'attachment', codec_name: 'ttf', tags: { filename: 'a.ttf' } },
        { index: 5, codec_type: 'video', codec_name: 'mjpeg', disposition: disposition({ attached_pic: 1 }) },
        { index: 6, codec_type: 'data' },
      ],
      chapters: [{ id: 1 }, { id: 2 }, { id: 3 }],
      format: { format_name: 'matroska,webm', duration: '5421.120000', size: '4000000000' },
    });
    expect(probe).toEqual({
      container: 'matroska,webm',
      duration_seconds: 5421.12,
      size_bytes: 4_000_000_000,
      streams: [
        { index: 0, type: 'video', codec: 'h264', language: null, title: null, default: true, forced: false, channels: null, width: 1920, height: 1080 },
        { index: 1, type: 'audio', codec: 'eac3', language: 'ger', title: 'Deutsch 5.1', default: true, forced: false, channels: 6, width: null, height: null },
        { index: 2, type: 'audio', codec: 'aac', language: 'eng', title: 'Commentary', default: false, forced: false, channels: 2, width: null, height: null },
        {
          index: 3,
          type: 'subtitle',
          codec: 'hdmv_pgs_subtitle',
          language: null,
          title: null,
          default: false,
          forced: true,
          channels: null,
          width: null,
          height: null,
        },
      ],
      others: [
        { index: 4, type: 'attachment', codec: 'ttf' },
        { index: 5, type: 'attached_pic', codec: 'mjpeg' },
        { index: 6, type: 'data', codec: null },
      ],
      chapters: 3,
    });
  });

  it('survives what ffprobe leaves out', () => {
    expect(normaliseProbe({ format: { duration: 'N/A' } })).toEqual({
      container: null,
      duration_seconds: null,
      size_bytes: 0,
      streams: [],
      others: [],
      chapters: 0,
    });
  });

  it('refuses JSON that is not ffprobe output', () => {
    expect(() => normaliseProbe({ streams: 'nope' })).toThrow();
  });
});

describe('probeCommand', () => {
  it('asks for format, streams and chapters as JSON, reading the file with the named demuxer and the file protocol only', () => {
    expect(probeCommand('/m/a.mkv', { format: 'matroska', options: [] })).toEqual([
      'ffprobe',
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      '-show_chapters',
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'matroska',
      '-f',
      'matroska',
      '-i',
      '/m/a.mkv',
    ]);
  });
});
