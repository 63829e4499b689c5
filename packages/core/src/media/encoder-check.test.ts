import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkEncoders } from './encoder-check.ts';

// Debian's ffmpeg lists h264_nvenc and h264_vaapi among its encoders whatever the machine has.
const HAS_NVIDIA = existsSync('/dev/nvidiactl');
const HAS_DRI = existsSync('/dev/dri/renderD128');

describe('checkEncoders (real ffmpeg)', () => {
  it('finds that libx264 works', async () => {
    const report = await checkEncoders(['libx264']);
    expect(report.encoders).toEqual(['libx264']);
    expect(report.errors).toEqual({});
    expect(Date.now() - Date.parse(report.tested_at)).toBeLessThan(5000);
  });

  it.skipIf(HAS_NVIDIA)('finds that h264_nvenc, listed by ffmpeg -encoders, does not work without an NVIDIA device, and says why', async () => {
    const report = await checkEncoders(['h264_nvenc', 'libx264']);
    expect(report.encoders).toEqual(['libx264']);
    // The first line ffmpeg gave, without its `[h264_nvenc @ 0x…]` prefix.
    expect(report.errors.h264_nvenc).toMatch(/^[^[]/);
    expect(report.errors.h264_nvenc!.length).toBeGreaterThan(5);
  });

  it.skipIf(HAS_DRI)('finds that h264_vaapi does not work without a render device', async () => {
    const report = await checkEncoders(['h264_vaapi']);
    expect(report.encoders).toEqual([]);
    expect(report.errors.h264_vaapi).toMatch(/renderD128|VA/);
  });

  it('stops a test encode that takes too long, and counts the encoder as not working', async () => {
    const report = await checkEncoders(['libx264'], { timeoutMs: 1 });
    expect(report.encoders).toEqual([]);
    expect(report.errors.libx264).toMatch(/longer than/);
  });

  it('stops when the worker shuts down', async () => {
    const stop = new AbortController();
    stop.abort();
    const report = await checkEncoders(['libx264'], { signal: stop.signal });
    expect(report.encoders).toEqual([]);
    expect(report.errors.libx264).toMatch(/cancelled/);
  });
});
