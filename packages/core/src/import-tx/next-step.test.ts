import { describe, expect, it } from 'vitest';
import type { Transfer } from '../fs/transfer.ts';
import {
  filePhase,
  nextStep,
  settleCopy,
  sidecarsToPlace,
  type FileOnDisk,
  type ImportOnDisk,
  type ImportStep,
  type ImportTxRecord,
  type PlannedFile,
  type Seen,
  type SidecarOnDisk,
} from './next-step.ts';

const from = { dev: 1, ino: 10, size: 100, mtime_ms: 5000 };
const at = (dev: number, ino: number, over: Partial<Seen> = {}): Seen => ({ dev, ino, size: 100, mtimeMs: 5000, isFile: true, ...over });
const download = at(1, 10);
const copy = at(2, 20);
const planned: PlannedFile = { source: '/dl/a.mkv', destination: '/lib/a.mkv', from };
const copying: PlannedFile = { ...planned, made: { dev: 2, ino: 20 } };

describe('filePhase: how far one file got', () => {
  const cases: [string, PlannedFile, FileOnDisk, boolean, string][] = [
    ['nothing at the destination', planned, { source: download, destination: null }, true, 'planned'],
    ['a copy noted, nothing placed', copying, { source: download, destination: null }, true, 'copying'],
    ['renamed: its own inode there, gone from the downloads', planned, { source: null, destination: download }, true, 'placed'],
    ['a move cut between link and unlink: both names on one inode', planned, { source: download, destination: download }, true, 'placed'],
    ['linked, the download stays', planned, { source: download, destination: download }, false, 'placed'],
    ['copied on the noted inode, the download removed', copying, { source: null, destination: copy }, true, 'placed'],
    ['copied on the noted inode, the download kept (copy mode)', copying, { source: download, destination: copy }, false, 'placed'],
    ['copied, but a move whose download is still there did not get away', copying, { source: download, destination: copy }, true, 'copying'],
    ['another file of the same size and mtime (the owner’s)', planned, { source: download, destination: at(2, 99) }, false, 'planned'],
    ['another file where a copy was noted', copying, { source: null, destination: at(2, 99) }, true, 'copying'],
    ['the noted inode, but its size changed since', copying, { source: null, destination: at(2, 20, { size: 99 }) }, true, 'copying'],
    ['the noted inode, but its mtime changed since', copying, { source: null, destination: at(2, 20, { mtimeMs: 6000 }) }, true, 'copying'],
    ['a folder of that name', planned, { source: null, destination: at(1, 10, { isFile: false }) }, true, 'planned'],
    ['placed by the recovery itself since the kill', planned, { source: null, destination: at(3, 30), placedSince: { dev: 3, ino: 30 } }, true, 'placed'],
  ];
  it.each(cases)('%s', (_, file, disk, move, phase) => {
    expect(filePhase(file, disk, move).phase).toBe(phase);
  });

  it('a placed file carries what is there now, never the copy’s note', () => {
    const p = filePhase(copying, { source: null, destination: copy }, true);
    expect(p).toEqual({ phase: 'placed', file: { ...planned, to: { dev: 2, ino: 20, size: 100, mtime_ms: 5000 } } });
  });
});

