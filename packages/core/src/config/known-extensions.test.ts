import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, KNOWN_SUBTITLE_EXTENSIONS, KNOWN_VIDEO_EXTENSIONS } from '@mo/shared';
import { extensionProblem } from './known-extensions.ts';

describe('the known types', () => {
  it('hold every default of the config', () => {
    for (const ext of DEFAULT_CONFIG.library.video_extensions) expect(KNOWN_VIDEO_EXTENSIONS.has(ext)).toBe(true);
    for (const ext of DEFAULT_CONFIG.library.subtitle_extensions) expect(KNOWN_SUBTITLE_EXTENSIONS.has(ext)).toBe(true);
  });

  it('are apart: no type is both video and subtitle, and .nfo is neither', () => {
    for (const ext of KNOWN_SUBTITLE_EXTENSIONS) expect(KNOWN_VIDEO_EXTENSIONS.has(ext)).toBe(false);
    expect(KNOWN_VIDEO_EXTENSIONS.has('.nfo') || KNOWN_SUBTITLE_EXTENSIONS.has('.nfo')).toBe(false);
  });
});

describe('extensionProblem', () => {
  it('accepts known types of the list’s kind', () => {
    expect(extensionProblem('video_extensions', ['.mkv', '.mp4', '.ts', '.m2ts', '.webm', '.flv', '.ogv'], [])).toBeNull();
    expect(extensionProblem('subtitle_extensions', ['.srt', '.ass', '.vtt', '.sup', '.smi', '.ttml'], [])).toBeNull();
    expect(extensionProblem('subtitle_extensions', [], [])).toBeNull();
  });

  it.each([
    '.pth',
    '.so',
    '.py',
    '.pyc',
    '.sh',
    '.bash',
    '.exe',
    '.dll',
    '.js',
    '.mjs',
    '.cjs',
    '.desktop',
    '.service',
    '.timer',
    '.conf',
    '.rules',
    '.plist',
    '.bashrc',
    '.profile',
    '.php',
    '.pl',
    '.rb',
    '.jar',
    '.ko',
    '.a',
    '.json',
    '.toml',
    '.css',
    '.html',
    '.txt',
    '.iso',
    '.img',
    '.zip',
    '.x264',
  ])('refuses %s in either list', (ext) => {
    expect(extensionProblem('video_extensions', ['.mkv', ext], [])).toEqual({ index: 1, message: expect.stringContaining(`${ext} is not a known video type`) });
    expect(extensionProblem('subtitle_extensions', [ext], [])).toEqual({ index: 0, message: expect.stringContaining(`${ext} is not a known subtitle type`) });
  });

  it('refuses a type of the other kind', () => {
    expect(extensionProblem('video_extensions', ['.srt'], [])?.message).toMatch(/not a known video type/);
    expect(extensionProblem('subtitle_extensions', ['.mkv'], [])?.message).toMatch(/not a known subtitle type/);
  });

  it('refuses .nfo, which is read as metadata on its own', () => {
    expect(extensionProblem('video_extensions', ['.nfo'], [])?.message).toMatch(/\.nfo is always read as metadata/);
    expect(extensionProblem('subtitle_extensions', ['.srt', '.nfo'], ['.nfo'])).toEqual({ index: 1, message: expect.stringMatching(/metadata/) });
  });

  it('accepts what the config file’s own list for that key names', () => {
    expect(extensionProblem('video_extensions', ['.mkv', '.bdmv'], ['.mkv', '.bdmv'])).toBeNull();
    expect(extensionProblem('subtitle_extensions', ['.bdmv'], ['.mkv', '.bdmv'])).toBeNull();
    expect(extensionProblem('video_extensions', ['.pth'], ['.mkv'])?.index).toBe(0);
  });
});
