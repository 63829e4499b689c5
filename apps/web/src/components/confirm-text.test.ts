import { describe, expect, it } from 'vitest';
import {
  cancelAllQuestion,
  discardOriginalQuestion,
  emptyRecycleQuestion,
  importQuestion,
  organizeQuestion,
  replaceQuestion,
  transcodeAllQuestion,
} from './confirm-text.ts';

describe('transcodeAllQuestion', () => {
  it('with the recycle bin on, the originals go there after each transcode', () => {
    expect(transcodeAllQuestion(['.avi'], false, false, true).consequence).toContain(
      'The original AVI file will go to the recycle bin after each transcode succeeds',
    );
  });

  it('names the count, the container and that the originals are deleted when keep_original is off', () => {
    expect(transcodeAllQuestion(Array(42).fill('.mkv'), false, false)).toEqual({
      title: 'Transcode 42 files to MP4?',
      consequence:
        'The 42 original MKV files will be deleted after each transcode succeeds (keep_original is off); a failed transcode leaves its original as it was.',
      confirm: 'Transcode 42 files',
    });
  });

  it('says the originals are kept when keep_original is on, and names no container when they differ', () => {
    const q = transcodeAllQuestion(['.mkv', '.avi'], true, false);
    expect(q.consequence).toBe('The 2 original files are kept beside their MP4s (keep_original is on); Discard original removes one later.');
  });

  it('speaks of one file in the singular, and of a paused queue', () => {
    const q = transcodeAllQuestion(['.avi'], false, true);
    expect(q.title).toBe('Transcode 1 file to MP4?');
    expect(q.consequence).toMatch(/^The original AVI file will be deleted .* The queue is paused: they start when it is resumed\.$/);
  });
});

describe('cancelAllQuestion', () => {
  it('names the waiting jobs and says running ones go on', () => {
    expect(cancelAllQuestion(3, 1)).toEqual({
      title: 'Cancel 3 waiting transcodes?',
      consequence: 'They leave the run queue and stay in line without a job; no file is touched. 1 transcode already running goes on.',
      confirm: 'Cancel 3 transcodes',
    });
    expect(cancelAllQuestion(1, 0).consequence).toBe('It leaves the run queue and stays in line without a job; no file is touched.');
  });
});

describe('importQuestion', () => {
  it.each([
    ['move', 'Move 3 files and 1 subtitle or info file into the library?', /^They leave the downloads folder/],
    ['hardlink', 'Hard-link 3 files and 1 subtitle or info file into the library?', /^The downloads stay where they are \(for seeding\)/],
    ['copy', 'Copy 3 files and 1 subtitle or info file into the library?', /copied into the library/],
  ] as const)('says what %s does to the downloads', (mode, title, fate) => {
    const q = importQuestion(3, 1, mode);
    expect(q.title).toBe(title);
    expect(q.consequence).toMatch(fate);
    expect(q.consequence).toContain('Only the files of this preview are imported');
  });

  it('leaves out sidecars when there are none, and speaks of one file in the singular', () => {
    expect(importQuestion(1, 0, 'move')).toMatchObject({ title: 'Move 1 file into the library?', confirm: 'Move 1 file' });
    expect(importQuestion(1, 0, 'move').consequence).toMatch(/^It leaves the downloads folder/);
    expect(importQuestion(1, 2, 'hardlink').consequence).toMatch(/^The download stays where it is \(for seeding\); the library gets a second name for it/);
    expect(importQuestion(1, 0, 'copy').consequence).toMatch(/^The download stays where it is; it is copied/);
  });
});

describe('discardOriginalQuestion', () => {
  it('with the recycle bin on, says the original goes there, not away', () => {
    expect(discardOriginalQuestion('/m/Movies/Heat (1995)/Heat (1995).mkv', true)).toMatchObject({
      title: 'Move the original Heat (1995).mkv to the recycle bin?',
      confirm: 'Recycle the original',
    });
  });

  it('names the file and says the MP4 stays', () => {
    expect(discardOriginalQuestion('/m/Movies/Heat (1995)/Heat (1995).mkv')).toEqual({
      title: 'Delete the original Heat (1995).mkv?',
      consequence: '/m/Movies/Heat (1995)/Heat (1995).mkv is deleted for good; the MP4 made from it stays.',
      confirm: 'Delete the original',
    });
  });
});

describe('emptyRecycleQuestion', () => {
  it('says how many files and bytes go for good', () => {
    expect(emptyRecycleQuestion(3, '1.20 GB')).toEqual({
      title: 'Delete 3 files from the recycle bin?',
      consequence: 'All 3 files are deleted for good (1.20 GB), and can no longer be restored.',
      confirm: 'Delete 3 files',
    });
    expect(emptyRecycleQuestion(1, '5 B')).toMatchObject({
      title: 'Delete 1 file from the recycle bin?',
      consequence: 'It is deleted for good (5 B), and can no longer be restored.',
    });
  });
});

describe('organizeQuestion', () => {
  it('names the count of files and folders in the title and on the button', () => {
    expect(organizeQuestion(42, 0)).toMatchObject({ title: 'Rename 42 files?', confirm: 'Rename 42 files' });
    expect(organizeQuestion(40, 2).confirm).toBe('Rename 40 files and 2 folders');
    expect(organizeQuestion(0, 1)).toMatchObject({ title: 'Rename 1 folder?', confirm: 'Rename 1 folder' });
    expect(organizeQuestion(1, 0).consequence).toMatch(
      /^It takes the name the templates give, in its folder on the same drive; nothing is copied or deleted\./,
    );
  });
});

describe('replaceQuestion', () => {
  it('names the download and the held file that goes to the recycle bin, and how to get it back', () => {
    const q = replaceQuestion('/dl/Heat.1995.1080p.BluRay.mkv', '/m/Movies/Heat (1995)/Heat (1995).avi');
    expect(q.title).toBe('Replace the library’s file with Heat.1995.1080p.BluRay.mkv?');
    expect(q.consequence).toMatch(/^\/m\/Movies\/Heat \(1995\)\/Heat \(1995\)\.avi and its subtitles go to the drive’s recycle bin first; undoing/);
    expect(q.confirm).toBe('Replace and import');
    expect(replaceQuestion('/dl/x.mkv', null).consequence).toMatch(/^The file the library holds for it/);
  });
});
