import { describe, expect, it } from 'vitest';
import { JOB_NAMES, nothingAbout } from '@mo/shared';
import { jobTitle, mergeJobs, runSeconds, type JobAbout, type ListedJob } from './job-rows.ts';
import type { LiveJob } from './live.ts';

const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const ms = (s: number) => Date.parse(T(s));

function listed(id: string, state: ListedJob['state'], extra: Partial<ListedJob> = {}): ListedJob {
  return {
    id,
    queue: 'transcode',
    name: 'transcode-run',
    state,
    progress: 0,
    error: null,
    error_code: null,
    created_at: T(1),
    started_at: state === 'waiting' ? null : T(2),
    finished_at: state === 'completed' || state === 'failed' ? T(3) : null,
    summary: null,
    about: nothingAbout(),
    ...extra,
  };
}
function live(id: string, state: LiveJob['state'], at: number, extra: Partial<LiveJob> = {}): LiveJob {
  return { queue: 'transcode', id, name: 'transcode-run', state, at, ...extra };
}

describe('mergeJobs', () => {
  it('shows the list as it is when nothing came after it', () => {
    const jobs = [listed('2', 'active', { progress: { percent: 10 } }), listed('1', 'completed')];
    const older = [live('2', 'active', ms(5), { progress: { percent: 5 } }), live('1', 'active', ms(5))];
    expect(mergeJobs(jobs, ms(10), older)).toEqual(jobs);
    expect(mergeJobs(jobs, ms(10), [])).toEqual(jobs);
  });

  it("takes a newer event's state, progress and error over the list's, keeping the list's times", () => {
    const running = listed('2', 'active', { progress: { percent: 10 } });
    const [row] = mergeJobs([running], ms(10), [live('2', 'active', ms(11), { progress: { percent: 60, speed: 2, out_time_seconds: 30 } })]);
    expect(row).toMatchObject({ state: 'active', progress: { percent: 60, speed: 2, out_time_seconds: 30 }, started_at: T(2) });
    const [ended] = mergeJobs([running], ms(10), [live('2', 'failed', ms(12), { error: 'cancelled' })]);
    expect(ended).toMatchObject({ state: 'failed', error: 'cancelled', progress: { percent: 10 } });
  });

  it('puts jobs the list does not hold yet first, newest first; older ones it no longer holds are left out', () => {
    const rows = mergeJobs([listed('1', 'completed')], ms(10), [
      live('3', 'active', ms(11)),
      live('4', 'active', ms(12), { queue: 'scan', name: 'scan-pass' }),
      live('0', 'completed', ms(9)),
    ]);
    expect(rows.map((r) => `${r.queue}:${r.id}`)).toEqual(['scan:4', 'transcode:3', 'transcode:1']);
    expect(rows[0]).toMatchObject({ state: 'active', started_at: null, finished_at: null, summary: null, error: null, about: null });
  });

  it('tells jobs of two queues with the same id apart', () => {
    const rows = mergeJobs([listed('1', 'active')], ms(10), [live('1', 'failed', ms(11), { queue: 'media', name: 'media-tracks' })]);
    expect(rows.map((r) => `${r.queue}:${r.id}:${r.state}`)).toEqual(['media:1:failed', 'transcode:1:active']);
  });

  it('shows what the stream told before the list first came', () => {
    expect(mergeJobs([], 0, [live('1', 'active', ms(1))]).map((r) => r.id)).toEqual(['1']);
  });
});

describe('runSeconds', () => {
  it('is the time from start to end, or to now while it runs', () => {
    expect(runSeconds({ state: 'completed', started_at: T(2), finished_at: T(32) }, ms(100))).toBe(30);
    expect(runSeconds({ state: 'active', started_at: T(2), finished_at: null }, ms(12))).toBe(10);
  });
  it('is null for a job that has not run, or waits for another attempt', () => {
    expect(runSeconds({ state: 'waiting', started_at: null, finished_at: null }, ms(12))).toBeNull();
    expect(runSeconds({ state: 'delayed', started_at: T(2), finished_at: null }, ms(12))).toBeNull();
    expect(runSeconds({ state: 'active', started_at: T(20), finished_at: null }, ms(12))).toBe(0);
  });
});

const about = (a: Partial<JobAbout>): JobAbout => ({ ...nothingAbout(), ...a });
const title = (name: string, a: Partial<JobAbout> | null, id = 'tr-0ff6a1b2', queue = 'scan') =>
  jobTitle({ queue, id, name, about: a === null ? null : about(a) });

