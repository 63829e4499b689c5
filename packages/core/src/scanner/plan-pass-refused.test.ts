import { describe, expect, it } from 'vitest';
import { refusedUnread, type DownloadFile } from './plan-pass.ts';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const MB = 1024 * 1024;
const opts = { nowMs: NOW, settleSeconds: 120, sampleMaxBytes: 100 * MB };

function file(rel: string, over: Partial<DownloadFile> = {}): DownloadFile {
  return { path: `/downloads/${rel}`, rel, size: 700 * MB, mtimeMs: NOW - 3600_000, dev: 1, ino: 1, ...over };
}

interface Row {
  what: string;
  video: Partial<DownloadFile>;
  srt?: Partial<DownloadFile>;
  imported?: string[];
  undone?: boolean;
  want: [string, string, string?][] | null;
}

const fresh = { mtimeMs: NOW - 1000 };
const small = { size: 10 * MB };

// Each row's video fails every rule below the one it expects, so the table also fixes their order.
const rows: Row[] = [
  { what: 'a settled, full-size video goes on', video: {}, want: null },
  {
    what: 'imported wins over everything; a sidecar not imported itself says its video was',
    video: { rel: 'M.2010/sample/M.2010.mkv', ...fresh, ...small },
    imported: ['M.2010/sample/M.2010.mkv'],
    undone: true,
    want: [
      ['M.2010/sample/M.2010.mkv', 'imported'],
      ['M.2010/M.2010.en.srt', 'imported', 'its video was imported already'],
    ],
  },
  {
    what: 'a sidecar imported too says nothing more',
    video: {},
    imported: ['M.2010/M.2010.mkv', 'M.2010/M.2010.en.srt'],
    want: [
      ['M.2010/M.2010.mkv', 'imported'],
      ['M.2010/M.2010.en.srt', 'imported'],
    ],
  },
  {
    what: 'undone, before the sample and settling rules',
    video: { rel: 'M.2010/sample/M.2010.mkv', ...fresh },
    undone: true,
    want: [
      ['M.2010/sample/M.2010.mkv', 'undone', 'its import was undone; rename or change it to import it again'],
      ['M.2010/M.2010.en.srt', 'undone', 'its import was undone; rename or change it to import it again'],
    ],
  },
  {
    what: 'a sample by name, even while it grows',
    video: { rel: 'M.2010/sample/M.2010.mkv', ...fresh },
    want: [
      ['M.2010/sample/M.2010.mkv', 'sample'],
      ['M.2010/M.2010.en.srt', 'sample'],
    ],
  },
  {
    what: 'settling when a sidecar alone is still being written',
    video: small,
    srt: fresh,
    want: [
      ['M.2010/M.2010.mkv', 'settling'],
      ['M.2010/M.2010.en.srt', 'settling'],
    ],
  },
  {
    what: 'a sample by size once settled',
    video: small,
    want: [
      ['M.2010/M.2010.mkv', 'sample'],
      ['M.2010/M.2010.en.srt', 'sample'],
    ],
  },
];

describe('refusedUnread: the skips decided before a name is read', () => {
  it.each(rows)('$what', ({ video: v, srt, imported, undone, want }) => {
    const video = file(v.rel ?? 'M.2010/M.2010.mkv', v);
    const members = [video, file('M.2010/M.2010.en.srt', { size: 100, ...srt })];
    const world = { imported: (f: DownloadFile) => (imported ?? []).includes(f.rel), undone: () => undone === true };
    const got = refusedUnread(video, members, opts, world);
    const expected = want?.map(([rel, reason, detail]) => ({ source: `/downloads/${rel}`, reason, ...(detail === undefined ? {} : { detail }) }));
    expect(got).toStrictEqual(expected ?? null);
  });

  it('asks nothing of a world that keeps no history', () => {
    expect(refusedUnread(file('M.2010/M.2010.mkv'), [file('M.2010/M.2010.mkv')], opts, {})).toBeNull();
  });
});
