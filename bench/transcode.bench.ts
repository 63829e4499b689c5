// A transcode end to end through the real code path (probe, ffmpeg into a temp beside the file,
// ffprobe verification, placement), with libx264 as the baseline and each hardware encoder asked
// for, in the same run on the same file. On a box with an NVIDIA GPU this is the h264_nvenc check
// of the README's GPU section; elsewhere it says why the encoder could not run (the job then falls
// back to libx264, as a real transcode does) and reports libx264 alone.
//
// Run: pnpm bench transcode
//   TRANSCODE_BENCH_SECONDS=30        length of the generated 1080p MPEG-4 Part 2 source (default 30)
//   TRANSCODE_BENCH_ENCODERS=h264_nvenc,h264_vaapi   encoders to try beside libx264 (default h264_nvenc)
//   TRANSCODE_BENCH_DIR=/mnt/media    where to work (default the system temp dir)
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeFile, runTool, transcodeToMp4, type VideoEncoder, workJournal } from '@mo/core/media';
import { dataDir } from '@mo/core';
import { VIDEO_ENCODERS } from '@mo/shared';

const seconds = Number(process.env.TRANSCODE_BENCH_SECONDS ?? 30);
const asked = (process.env.TRANSCODE_BENCH_ENCODERS ?? 'h264_nvenc')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = asked.filter((e) => !(VIDEO_ENCODERS as readonly string[]).includes(e));
if (unknown.length > 0) {
  console.error(`unknown encoder(s): ${unknown.join(', ')}; known: ${VIDEO_ENCODERS.join(', ')}`);
  process.exit(2);
}
const dir = await mkdtemp(join(process.env.TRANSCODE_BENCH_DIR ?? tmpdir(), 'mo-transcode-bench-'));

interface Run {
  asked: VideoEncoder;
  ran: string | null;
  ms: number;
  bytes: number;
  fellBack: string | null;
}

async function transcode(source: string, encoder: VideoEncoder): Promise<Run> {
  const file = join(dir, `${encoder}.avi`);
  await runTool(['cp', source, file], { timeoutMs: 60_000 });
  let fellBack: string | null = null;
  const t0 = performance.now();
  const out = await transcodeToMp4({
    file,
    encoder,
    journal: workJournal(dataDir(join(dir, 'data'))),
    jobId: null,
    adoptExisting: false,
    onFallback: (_from, err) => (fellBack = err.message.split('\n').slice(-2).join(' ').slice(0, 200)),
  });
  const ms = performance.now() - t0;
  const bytes = (await stat(out.output)).size;
  await rm(out.output);
  await rm(file);
  return { asked: encoder, ran: out.encoder, ms, bytes, fellBack };
}

try {
  const source = join(dir, 'source.avi');
  await runTool(
    [
      'ffmpeg',
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=25:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-c:v',
      'mpeg4',
      '-q:v',
      '3',
      '-c:a',
      'libmp3lame',
      source,
    ],
    { timeoutMs: 600_000 },
  );
  const probe = await probeFile(source);
  console.log(`source: 1920x1080 MPEG-4 Part 2 + MP3, ${probe.duration_seconds?.toFixed(0)} s, ${((await stat(source)).size / 1e6).toFixed(0)} MB; in ${dir}`);

  const base = await transcode(source, 'libx264');
  const line = (r: Run) =>
    `${r.asked.padEnd(11)} ran ${String(r.ran).padEnd(11)} ${(r.ms / 1000).toFixed(2)} s (${(seconds / (r.ms / 1000)).toFixed(1)}x real time), ` +
    `${(r.bytes / 1e6).toFixed(1)} MB, ${(r.ms / base.ms).toFixed(2)}x the time of libx264`;
  console.log(line(base));
  for (const encoder of asked) {
    const r = await transcode(source, encoder as VideoEncoder);
    console.log(line(r));
    if (r.fellBack) console.log(`  ${encoder} could not run here, so the job fell back to libx264: ${r.fellBack}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