describe('jobTitle', () => {
  it('names scanner passes by what started them; the periodic one also by its id before its payload is known', () => {
    expect(title('scan-pass', { trigger: 'api' }, '12')).toBe('Downloads scan');
    expect(title('scan-pass', { trigger: 'watch' }, '13')).toBe('Downloads scan (new files)');
    expect(title('scan-pass', { trigger: 'schedule' }, 'repeat:periodic-scan-pass:1764320000000')).toBe('Scheduled downloads scan');
    expect(title('scan-pass', null, 'repeat:periodic-scan-pass:1764320000000')).toBe('Scheduled downloads scan');
    expect(title('scan-pass', null, '14')).toBe('Downloads scan');
  });

  it('names library scans', () => {
    expect(title('library-scan', { trigger: 'api' }, '3', 'library')).toBe('Library scan');
    expect(title('library-scan', { trigger: 'schedule' }, '3', 'library')).toBe('Scheduled library scan');
    expect(title('library-scan', null, '3', 'library')).toBe('Library scan');
    expect(title('recycle-purge', { trigger: 'schedule' }, 'repeat:daily-recycle-purge:1', 'library')).toBe('Recycle bin purge');
  });

  it('names an organize job by the one file it renames, else by what it does', () => {
    expect(title('library-organize', { path: '/m/TV/Lost/Season 1/lost.s01e01.mkv' }, '4', 'library')).toBe('Rename lost.s01e01.mkv to the naming templates');
    expect(title('library-organize', null, '4', 'library')).toBe('Rename library files to the naming templates');
  });

  it('names a transcode by its file, else its title', () => {
    expect(title('transcode-run', { path: '/m/Movies/Heat (1995)/Heat (1995).avi', kind: 'movie', title: 'Heat' })).toBe('Transcode Heat (1995).avi to MP4');
    expect(title('transcode-run', { kind: 'episode', title: 'Lost' })).toBe('Transcode of Lost to MP4');
    expect(title('transcode-run', null)).toBe('Transcode to MP4');
  });

  it('names a track edit by what it does to which stream of which file, the language in words', () => {
    const path = '/m/Movies/Akira (1988)/Akira (1988).mkv';
    expect(title('media-tracks', { path, track: { action: 'remove', index: 2, type: 'audio', language: 'jpn' } })).toBe(
      'Remove audio stream 2 (Japanese) from Akira (1988).mkv',
    );
    expect(title('media-tracks', { path, track: { action: 'set_default', index: 3, type: 'subtitle', language: null } })).toBe(
      'Make subtitle stream 3 the default of Akira (1988).mkv',
    );
    expect(title('media-tracks', { path, track: { action: 'set_default', index: 9, type: null, language: 'eng' } })).toBe(
      'Make stream 9 (English) the default of Akira (1988).mkv',
    );
    expect(title('media-tracks', { path, track: { action: 'rename', index: 1, type: 'audio', language: null } })).toBe('Track edit of Akira (1988).mkv');
    expect(title('media-tracks', { path })).toBe('Track edit of Akira (1988).mkv');
    expect(title('media-tracks', null)).toBe('Track edit');
  });

  it('names a manual import by its download and what it was said to be', () => {
    const path = '/dl/heat.1995.mkv';
    expect(title('manual-import', { path, kind: 'movie', title: 'Heat', year: 1995 })).toBe('Import heat.1995.mkv as Heat (1995)');
    expect(title('manual-import', { path, kind: 'episode', title: 'The Office', season: 1, episodes: [2, 3] })).toBe(
      'Import heat.1995.mkv as The Office S01E02E03',
    );
    expect(title('manual-import', { path, kind: 'episode', title: 'The Office', season: 2 })).toBe('Import heat.1995.mkv as The Office S02');
    expect(title('manual-import', { path, kind: 'episode', title: 'The Daily Show', air_date: '2024-01-02' })).toBe(
      'Import heat.1995.mkv as The Daily Show 2024-01-02',
    );
    expect(title('manual-import', null)).toBe('Import a download');
  });

  it('names a notice to the media servers by the first file it tells of and how many more', () => {
    const path = '/m/Movies/Heat (1995)/Heat (1995).mkv';
    expect(title('notify', { path, imports: 1 }, '5', 'notify')).toBe('Tell media servers of Heat (1995).mkv');
    expect(title('notify', { path, imports: 1201 }, '5', 'notify')).toBe('Tell media servers of Heat (1995).mkv and 1,200 more');
    expect(title('notify', { path, imports: 1, undone: true }, '5', 'notify')).toBe('Tell media servers of the undone import of Heat (1995).mkv');
    expect(title('notify', { imports: 3 }, '5', 'notify')).toBe('Tell media servers of 3 imports');
    expect(title('notify', { undone: true }, '5', 'notify')).toBe('Tell media servers of an undone import');
    expect(title('notify', null, '5', 'notify')).toBe('Tell media servers of new imports');
  });

  it('gives every job the catalogue defines a name of its own, with or without its payload, and never its id', () => {
    const id = 'tr-0ff6a1b2c3d4';
    for (const name of JOB_NAMES) {
      for (const a of [null, {}]) {
        const t = title(name, a, id);
        expect(t).not.toContain(id);
        expect(t).not.toBe(name);
        expect(t).toMatch(/^[A-Z]/);
      }
    }
  });

  it("names a job it does not know by its own name, or its queue's, not by its id", () => {
    expect(title('reindex', null, '42', 'library')).toBe('reindex');
    expect(title('', null, '42', 'library')).toBe('A job of the library queue');
  });
});
