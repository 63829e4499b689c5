import { VAAPI_DEVICE, videoEncoderArgs, type VideoEncoder } from './transcode-command.ts';

/** One second of generated video: enough for an encoder to open its device and emit frames. */
export const TEST_SOURCE = 'testsrc2=size=320x240:rate=25:duration=1';

/** The configured encoder, then libx264: the one a transcode falls back to when the configured one fails. */
export function encodersToCheck(configured: VideoEncoder): VideoEncoder[] {
  return configured === 'libx264' ? ['libx264'] : [configured, 'libx264'];
}

/**
 * ffmpeg argv for a test encode with `encoder`, using the flags a transcode would: `ffmpeg
 * -encoders` lists encoders whose device, driver or library is missing, a real encode does not
 * succeed with them. The output is discarded.
 */
export function encoderCheckArgv(encoder: VideoEncoder): string[] {
  const device = encoder === 'h264_vaapi' ? ['-vaapi_device', VAAPI_DEVICE] : [];
  return [
    'ffmpeg',
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    ...device,
    '-f',
    'lavfi',
    '-i',
    TEST_SOURCE,
    ...videoEncoderArgs(encoder, 0),
    '-f',
    'null',
    '-',
  ];
}
