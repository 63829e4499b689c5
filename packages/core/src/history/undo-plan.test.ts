import { describe, expect, it } from 'vitest';
import type { FileIdentity, ImportRecord, PlacedFile } from './history-record.ts';
import { planUndo, type Seen, type SeenPath } from './undo-plan.ts';

const DL: FileIdentity = { dev: 1, ino: 10, size: 100, mtime_ms: 5000.5 };
const COPY: FileIdentity = { dev: 2, ino: 20, size: 100, mtime_ms: 5000.5 };
const at = (id: FileIdentity, over: Partial<SeenPath> = {}): SeenPath => ({
  dev: id.dev,
  ino: id.ino,
  nlink: 1,
  size: id.size,
  mtimeMs: id.mtime_ms,
  isFile: true,
  ...over,
});
const placed = (to: FileIdentity, name = 'a.mkv'): PlacedFile => ({ source: `/dl/${name}`, destination: `/lib/${name}`, from: DL, to });

function record(mode: ImportRecord['mode'], to: FileIdentity, over: Partial<ImportRecord> = {}): ImportRecord {
  const method = mode === 'move' ? 'rename' : to.ino === DL.ino ? 'link' : 'copy';
  return { t: 'import', id: 7, at: 'x', mode, method, ...placed(to), sidecars: [], created_dirs: [], pass: 'p', undone_at: null, notified: null, ...over };
}
const one = (destination: SeenPath | null, source: SeenPath | null): Seen[] => [{ destination, source }];
const reason = (r: ReturnType<typeof planUndo>) => (r.ok ? r.steps.map((s) => s.action) : r.reason);

describe('planUndo', () => {
  it.each([
    // move: the library file goes back where the download was
    ['move, as imported', record('move', DL), one(at(DL), null), ['move_back']],
    ['move, destination gone', record('move', DL), one(null, null), 'destination_changed'],
    ['move, destination resized', record('move', DL), one(at(DL, { size: 101 }), null), 'destination_changed'],
    ['move, destination touched', record('move', DL), one(at(DL, { mtimeMs: 9000 }), null), 'destination_changed'],
    ['move, destination replaced (another inode)', record('move', DL), one(at(DL, { ino: 99 }), null), 'destination_changed'],
    ['move, destination now a folder', record('move', DL), one(at(DL, { isFile: false }), null), 'destination_changed'],
    ['move, source path taken', record('move', DL), one(at(DL), at(COPY, { ino: 55 })), 'source_taken'],
    ['move, moved back by an undo cut short', record('move', DL), one(null, at(DL)), []],
    ['move, an undo cut between link and unlink: both names on one inode', record('move', DL), one(at(DL, { nlink: 2 }), at(DL, { nlink: 2 })), ['move_back']],
    ['move, one entry under two paths (a bind mount): taken', record('move', DL), one(at(DL), at(DL)), 'source_taken'],
    ['move across filesystems (a copy), as imported', record('move', COPY), one(at(COPY), null), ['move_back']],
    // hardlink: the link goes, the download stays
    ['hardlink, as imported', record('hardlink', DL), one(at(DL, { nlink: 2 }), at(DL, { nlink: 2 })), ['remove']],
    ['hardlink, download deleted: the library file is the last copy', record('hardlink', DL), one(at(DL), null), 'download_changed'],
    ['hardlink, download replaced by another file', record('hardlink', DL), one(at(DL, { nlink: 1 }), at(DL, { ino: 11 })), 'download_changed'],
    ['hardlink, destination replaced', record('hardlink', DL), one(at(DL, { ino: 12 }), at(DL)), 'destination_changed'],
    ['hardlink, removed by an undo cut short', record('hardlink', DL), one(null, at(DL)), []],
    // copy (and hardlink across filesystems): the copy goes while the download is still as imported
    ['copy, as imported', record('copy', COPY), one(at(COPY), at(DL)), ['remove']],
    ['copy, download touched but the same inode', record('copy', COPY), one(at(COPY), at(DL, { mtimeMs: 1 })), ['remove']],
    ['copy, download copied back in place (same mtime)', record('copy', COPY), one(at(COPY), at(DL, { ino: 77 })), ['remove']],
    ['copy, download gone', record('copy', COPY), one(at(COPY), null), 'download_changed'],
    ['copy, download resized', record('copy', COPY), one(at(COPY), at(DL, { size: 5 })), 'download_changed'],
    ['copy, download another file', record('copy', COPY), one(at(COPY), at(DL, { ino: 77, mtimeMs: 1 })), 'download_changed'],
    ['copy, destination changed', record('copy', COPY), one(at(COPY, { size: 1 }), at(DL)), 'destination_changed'],
    ['hardlink across filesystems, as imported', record('hardlink', COPY), one(at(COPY), at(DL)), ['remove']],
    ['already undone', record('move', DL, { undone_at: 'y' }), one(at(DL), null), 'undone'],
  ] as const)('%s', (_name, r, seen, want) => {
    expect(reason(planUndo(r, seen))).toEqual(want);
  });

  it('takes the sidecars back with their video, all or nothing', () => {
    const srt = placed(DL, 'a.srt');
    const r = record('move', DL, { sidecars: [srt] });
    const ok = planUndo(r, [
      { destination: at(DL), source: null },
      { destination: at(DL), source: null },
    ]);
    expect(ok).toEqual({
      ok: true,
      steps: [
        { action: 'move_back', file: expect.objectContaining({ destination: '/lib/a.mkv' }) },
        { action: 'move_back', file: srt },
      ],
    });
    const refused = planUndo(r, [
      { destination: at(DL), source: null },
      { destination: at(DL), source: at(COPY) },
    ]);
    expect(refused).toMatchObject({ ok: false, reason: 'source_taken', path: '/dl/a.srt' });
  });
});

