import type { VideoEncoder } from './transcode-command.ts';
import { encoderCheckArgv } from './encoder-check-command.ts';
import { runTool, ToolError } from './run.ts';

/** A hardware encoder may take seconds to open its device the first time; one that hangs must not hold the test. */
const CHECK_TIMEOUT_MS = 20_000;
const MAX_REASON_CHARS = 300;

export interface EncoderReport {
  /** The encoders a test encode succeeded with, in the order tested. */
  encoders: VideoEncoder[];
  /** Each failed encoder with the first line ffmpeg gave. */
  errors: Partial<Record<VideoEncoder, string>>;
  tested_at: string;
}

/** `[h264_nvenc @ 0x55d4eba49680] Cannot load libcuda.so.1` → `Cannot load libcuda.so.1`. */
function reason(err: ToolError): string {
  const line = err.stderr
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  const text = line ? line.replace(/^\[[^\]]* @ 0x[0-9a-f]+\]\s*/, '') : err.message;
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}

/** Encodes a second of test video with each encoder, one after the other so that jobs keep their share of the CPU. */
export async function checkEncoders(encoders: readonly VideoEncoder[], opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<EncoderReport> {
  const working: VideoEncoder[] = [];
  const errors: EncoderReport['errors'] = {};
  for (const encoder of encoders) {
    try {
      await runTool(encoderCheckArgv(encoder), { timeoutMs: opts.timeoutMs ?? CHECK_TIMEOUT_MS, signal: opts.signal });
      working.push(encoder);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      errors[encoder] = reason(err);
    }
  }
  return { encoders: working, errors, tested_at: new Date().toISOString() };
}