describe('nextStep: one import a killed process left, a step at a time', () => {
  const record = (over: Partial<ImportTxRecord> = {}): ImportTxRecord => ({
    ...planned,
    mode: 'move',
    sidecars: [{ source: '/dl/a.en.srt', destination: '/lib/a.en.srt', from: { dev: 1, ino: 11, size: 100, mtime_ms: 5000 } }],
    created_dirs: ['/lib'],
    pass: 'p',
    ...over,
  });
  const srt = at(1, 11);
  const none: SidecarOnDisk = { source: null, destination: null };
  const renamed = { source: null, destination: download };
  const left: SidecarOnDisk = { source: srt, destination: null };
  type Want = { step: ImportStep['step']; method?: string; sidecars?: number; index?: number };

  const cases: [string, ImportTxRecord, ImportOnDisk, Want][] = [
    ['the history has it, nothing left behind', record(), { recorded: true, video: renamed, sidecars: [{ source: null, destination: srt }] }, { step: 'drop' }],
    ['the video never got away', record(), { recorded: false, video: { source: download, destination: null }, sidecars: [left] }, { step: 'drop' }],
    [
      'the owner’s own file at the destination',
      record(),
      { recorded: false, video: { source: download, destination: at(2, 99) }, sidecars: [none] },
      { step: 'drop' },
    ],
    [
      'the video renamed, its sidecar too',
      record(),
      { recorded: false, video: renamed, sidecars: [{ source: null, destination: srt }] },
      { step: 'record', method: 'rename', sidecars: 1 },
    ],
    [
      'linked (hardlink mode)',
      record({ mode: 'hardlink' }),
      { recorded: false, video: { source: download, destination: download }, sidecars: [none] },
      { step: 'record', method: 'link', sidecars: 0 },
    ],
    [
      'copied across drives',
      record({ made: { dev: 2, ino: 20 } }),
      { recorded: false, video: { source: null, destination: copy }, sidecars: [none] },
      { step: 'record', method: 'copy', sidecars: 0 },
    ],
    [
      'a copy for copy mode',
      record({ mode: 'copy', made: { dev: 2, ino: 20 } }),
      { recorded: false, video: { source: download, destination: copy }, sidecars: [none] },
      { step: 'record', method: 'copy', sidecars: 0 },
    ],
  ];

  const leftBehind: [string, ImportTxRecord, ImportOnDisk, Want][] = [
    [
      'the video renamed, its sidecar left behind: placed first',
      record(),
      { recorded: false, video: renamed, sidecars: [left] },
      { step: 'place-sidecar', index: 0 },
    ],
    [
      'the second of two left behind',
      record({ sidecars: [record().sidecars[0]!, { source: '/dl/a.nfo', destination: '/lib/a.nfo', from: { dev: 1, ino: 12, size: 100, mtime_ms: 5000 } }] }),
      {
        recorded: false,
        video: renamed,
        sidecars: [
          { source: null, destination: srt },
          { source: at(1, 12), destination: null },
        ],
      },
      { step: 'place-sidecar', index: 1 },
    ],
    [
      'hardlink mode: the video linked, the sidecar not yet',
      record({ mode: 'hardlink' }),
      { recorded: false, video: { source: download, destination: download }, sidecars: [left] },
      { step: 'place-sidecar', index: 0 },
    ],
    [
      'hardlink mode: the sidecar linked too',
      record({ mode: 'hardlink' }),
      { recorded: false, video: { source: download, destination: download }, sidecars: [{ source: srt, destination: srt }] },
      { step: 'record', method: 'link', sidecars: 1 },
    ],
    [
      'a move cut between link and unlink: the video did not get away, the next plan takes the group',
      record(),
      { recorded: false, video: { source: download, destination: download }, sidecars: [left] },
      { step: 'record', method: 'rename', sidecars: 0 },
    ],
    [
      'the sidecar’s move cut between link and unlink: its download name goes first',
      record(),
      { recorded: false, video: renamed, sidecars: [{ source: srt, destination: srt }] },
      { step: 'finish-move', index: 0 },
    ],
    [
      'the sidecar’s move cut between link and unlink, finishing it failed: recorded',
      record(),
      { recorded: false, video: renamed, sidecars: [{ source: srt, destination: srt, tried: 'failed' }] },
      { step: 'record', method: 'rename', sidecars: 1 },
    ],
    [
      'placed by the recovery since: recorded with its video, though a new inode',
      record(),
      { recorded: false, video: renamed, sidecars: [{ source: null, destination: at(3, 30), placedSince: { dev: 3, ino: 30 } }] },
      { step: 'record', method: 'rename', sidecars: 1 },
    ],
    [
      'tried and failed (its destination taken): recorded without it',
      record(),
      { recorded: false, video: renamed, sidecars: [{ ...left, destination: at(2, 99), tried: 'failed' }] },
      { step: 'record', method: 'rename', sidecars: 0 },
    ],
    [
      'still being written: recorded without it meanwhile',
      record(),
      { recorded: false, video: renamed, sidecars: [{ ...left, tried: 'waits' }] },
      { step: 'record', method: 'rename', sidecars: 0 },
    ],
    [
      'recorded, the sidecar still waits: the record stays for the next pass',
      record(),
      { recorded: true, video: renamed, sidecars: [{ ...left, tried: 'waits' }] },
      { step: 'keep' },
    ],
    ['recorded, the sidecar failed for good', record(), { recorded: true, video: renamed, sidecars: [{ ...left, tried: 'failed' }] }, { step: 'drop' }],
    [
      'recorded on an earlier pass, the sidecar still left behind: placed now',
      record(),
      { recorded: true, video: renamed, sidecars: [left] },
      { step: 'place-sidecar', index: 0 },
    ],
    [
      'recorded, the sidecar placed since',
      record(),
      { recorded: true, video: renamed, sidecars: [{ source: null, destination: srt, placedSince: { dev: 1, ino: 11 } }] },
      { step: 'drop' },
    ],
  ];

  it.each([...cases, ...leftBehind])('%s', (_, r, disk, want) => {
    const s = nextStep(r, disk);
    expect(s.step).toBe(want.step);
    if (s.step === 'place-sidecar' || s.step === 'finish-move') expect(s.index).toBe(want.index);
    if (s.step === 'record') {
      expect(s.method).toBe(want.method);
      expect(s.sidecars).toHaveLength(want.sidecars ?? 0);
      expect(s.video.to).toEqual({ dev: disk.video.destination?.dev, ino: disk.video.destination?.ino, size: 100, mtime_ms: 5000 });
    }
  });
});

