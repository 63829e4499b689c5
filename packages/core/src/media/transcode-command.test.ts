import { describe, expect, it } from 'vitest';
import type { MediaProbe, MediaStream } from './probe.ts';
import { transcodePlan } from './transcode-command.ts';

function stream(index: number, type: MediaStream['type'], codec: string, extra: Partial<MediaStream> = {}): MediaStream {
  return { index, type, codec, language: null, title: null, default: false, forced: false, channels: null, width: null, height: null, ...extra };
}

function probe(streams: MediaStream[], others: MediaProbe['others'] = []): MediaProbe {
  return { container: 'matroska,webm', duration_seconds: 60, size_bytes: 1000, streams, others, chapters: 2 };
}

const HEAD = ['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-n'];
const TAIL = ['-movflags', '+faststart', '-max_muxing_queue_size', '4096', '-f', 'mp4', '/m/.t.part'];
const META = ['-map_metadata', '0', '-map_chapters', '0'];
const MKV_IN = ['-protocol_whitelist', 'file', '-format_whitelist', 'matroska', '-f', 'matroska', '-i'];
/** The flags that keep an unnamed, unflagged stream so: no language, neither default nor forced. */
const plain = (spec: string) => [`-disposition:${spec}`, '-default-forced', `-metadata:s:${spec}`, 'language=und'];
const opts = { encoder: 'libx264' as const, src: '/m/a.mkv', tmp: '/m/.t.part' };

