import { copyFile, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { demuxerFor, inputArgs, muxerFor, requireDemuxer } from './containers.ts';
import { probeCommand } from './probe.ts';
import { probeFile, runTool, ToolError } from './run.ts';

/** Every extension read, with the demuxer that must read it. */
const READ: Record<string, string> = {
  '.mkv': 'matroska',
  '.mk3d': 'matroska',
  '.webm': 'matroska',
  '.mp4': 'mov',
  '.m4v': 'mov',
  '.mov': 'mov',
  '.3gp': 'mov',
  '.f4v': 'mov',
  '.avi': 'avi',
  '.divx': 'avi',
  '.xvid': 'avi',
  '.ts': 'mpegts',
  '.m2ts': 'mpegts',
  '.mts': 'mpegts',
  '.wmv': 'asf',
  '.asf': 'asf',
  '.mpg': 'mpeg',
  '.mpeg': 'mpeg',
  '.vob': 'mpeg',
  '.flv': 'flv',
  '.ogm': 'ogg',
  '.ogv': 'ogg',
  '.rm': 'rm',
  '.rmvb': 'rm',
};
/** A video codec each demuxer's own muxer takes, to make a real file of it. */
const CODEC: Record<string, string> = {
  matroska: 'mpeg4',
  mov: 'mpeg4',
  avi: 'mpeg4',
  mpegts: 'mpeg4',
  asf: 'msmpeg4v3',
  mpeg: 'mpeg2video',
  flv: 'flv',
  ogg: 'libtheora',
  rm: 'rv10',
};

describe('demuxerFor', () => {
  it('names one demuxer per extension read, whatever the case', () => {
    for (const [ext, format] of Object.entries(READ)) {
      expect(demuxerFor(`/m/a${ext}`)?.format).toBe(format);
      expect(demuxerFor(`/m/A${ext.toUpperCase()}`)?.format).toBe(format);
    }
  });

  it('reads nothing else: no playlists, lists, disc images or stream files', () => {
    for (const name of ['a.m3u8', 'a.m3u', 'a.ffconcat', 'a.txt', 'a.iso', 'a.strm', 'a.sdp', 'a.mpd', 'a.srt', 'a.nfo', 'a', 'a.mkv.part']) {
      expect(demuxerFor(`/m/${name}`)).toBeNull();
    }
  });

  it('reads every container it remuxes', () => {
    for (const ext of ['.mkv', '.webm', '.mp4', '.m4v', '.mov', '.avi', '.ts', '.m2ts', '.wmv', '.mpg', '.mpeg', '.flv']) {
      expect(muxerFor(`a${ext}`)).not.toBeNull();
      expect(demuxerFor(`a${ext}`)).not.toBeNull();
    }
  });

  it('turns an extension it does not read into a 400 naming the path', () => {
    const err = (() => {
      try {
        requireDemuxer('/m/a.m3u8');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('bad_request');
    expect((err as AppError).message).toMatch(/^path: \/m\/a\.m3u8: \.m3u8 is not a container/);
  });

  it('keeps MOV from opening the files its references name', () => {
    expect(inputArgs(requireDemuxer('a.mp4'), '/m/a.mp4')).toEqual([
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'mov',
      '-f',
      'mov',
      '-enable_drefs',
      '0',
      '-use_absolute_path',
      '0',
      '-i',
      '/m/a.mp4',
    ]);
  });
});

describe('reading real files with the named demuxer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mo-demux-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads a file of every extension in its container', async () => {
    for (const [format, codec] of Object.entries(CODEC)) {
      await runTool(
        [
          'ffmpeg',
          '-nostdin',
          '-v',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          'testsrc2=size=64x48:rate=25:duration=1',
          '-c:v',
          codec,
          '-f',
          format,
          join(dir, `made.${format}`),
        ],
        { timeoutMs: 60_000 },
      );
    }
    for (const [ext, format] of Object.entries(READ)) {
      const file = join(dir, `clip${ext}`);
      await copyFile(join(dir, `made.${format}`), file);
      const probe = await probeFile(file);
      expect(
        probe.streams.map((s) => s.type),
        ext,
      ).toEqual(['video']);
    }
  }, 120_000);

  it('does not follow an HLS playlist or an ffconcat list named .mkv, even when ffprobe is run on it', async () => {
    // What ffprobe would otherwise read: a clip in a folder nobody asked for.
    await runTool(
      [
        'ffmpeg',
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=64x48:rate=25:duration=1',
        '-c:v',
        'mpeg4',
        '-f',
        'mpegts',
        join(dir, 'secret.ts'),
      ],
      { timeoutMs: 60_000 },
    );
    await symlink(join(dir, 'secret.ts'), join(dir, 'near.ts'));
    await writeFile(join(dir, 'hls.mkv'), `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n${join(dir, 'secret.ts')}\n#EXT-X-ENDLIST\n`);
    await writeFile(join(dir, 'list.mkv'), "ffconcat version 1.0\nfile 'near.ts'\n");
    // Without a named demuxer ffprobe reads the clip through either (the check that this test can fail).
    const unnamed = await runTool(['ffprobe', '-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', join(dir, 'hls.mkv')], {
      timeoutMs: 30_000,
    });
    expect(unnamed.stdout).toContain('mpeg4');
    for (const name of ['hls.mkv', 'list.mkv']) {
      const file = join(dir, name);
      const err = await runTool(probeCommand(file, requireDemuxer(file)), { timeoutMs: 30_000 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(ToolError);
      expect((err as ToolError).stderr, name).toMatch(/EBML header parsing failed|Invalid data/);
    }
  });
});
