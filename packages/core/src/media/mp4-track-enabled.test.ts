import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTracksEnabled } from './mp4-track-enabled.ts';

const box = (type: string, ...body: Buffer[]) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.reduce((n, b) => n + b.length, 0));
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, ...body]);
};

/** A track header: version 0 with 4-byte times, or 1 with 8-byte ones, then the track ID. */
function tkhd(version: 0 | 1, flags: number, id: number): Buffer {
  const times = version === 1 ? 16 : 8;
  const body = Buffer.alloc(4 + times + 4 + 60);
  body[0] = version;
  body[3] = flags;
  body.writeUInt32BE(id, 4 + times);
  return box('tkhd', body);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-tkhd-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function withFile(name: string, bytes: Buffer, work: (file: Awaited<ReturnType<typeof open>>) => Promise<unknown>) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const file = await open(path, 'r+');
  try {
    return await work(file);
  } finally {
    await file.close();
  }
}

describe('setTracksEnabled', () => {
  it('sets and clears the enabled flag of the named tracks, in either header version, and leaves the rest', async () => {
    const mp4 = Buffer.concat([
      box('ftyp', Buffer.from('isom')),
      box('moov', box('mvhd', Buffer.alloc(20)), box('trak', tkhd(0, 0x3, 1)), box('trak', tkhd(1, 0x2, 2)), box('trak', tkhd(0, 0x3, 3))),
      box('mdat', Buffer.alloc(32)),
    ]);
    const changed = await withFile('a.mp4', mp4, (f) =>
      setTracksEnabled(
        f,
        new Map([
          [1, false],
          [2, true],
        ]),
      ),
    );
    expect(changed).toEqual([1, 2]);
    const after = await readFile(join(dir, 'a.mp4'));
    // The flags' last byte follows the box type and the version byte.
    const flags = [...after.toString('latin1').matchAll(/tkhd/g)].map((m) => after[m.index + 4 + 3]);
    expect(flags).toEqual([0x2, 0x3, 0x3]);
    expect(after.length).toBe(mp4.length);
  });

  it('refuses a box that claims to run past its parent, and a file without a movie header', async () => {
    const long = box('moov', box('trak', tkhd(0, 1, 1)));
    long.writeUInt32BE(long.length + 100, 8);
    await expect(withFile('b.mp4', long, (f) => setTracksEnabled(f, new Map([[1, false]])))).rejects.toThrow(/runs past its parent/);
    await expect(withFile('c.mp4', box('mdat', Buffer.alloc(8)), (f) => setTracksEnabled(f, new Map()))).rejects.toThrow(/no movie header/);
  });
});