describe('settleCopy: a copy across drives cut short', () => {
  const t = (over: Partial<Transfer> = {}): Transfer => ({
    source: '/dl/a.mkv',
    destination: '/lib/a.mkv',
    temp: '/lib/.mo-partial-x',
    size: 100,
    mtime_ms: 5000,
    source_dev: 1,
    source_ino: 10,
    temp_dev: 2,
    temp_ino: 20,
    ...over,
  });
  const cases: [string, Transfer, Parameters<typeof settleCopy>[1], boolean, string][] = [
    ['killed before the copy was placed', t(), { source: download, destination: null }, false, 'undone'],
    ['placed, the source still there: it goes now', t(), { source: download, destination: copy }, true, 'completed'],
    ['placed, the source gone already', t(), { source: null, destination: copy }, false, 'completed'],
    ['placed, a copy that keeps its source', t({ keep_source: true }), { source: download, destination: copy }, false, 'completed'],
    [
      'the temp never named: nothing at the destination is the copy',
      t({ temp_dev: undefined, temp_ino: undefined }),
      { source: download, destination: copy },
      false,
      'undone',
    ],
    ['another file of the same size and mtime at the destination', t(), { source: download, destination: at(2, 99) }, false, 'undone'],
    ['placed, but the source changed since: it stays', t(), { source: at(1, 10, { size: 7 }), destination: copy }, false, 'undone'],
    ['placed, but another file now at the source’s path: it stays', t(), { source: at(1, 77), destination: copy }, false, 'undone'],
    [
      'an old note without the source’s identity',
      t({ source_dev: undefined, source_ino: undefined }),
      { source: download, destination: copy },
      true,
      'completed',
    ],
  ];
  it.each(cases)('%s', (_, transfer, disk, removeSource, outcome) => {
    expect(settleCopy(transfer, disk)).toEqual({ removeSource, outcome });
  });
});

describe('sidecarsToPlace: the sidecars a legacy note names that a killed pass left behind', () => {
  const note = {
    video: { source: '/dl/a.mkv', destination: '/lib/a.mkv' },
    sidecars: [
      { source: '/dl/a.en.srt', destination: '/lib/a.en.srt' },
      { source: '/dl/a.nfo', destination: '/lib/a.nfo' },
    ],
  };
  const cases: [string, Parameters<typeof sidecarsToPlace>[0], Parameters<typeof sidecarsToPlace>[1], string[]][] = [
    ['the video moved: the ones still in the downloads', note, { videoSource: false, videoDestination: true, sidecarSources: [true, false] }, ['/dl/a.en.srt']],
    ['the video never got there', note, { videoSource: true, videoDestination: false, sidecarSources: [true, true] }, []],
    ['a move cut short: the video in both places', note, { videoSource: true, videoDestination: true, sidecarSources: [true, true] }, []],
    [
      'kept in the downloads (hardlink, copy), placed',
      { ...note, keep_source: true as const },
      { videoSource: true, videoDestination: true, sidecarSources: [true, true] },
      ['/dl/a.en.srt', '/dl/a.nfo'],
    ],
    ['kept, not placed', { ...note, keep_source: true as const }, { videoSource: true, videoDestination: false, sidecarSources: [true, true] }, []],
    ['all moved already', note, { videoSource: false, videoDestination: true, sidecarSources: [false, false] }, []],
  ];
  it.each(cases)('%s', (_, n, disk, sources) => {
    expect(sidecarsToPlace(n, disk).map((s) => s.source)).toEqual(sources);
  });
});

