import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createNoteFolder } from './note-folder.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-notes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const schema = z.object({ n: z.number() });

describe('note folder', () => {
  it('lists the notes added and not dropped, oldest first', async () => {
    const notes = createNoteFolder(join(root, `f${++n}`), schema);
    expect(await notes.list()).toEqual([]);
    const dropFirst = await notes.add({ n: 1 });
    await new Promise((r) => setTimeout(r, 2));
    await notes.add({ n: 2 });
    expect((await notes.list()).map((x) => x.value)).toEqual([{ n: 1 }, { n: 2 }]);
    await dropFirst();
    expect((await notes.list()).map((x) => x.value)).toEqual([{ n: 2 }]);
  });

  it('gives a torn or foreign note as null so that it can be dropped, and sweeps temps of killed writers', async () => {
    const dir = join(root, `f${++n}`);
    const notes = createNoteFolder(dir, schema);
    await notes.add({ n: 1 });
    writeFileSync(join(dir, '0-torn.json'), '{"n":');
    writeFileSync(join(dir, '0-foreign.json'), '{"n":"one"}');
    // The temp of a writer whose pid is no longer alive.
    writeFileSync(join(dir, '.0-note.json.99999999.k3x.tmp'), '{');
    const listed = await notes.list();
    expect(listed.map((x) => x.value)).toEqual([null, null, { n: 1 }]);
    for (const x of listed) await x.drop();
    expect(readdirSync(dir)).toEqual([]);
  });
});
