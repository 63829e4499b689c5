import { describe, expect, it } from 'vitest';
import { VIDEO_ENCODERS } from '@mo/shared';
import { encoderCheckArgv, encodersToCheck } from './encoder-check-command.ts';

const HEAD = ['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-nostats'];
const SOURCE = ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=1'];
const NULL_OUTPUT = ['-f', 'null', '-'];

describe('encodersToCheck', () => {
  it('tests the configured encoder, then libx264 that transcodes fall back to', () => {
    expect(encodersToCheck('h264_nvenc')).toEqual(['h264_nvenc', 'libx264']);
    expect(encodersToCheck('h264_qsv')).toEqual(['h264_qsv', 'libx264']);
    expect(encodersToCheck('h264_vaapi')).toEqual(['h264_vaapi', 'libx264']);
  });

  it('tests libx264 once when it is the configured one', () => {
    expect(encodersToCheck('libx264')).toEqual(['libx264']);
  });
});

describe('encoderCheckArgv', () => {
  it('encodes a second of generated video with the flags a transcode uses, to no file', () => {
    expect(encoderCheckArgv('libx264')).toEqual([
      ...HEAD,
      ...SOURCE,
      '-c:v:0',
      'libx264',
      '-preset:v:0',
      'medium',
      '-crf:v:0',
      '20',
      '-pix_fmt:v:0',
      'yuv420p',
      ...NULL_OUTPUT,
    ]);
    expect(encoderCheckArgv('h264_nvenc')).toEqual([
      ...HEAD,
      ...SOURCE,
      '-c:v:0',
      'h264_nvenc',
      '-preset:v:0',
      'p5',
      '-rc:v:0',
      'vbr',
      '-cq:v:0',
      '23',
      '-b:v:0',
      '0',
      '-pix_fmt:v:0',
      'yuv420p',
      ...NULL_OUTPUT,
    ]);
    expect(encoderCheckArgv('h264_qsv')).toEqual([
      ...HEAD,
      ...SOURCE,
      '-c:v:0',
      'h264_qsv',
      '-preset:v:0',
      'medium',
      '-global_quality:v:0',
      '23',
      '-pix_fmt:v:0',
      'nv12',
      ...NULL_OUTPUT,
    ]);
  });

  it('opens the VAAPI device before the input, as a transcode does', () => {
    expect(encoderCheckArgv('h264_vaapi')).toEqual([
      ...HEAD,
      '-vaapi_device',
      '/dev/dri/renderD128',
      ...SOURCE,
      '-filter:v:0',
      'format=nv12,hwupload',
      '-c:v:0',
      'h264_vaapi',
      '-qp:v:0',
      '23',
      ...NULL_OUTPUT,
    ]);
  });

  it('covers every encoder the config accepts, each writing nothing to disk', () => {
    for (const encoder of VIDEO_ENCODERS) {
      const argv = encoderCheckArgv(encoder);
      expect(argv.slice(-3)).toEqual(NULL_OUTPUT);
      expect(argv[argv.indexOf('-c:v:0') + 1]).toBe(encoder);
    }
  });
});