describe('nextStep: an upgrade a killed process left', () => {
  // The held video (inode 40) and its sidecar (41) in the library at the new video's destination.
  const HELD = { dev: 1, ino: 40, size: 300, mtime_ms: 4000 };
  const HELD_SRT = { dev: 1, ino: 41, size: 30, mtime_ms: 4000 };
  const held = at(1, 40, { size: 300, mtimeMs: 4000 });
  const heldSrt = at(1, 41, { size: 30, mtimeMs: 4000 });
  const BIN = '/lib/.recycle/2026-11-28/a.mkv';
  const BIN_SRT = '/lib/.recycle/2026-11-28/a.en.srt';
  const record = (over: Partial<ImportTxRecord> = {}): ImportTxRecord => ({
    ...planned,
    mode: 'move',
    sidecars: [],
    created_dirs: [],
    pass: 'p',
    replaces: { video: { path: '/lib/a.mkv', held: HELD }, sidecars: [{ path: '/lib/a.en.srt', held: HELD_SRT }] },
    ...over,
  });
  const inLibrary = { original: held, bin: [] };
  const srtInLibrary = { original: heldSrt, bin: [] };
  const inBin = { original: null, bin: [{ path: BIN, seen: held }] };
  const srtInBin = { original: null, bin: [{ path: BIN_SRT, seen: heldSrt }] };
  const notPlaced = { source: download, destination: null };

  const cases: [string, ImportTxRecord, ImportOnDisk, ImportStep][] = [
    [
      'killed before recycling: nothing to put back',
      record(),
      { recorded: false, video: notPlaced, sidecars: [], held: [inLibrary, srtInLibrary] },
      { step: 'drop' },
    ],
    [
      'killed between link and unlink into the bin: the bin name goes (restore finishes it)',
      record(),
      { recorded: false, video: notPlaced, sidecars: [], held: [{ original: held, bin: [{ path: BIN, seen: held }] }, srtInLibrary] },
      { step: 'unrecycle', index: 0, from: BIN },
    ],
    [
      'killed after recycling, before placing: the held video comes back',
      record(),
      { recorded: false, video: notPlaced, sidecars: [], held: [inBin, srtInBin] },
      { step: 'unrecycle', index: 0, from: BIN },
    ],
    [
      'the video back, its sidecar next',
      record(),
      { recorded: false, video: notPlaced, sidecars: [], held: [inLibrary, srtInBin] },
      { step: 'unrecycle', index: 1, from: BIN_SRT },
    ],
    [
      'a file of the same name but another inode in the bin is not the held one',
      record(),
      {
        recorded: false,
        video: notPlaced,
        sidecars: [],
        held: [{ original: null, bin: [{ path: BIN, seen: at(1, 99, { size: 300, mtimeMs: 4000 }) }] }, srtInLibrary],
      },
      { step: 'drop' },
    ],
    [
      'its library path taken by another file since: it stays in the bin',
      record(),
      { recorded: false, video: notPlaced, sidecars: [], held: [{ original: at(1, 77), bin: [{ path: BIN, seen: held }] }, srtInLibrary] },
      { step: 'drop' },
    ],
    [
      'tried and could not: it stays in the bin',
      record(),
      { recorded: false, video: notPlaced, sidecars: [], held: [{ ...inBin, tried: true }, srtInLibrary] },
      { step: 'drop' },
    ],
    [
      'a move cut between link and unlink onto the held path: that link goes first',
      record(),
      { recorded: false, video: { source: download, destination: download }, sidecars: [], held: [inBin, srtInBin] },
      { step: 'unplace' },
    ],
    [
      'placed, not recorded: recorded with what it replaced',
      record(),
      { recorded: false, video: { source: null, destination: download }, sidecars: [], held: [inBin, srtInBin] },
      {
        step: 'record',
        video: { ...planned, to: from },
        method: 'rename',
        sidecars: [],
        replaced: { path: '/lib/a.mkv', recycled_to: BIN, held: HELD, sidecars: [{ path: '/lib/a.en.srt', recycled_to: BIN_SRT, held: HELD_SRT }] },
      },
    ],
    [
      'linked (hardlink mode), not recorded: forward',
      record({ mode: 'hardlink' }),
      { recorded: false, video: { source: download, destination: download }, sidecars: [], held: [inBin, srtInBin] },
      {
        step: 'record',
        video: { ...planned, to: from },
        method: 'link',
        sidecars: [],
        replaced: { path: '/lib/a.mkv', recycled_to: BIN, held: HELD, sidecars: [{ path: '/lib/a.en.srt', recycled_to: BIN_SRT, held: HELD_SRT }] },
      },
    ],
    [
      'recorded already (killed before the note dropped): nothing taken back',
      record(),
      { recorded: true, video: { source: null, destination: download }, sidecars: [], held: [inBin, srtInBin] },
      { step: 'drop' },
    ],
  ];
  it.each(cases)('%s', (_, r, disk, want) => {
    expect(nextStep(r, disk)).toEqual(want);
  });

  it('records the bin path it noted where the held file stands in two day folders', () => {
    const r = record({ replaces: { video: { path: '/lib/a.mkv', held: HELD, recycled_to: `${BIN}.2` }, sidecars: [] } });
    const s = nextStep(r, {
      recorded: false,
      video: { source: null, destination: download },
      sidecars: [],
      held: [
        {
          original: null,
          bin: [
            { path: BIN, seen: held },
            { path: `${BIN}.2`, seen: held },
          ],
        },
      ],
    });
    expect(s).toMatchObject({ step: 'record', replaced: { recycled_to: `${BIN}.2`, sidecars: [] } });
  });
});
