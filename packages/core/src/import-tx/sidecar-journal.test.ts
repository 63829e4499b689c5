import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSidecarJournal, type PendingSidecar, type SidecarNote } from './sidecar-journal.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-sidecar-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function put(p: string) {
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, 'x');
}

function fixture(state: { videoAt: 'source' | 'destination' | 'both' | 'nowhere'; sidecarsLeft: number }) {
  const base = join(root, `c${++n}`);
  const note: SidecarNote = {
    video: { source: join(base, 'dl/Heat.1995.mkv'), destination: join(base, 'lib/Heat (1995).mkv') },
    sidecars: ['en.srt', 'nfo'].map((ext) => ({
      source: join(base, `dl/Heat.1995.${ext}`),
      destination: join(base, `lib/Heat (1995).${ext}`),
      size: 1,
      mtime_ms: 0,
    })),
  };
  if (state.videoAt === 'source' || state.videoAt === 'both') put(note.video.source);
  if (state.videoAt === 'destination' || state.videoAt === 'both') put(note.video.destination);
  note.sidecars.slice(note.sidecars.length - state.sidecarsLeft).forEach((s) => put(s.source));
  return { journal: createSidecarJournal(join(base, 'notes')), note, notes: join(base, 'notes') };
}

async function recovered(f: ReturnType<typeof fixture>): Promise<PendingSidecar[]> {
  const moved: PendingSidecar[] = [];
  await f.journal.recover(async (s) => {
    moved.push(s);
    return 'done';
  });
  return moved;
}

describe('sidecar journal', () => {
  it('hands over the sidecars still in the downloads once their video is in the library', async () => {
    const f = fixture({ videoAt: 'destination', sidecarsLeft: 1 });
    await f.journal.begin(f.note);
    expect(await recovered(f)).toEqual([f.note.sidecars[1]]);
    expect(readdirSync(f.notes)).toEqual([]);
  });

  it('in hardlink and copy mode (the video kept in the downloads) hands over the sidecars once the video is placed', async () => {
    const f = fixture({ videoAt: 'both', sidecarsLeft: 2 });
    await f.journal.begin({ ...f.note, keep_source: true });
    expect(await recovered(f)).toEqual(f.note.sidecars);
    expect(readdirSync(f.notes)).toEqual([]);
  });

  it('in hardlink and copy mode hands over nothing while the video is not placed', async () => {
    const f = fixture({ videoAt: 'source', sidecarsLeft: 2 });
    await f.journal.begin({ ...f.note, keep_source: true });
    expect(await recovered(f)).toEqual([]);
    expect(readdirSync(f.notes)).toEqual([]);
  });

  it.each([
    ['the video never moved', 'source'],
    ['the video is under both names (a move cut between link and unlink)', 'both'],
    ['the video is gone from both places', 'nowhere'],
  ] as const)('hands over nothing and drops the note when %s', async (_, videoAt) => {
    const f = fixture({ videoAt, sidecarsLeft: 2 });
    await f.journal.begin(f.note);
    expect(await recovered(f)).toEqual([]);
    expect(readdirSync(f.notes)).toEqual([]);
  });

  it('keeps the note when a move asks to be tried again, and the next recovery hands over what is still there', async () => {
    const f = fixture({ videoAt: 'destination', sidecarsLeft: 2 });
    await f.journal.begin(f.note);
    const asked: string[] = [];
    await f.journal.recover(async (s) => {
      asked.push(s.source);
      if (s.source === f.note.sidecars[0]!.source) {
        await rm(s.source);
        return 'done';
      }
      return 'keep';
    });
    expect(asked).toEqual(f.note.sidecars.map((s) => s.source));
    expect(readdirSync(f.notes)).toHaveLength(1);
    expect(await recovered(f)).toEqual([f.note.sidecars[1]]);
    expect(readdirSync(f.notes)).toEqual([]);
  });

  it('drops a torn note', async () => {
    const f = fixture({ videoAt: 'destination', sidecarsLeft: 2 });
    mkdirSync(f.notes, { recursive: true });
    writeFileSync(join(f.notes, '0-torn.json'), '{"video":');
    expect(await recovered(f)).toEqual([]);
    expect(readdirSync(f.notes)).toEqual([]);
  });
});
