import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { legacySidecarNotes, type LegacySidecar, type LegacySidecarNote } from './legacy-sidecar-notes.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-sidecar-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function put(p: string) {
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, 'x');
}

function fixture(state: { videoAt: 'source' | 'destination' | 'both' | 'nowhere'; sidecarsLeft: number }) {
  const base = join(root, `c${++n}`);
  const note: LegacySidecarNote = {
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
  return { journal: legacySidecarNotes(join(base, 'notes')), note, notes: join(base, 'notes') };
}

/** A note as the versions before the import record wrote it: nothing writes one any more. */
function plant(f: ReturnType<typeof fixture>, note: LegacySidecarNote) {
  mkdirSync(f.notes, { recursive: true });
  writeFileSync(join(f.notes, `${Date.now()}-${++n}.json`), JSON.stringify(note));
}

async function recovered(f: ReturnType<typeof fixture>): Promise<LegacySidecar[]> {
  const moved: LegacySidecar[] = [];
  await f.journal.recover(async (s) => {
    moved.push(s);
    return 'done';
  });
  return moved;
}

describe('legacy sidecar notes', () => {
  it('hands over the sidecars still in the downloads once their video is in the library', async () => {
    const f = fixture({ videoAt: 'destination', sidecarsLeft: 1 });
    plant(f, f.note);
    expect(await recovered(f)).toEqual([f.note.sidecars[1]]);
    expect(existsSync(f.notes)).toBe(false);
  });

  it('in hardlink and copy mode (the video kept in the downloads) hands over the sidecars once the video is placed', async () => {
    const f = fixture({ videoAt: 'both', sidecarsLeft: 2 });
    plant(f, { ...f.note, keep_source: true });
    expect(await recovered(f)).toEqual(f.note.sidecars);
    expect(existsSync(f.notes)).toBe(false);
  });

  it('in hardlink and copy mode hands over nothing while the video is not placed', async () => {
    const f = fixture({ videoAt: 'source', sidecarsLeft: 2 });
    plant(f, { ...f.note, keep_source: true });
    expect(await recovered(f)).toEqual([]);
    expect(existsSync(f.notes)).toBe(false);
  });

  it.each([
    ['the video never moved', 'source'],
    ['the video is under both names (a move cut between link and unlink)', 'both'],
    ['the video is gone from both places', 'nowhere'],
  ] as const)('hands over nothing and drops the note when %s', async (_, videoAt) => {
    const f = fixture({ videoAt, sidecarsLeft: 2 });
    plant(f, f.note);
    expect(await recovered(f)).toEqual([]);
    expect(existsSync(f.notes)).toBe(false);
  });

  it('keeps the note when a move asks to be tried again, and the next recovery hands over what is still there', async () => {
    const f = fixture({ videoAt: 'destination', sidecarsLeft: 2 });
    plant(f, f.note);
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
    expect(existsSync(f.notes)).toBe(false);
  });

  it('drops a torn note, and the folder with it', async () => {
    const f = fixture({ videoAt: 'destination', sidecarsLeft: 2 });
    mkdirSync(f.notes, { recursive: true });
    writeFileSync(join(f.notes, '0-torn.json'), '{"video":');
    expect(await recovered(f)).toEqual([]);
    expect(existsSync(f.notes)).toBe(false);
  });
});
