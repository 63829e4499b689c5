import { describe, expect, it } from 'vitest';
import { JOB_NAMES, jobAboutSchema } from '@mo/shared';
import { jobAbout } from './job-about.ts';

describe('jobAbout', () => {
  it('reads what started a scanner pass or a library scan', () => {
    expect(jobAbout('scan-pass', { trigger: 'schedule' })).toMatchObject({ trigger: 'schedule', path: null });
    expect(jobAbout('library-scan', { trigger: 'api' })).toMatchObject({ trigger: 'api' });
    expect(jobAbout('recycle-purge', { trigger: 'schedule' })).toMatchObject({ trigger: 'schedule' });
  });

  it('reads the one path an organize job names; several or none name no file', () => {
    expect(jobAbout('library-organize', { paths: ['/m/Movies/Heat.1995/Heat.1995.mkv'] })).toMatchObject({ path: '/m/Movies/Heat.1995/Heat.1995.mkv' });
    expect(jobAbout('library-organize', { paths: ['/a', '/b'] }).path).toBeNull();
    expect(jobAbout('library-organize', {}).path).toBeNull();
  });

  it("reads a transcode's file and title", () => {
    const item = { path: '/m/Movies/Heat (1995)/Heat (1995).avi', ext: '.avi', bytes: 1, kind: 'movie', title: 'Heat', status: 'queued' };
    expect(jobAbout('transcode-run', { item })).toMatchObject({ path: item.path, kind: 'movie', title: 'Heat' });
  });

  it("reads a track edit's file, action and the stream as the job saw it", () => {
    const before = [
      { index: 0, type: 'video', codec: 'h264', language: null },
      { index: 2, type: 'audio', codec: 'aac', language: 'jpn' },
    ];
    expect(jobAbout('media-tracks', { path: '/m/a.mkv', action: 'remove', stream: 2, before })).toMatchObject({
      path: '/m/a.mkv',
      track: { action: 'remove', index: 2, type: 'audio', language: 'jpn' },
    });
    expect(jobAbout('media-tracks', { path: '/m/a.mkv', action: 'set_default', stream: 5, before })?.track).toEqual({
      action: 'set_default',
      index: 5,
      type: null,
      language: null,
    });
  });

  it('reads what a manual import says the download is', () => {
    const as = { kind: 'episode', title: 'The Office', season: 1, episodes: [2, 3] };
    expect(jobAbout('manual-import', { path: '/dl/x.mkv', as, remember: false })).toMatchObject({
      path: '/dl/x.mkv',
      kind: 'episode',
      title: 'The Office',
      year: null,
      season: 1,
      episodes: [2, 3],
    });
  });

  it('reads how many imports a notify job tells of, the first by its destination', () => {
    const imports = [
      { source: '/dl/a.mkv', destination: '/m/Movies/A (2000)/A (2000).mkv' },
      { source: '/dl/b.mkv', destination: '/m/Movies/B (2001)/B (2001).mkv' },
    ];
    expect(jobAbout('notify', { pass: 'p', imports })).toMatchObject({ path: imports[0]!.destination, imports: 2, undone: false });
    expect(jobAbout('notify', { pass: 'p', imports, undone: 7 })).toMatchObject({ undone: true });
  });

  it('gives nulls, never an error, for a payload of another shape or a job it does not know', () => {
    for (const data of [null, undefined, 'x', 3, [], { item: 'x', as: [], imports: 'x', stream: 'x', trigger: 4 }]) {
      for (const name of [...JOB_NAMES, 'evil']) expect(jobAboutSchema.safeParse(jobAbout(name, data)).success).toBe(true);
    }
    expect(jobAbout('evil', { path: '/x' })).toMatchObject({ path: null, trigger: null });
  });
});