describe('transcodePlan', () => {
  it('copies h264 with aac/ac3 into MP4 and turns text subtitles into mov_text', () => {
    const plan = transcodePlan(
      probe([
        stream(0, 'video', 'h264', { width: 1920, height: 1080 }),
        stream(1, 'audio', 'aac'),
        stream(2, 'audio', 'ac3', { channels: 6 }),
        stream(3, 'subtitle', 'subrip'),
        stream(4, 'subtitle', 'ass'),
      ]),
      opts,
    );
    expect(plan.argv).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0:0',
      '-map',
      '0:1',
      '-map',
      '0:2',
      '-map',
      '0:3',
      '-map',
      '0:4',
      ...META,
      '-c:v:0',
      'copy',
      ...plain('v:0'),
      '-c:a:0',
      'copy',
      ...plain('a:0'),
      '-c:a:1',
      'copy',
      ...plain('a:1'),
      '-c:s:0',
      'mov_text',
      ...plain('s:0'),
      '-c:s:1',
      'mov_text',
      ...plain('s:1'),
      ...TAIL,
    ]);
    expect(plan.encoder).toBeNull();
    expect(plan.dropped).toEqual([]);
    const none = { language: null, title: null, default: false, forced: false };
    expect(plan.expected).toEqual([
      { type: 'video', codec: 'h264', width: 1920, height: 1080, ...none },
      { type: 'audio', codec: 'aac', ...none },
      { type: 'audio', codec: 'ac3', ...none },
      { type: 'subtitle', codec: 'mov_text', ...none },
      { type: 'subtitle', codec: 'mov_text', ...none },
    ]);
  });

  it('tags copied HEVC hvc1 so Apple players take it', () => {
    expect(transcodePlan(probe([stream(0, 'video', 'hevc')]), opts).argv).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0:0',
      ...META,
      '-c:v:0',
      'copy',
      '-tag:v:0',
      'hvc1',
      ...plain('v:0'),
      ...TAIL,
    ]);
  });

  it('encodes what MP4 players do not take: video with the configured encoder, audio to AAC', () => {
    const plan = transcodePlan(
      probe([
        stream(0, 'video', 'mpeg4', { width: 640, height: 360 }),
        stream(1, 'audio', 'dts', { channels: 6 }),
        stream(2, 'audio', 'mp3', { channels: 2 }),
        stream(3, 'audio', 'vorbis', { channels: 2 }),
      ]),
      opts,
    );
    expect(plan.argv).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0:0',
      '-map',
      '0:1',
      '-map',
      '0:2',
      '-map',
      '0:3',
      ...META,
      '-c:v:0',
      'libx264',
      '-preset:v:0',
      'medium',
      '-crf:v:0',
      '20',
      '-pix_fmt:v:0',
      'yuv420p',
      ...plain('v:0'),
      '-c:a:0',
      'aac',
      '-b:a:0',
      '384k',
      ...plain('a:0'),
      '-c:a:1',
      'copy',
      ...plain('a:1'),
      '-c:a:2',
      'aac',
      '-b:a:2',
      '192k',
      ...plain('a:2'),
      ...TAIL,
    ]);
    expect(plan.encoder).toBe('libx264');
    expect(plan.expected.map((e) => e.codec)).toEqual(['h264', 'aac', 'mp3', 'aac']);
  });

  it.each([
    ['h264_nvenc', [], ['-c:v:0', 'h264_nvenc', '-preset:v:0', 'p5', '-rc:v:0', 'vbr', '-cq:v:0', '23', '-b:v:0', '0', '-pix_fmt:v:0', 'yuv420p']],
    ['h264_qsv', [], ['-c:v:0', 'h264_qsv', '-preset:v:0', 'medium', '-global_quality:v:0', '23', '-pix_fmt:v:0', 'nv12']],
    ['h264_vaapi', ['-vaapi_device', '/dev/dri/renderD128'], ['-filter:v:0', 'format=nv12,hwupload', '-c:v:0', 'h264_vaapi', '-qp:v:0', '23']],
  ] as const)('uses %s with its own options', (encoder, device, video) => {
    expect(transcodePlan(probe([stream(0, 'video', 'vc1')]), { ...opts, encoder }).argv).toEqual([
      ...HEAD,
      ...device,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0:0',
      ...META,
      ...video,
      ...plain('v:0'),
      ...TAIL,
    ]);
  });

  it('opens no VAAPI device when nothing is encoded', () => {
    expect(transcodePlan(probe([stream(0, 'video', 'h264')]), { ...opts, encoder: 'h264_vaapi' }).argv).not.toContain('-vaapi_device');
  });

  it('drops image subtitles, attachments, cover art and data, and says why', () => {
    const plan = transcodePlan(
      probe(
        [stream(0, 'video', 'h264'), stream(1, 'subtitle', 'hdmv_pgs_subtitle'), stream(2, 'subtitle', 'subrip'), stream(3, 'subtitle', 'dvd_subtitle')],
        [
          { index: 4, type: 'attachment', codec: 'ttf' },
          { index: 5, type: 'attached_pic', codec: 'mjpeg' },
        ],
      ),
      opts,
    );
    expect(plan.argv).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0:0',
      '-map',
      '0:2',
      ...META,
      '-c:v:0',
      'copy',
      ...plain('v:0'),
      '-c:s:0',
      'mov_text',
      ...plain('s:0'),
      ...TAIL,
    ]);
    expect(plan.dropped.map((d) => [d.index, d.type, d.codec])).toEqual([
      [1, 'subtitle', 'hdmv_pgs_subtitle'],
      [3, 'subtitle', 'dvd_subtitle'],
      [4, 'attachment', 'ttf'],
      [5, 'attached_pic', 'mjpeg'],
    ]);
    expect(plan.dropped[0]!.reason).toMatch(/image subtitles \(hdmv_pgs_subtitle\)/);
  });

  it('gives every kept stream its language, title and default/forced flags, a subtitle that is not default too', () => {
    // ffmpeg alone made the first subtitle default when the source marks none: every flag is named.
    const plan = transcodePlan(
      probe([
        stream(0, 'video', 'h264', { default: true }),
        stream(1, 'audio', 'dts', { language: 'eng', title: 'English 5.1', default: true, channels: 6 }),
        stream(2, 'audio', 'aac', { language: 'fra', title: '-Français' }),
        stream(3, 'subtitle', 'hdmv_pgs_subtitle', { language: 'eng', default: true }),
        stream(4, 'subtitle', 'subrip', { language: 'eng', title: 'English' }),
        stream(5, 'subtitle', 'ass', { language: 'spa', title: 'Español=Forzados', forced: true }),
      ]),
      opts,
    );
    expect(plan.argv).toEqual([
      ...HEAD,
      ...MKV_IN,
      '/m/a.mkv',
      '-map',
      '0:0',
      '-map',
      '0:1',
      '-map',
      '0:2',
      '-map',
      '0:4',
      '-map',
      '0:5',
      ...META,
      '-c:v:0',
      'copy',
      '-disposition:v:0',
      '+default-forced',
      '-metadata:s:v:0',
      'language=und',
      '-c:a:0',
      'aac',
      '-b:a:0',
      '384k',
      '-disposition:a:0',
      '+default-forced',
      '-metadata:s:a:0',
      'language=eng',
      '-metadata:s:a:0',
      'title=English 5.1',
      '-metadata:s:a:0',
      'handler_name=English 5.1',
      '-c:a:1',
      'copy',
      '-disposition:a:1',
      '-default-forced',
      '-metadata:s:a:1',
      'language=fra',
      '-metadata:s:a:1',
      'title=-Français',
      '-metadata:s:a:1',
      'handler_name=-Français',
      '-c:s:0',
      'mov_text',
      '-disposition:s:0',
      '-default-forced',
      '-metadata:s:s:0',
      'language=eng',
      '-metadata:s:s:0',
      'title=English',
      '-metadata:s:s:0',
      'handler_name=English',
      '-c:s:1',
      'mov_text',
      '-disposition:s:1',
      '-default+forced',
      '-metadata:s:s:1',
      'language=spa',
      '-metadata:s:s:1',
      'title=Español=Forzados',
      '-metadata:s:s:1',
      'handler_name=Español=Forzados',
      ...TAIL,
    ]);
    expect(plan.expected.map(({ language, title, default: d, forced }) => ({ language, title, default: d, forced }))).toEqual([
      { language: null, title: null, default: true, forced: false },
      { language: 'eng', title: 'English 5.1', default: true, forced: false },
      { language: 'fra', title: '-Français', default: false, forced: false },
      { language: 'eng', title: 'English', default: false, forced: false },
      { language: 'spa', title: 'Español=Forzados', default: false, forced: true },
    ]);
  });

  it('refuses a file with nothing an MP4 can carry', () => {
    expect(() => transcodePlan(probe([stream(0, 'subtitle', 'dvd_subtitle')]), opts)).toThrow(/no stream an MP4 can carry/);
  });
});