describe('planUndo: an upgrade', () => {
  const HELD: FileIdentity = { dev: 1, ino: 40, size: 300, mtime_ms: 4000 };
  const BIN = '/lib/.recycle/2026-11-28/a.mkv';
  const upgrade = (mode: ImportRecord['mode'] = 'move') =>
    record(mode, mode === 'copy' ? COPY : DL, { replaced: { path: '/lib/a.mkv', recycled_to: BIN, held: HELD, sidecars: [] } });
  const asImported = (mode: ImportRecord['mode'] = 'move') =>
    mode === 'move' ? one(at(DL), null) : mode === 'hardlink' ? one(at(DL, { nlink: 2 }), at(DL, { nlink: 2 })) : one(at(COPY), at(DL));

  it.each([
    // The new video took the held one's path: it goes first, then the held one comes back from the bin.
    ['move, as upgraded', 'move', asImported('move'), [{ original: at(DL), bin: at(HELD) }], ['restore', 'move_back']],
    ['hardlink, as upgraded', 'hardlink', asImported('hardlink'), [{ original: at(DL, { nlink: 2 }), bin: at(HELD) }], ['restore', 'remove']],
    ['copy, as upgraded', 'copy', asImported('copy'), [{ original: at(COPY), bin: at(HELD) }], ['restore', 'remove']],
    ['the bin item gone (emptied, purged)', 'move', asImported('move'), [{ original: at(DL), bin: null }], 'recycled_changed'],
    ['the bin item changed', 'move', asImported('move'), [{ original: at(DL), bin: at(HELD, { size: 1 }) }], 'recycled_changed'],
    ['the bin item another file', 'move', asImported('move'), [{ original: at(DL), bin: at(HELD, { ino: 99 }) }], 'recycled_changed'],
    [
      'the new file changed: refused before the bin is looked at',
      'move',
      one(at(DL, { size: 7 }), null),
      [{ original: at(DL), bin: at(HELD) }],
      'destination_changed',
    ],
    ['an undo cut short after the new file went back', 'move', one(null, at(DL)), [{ original: null, bin: at(HELD) }], ['restore']],
    ['an undo cut short between link and unlink out of the bin', 'move', one(null, at(DL)), [{ original: at(HELD), bin: at(HELD) }], ['restore']],
    ['an undo cut short once all was back', 'move', one(at(HELD), at(DL)), [{ original: at(HELD), bin: null }], []],
    [
      'an undo cut short out of the bin, the held file back at the new one’s path',
      'move',
      one(at(HELD), at(DL)),
      [{ original: at(HELD), bin: at(HELD) }],
      ['restore'],
    ],
  ] as const)('%s', (_name, mode, seen, held, want) => {
    expect(reason(planUndo(upgrade(mode), seen, held))).toEqual(want);
  });

  it('refuses when the held file’s path is taken by a file the undo does not take away', () => {
    const r = record('move', DL, { destination: '/lib/a (new).mkv', replaced: { path: '/lib/a.mkv', recycled_to: BIN, held: HELD, sidecars: [] } });
    expect(planUndo(r, one(at(DL), null), [{ original: at(COPY, { ino: 55 }), bin: at(HELD) }])).toMatchObject({
      ok: false,
      reason: 'original_taken',
      path: '/lib/a.mkv',
    });
    expect(reason(planUndo(r, one(at(DL), null), [{ original: null, bin: at(HELD) }]))).toEqual(['restore', 'move_back']);
  });
});
