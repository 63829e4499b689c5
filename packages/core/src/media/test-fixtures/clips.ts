// Real media for tests, made with ffmpeg's lavfi sources: tiny, fast to make, and with the
// things remuxes lose when they go wrong (languages, titles, flags, chapters, attachments).
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runTool } from '../run.ts';

export interface ClipOptions {
  seconds?: number;
  /** "WxH" */
  size?: string;
  video?: 'h264' | 'mpeg4';
  audio?: 'aac' | 'mp3';
  /** Two SubRip tracks: eng "English" (default) and spa "Español" (forced). */
  subtitles?: boolean;
  /** With `subtitles`: the English track is not default either, so no subtitle is. */
  noDefaultSubtitle?: boolean;
  /** Two chapters and a title. */
  chapters?: boolean;
  /** A font attachment (Matroska only). */
  attachment?: boolean;
}

const SRT = (text: string, seconds: number) => `1\n00:00:00,000 --> 00:00:0${Math.min(9, Math.floor(seconds / 2))},000\n${text}\n\n`;

/**
 * Writes a clip with one video stream and two audio streams: 0 video, 1 audio eng "English
 * Stereo" (default), 2 audio fra "Français"; then 3 and 4 subtitles when asked for.
 */
export async function makeClip(file: string, opts: ClipOptions = {}): Promise<void> {
  const seconds = opts.seconds ?? 3;
  const dir = dirname(file);
  const inputs = [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${opts.size ?? '160x120'}:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=660:duration=${seconds}`,
  ];
  const maps = ['-map', '0:v', '-map', '1:a', '-map', '2:a'];
  const meta = [
    '-metadata:s:a:0',
    'language=eng',
    '-metadata:s:a:0',
    'title=English Stereo',
    '-metadata:s:a:1',
    'language=fra',
    '-metadata:s:a:1',
    'title=Français',
    '-disposition:v:0',
    'default',
    '-disposition:a:0',
    'default',
    '-disposition:a:1',
    '0',
  ];
  let next = 3;
  if (opts.subtitles) {
    await writeFile(join(dir, '.clip-eng.srt'), SRT('Hello', seconds));
    await writeFile(join(dir, '.clip-spa.srt'), SRT('Hola', seconds));
    inputs.push('-i', join(dir, '.clip-eng.srt'), '-i', join(dir, '.clip-spa.srt'));
    maps.push('-map', `${next}`, '-map', `${next + 1}`);
    next += 2;
    meta.push(
      '-metadata:s:s:0',
      'language=eng',
      '-metadata:s:s:0',
      'title=English',
      '-metadata:s:s:1',
      'language=spa',
      '-metadata:s:s:1',
      'title=Español',
      '-disposition:s:0',
      opts.noDefaultSubtitle ? '0' : 'default',
      '-disposition:s:1',
      'forced',
    );
  }
  if (opts.chapters) {
    const half = Math.round((seconds * 1000) / 2);
    await writeFile(
      join(dir, '.clip-chapters.txt'),
      `;FFMETADATA1\ntitle=Test Clip\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=${half}\ntitle=One\n` +
        `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${half}\nEND=${seconds * 1000}\ntitle=Two\n`,
    );
    inputs.push('-i', join(dir, '.clip-chapters.txt'));
    maps.push('-map_metadata', `${next}`, '-map_chapters', `${next}`);
    next += 1;
  }
  const attach: string[] = [];
  if (opts.attachment) {
    await writeFile(join(dir, '.clip-font.ttf'), 'not really a font');
    attach.push('-attach', join(dir, '.clip-font.ttf'), '-metadata:s:t:0', 'mimetype=application/x-truetype-font');
  }
  const video = opts.video === 'mpeg4' ? ['-c:v', 'mpeg4', '-q:v', '5'] : ['-c:v', 'libx264', '-preset', 'ultrafast'];
  const audio = opts.audio === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '64k'] : ['-c:a', 'aac', '-b:a', '64k'];
  const subs = opts.subtitles ? ['-c:s', file.endsWith('.mp4') ? 'mov_text' : 'srt'] : [];
  await runTool(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...inputs, ...maps, ...video, ...audio, ...subs, ...meta, ...attach, file], {
    timeoutMs: 60_000,
  });
}

/** The full clip most tests use: video, two audio and two subtitle tracks, chapters, a font. */
export function fullClip(file: string): Promise<void> {
  return makeClip(file, { subtitles: true, chapters: true, attachment: file.endsWith('.mkv') });
}
