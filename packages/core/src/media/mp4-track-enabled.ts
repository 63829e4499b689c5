import type { FileHandle } from 'node:fs/promises';

// An MP4 track is default when its header's "enabled" flag is set. ffmpeg's MP4 muxer sets it on
// the first track of a type when the source marks none of that type default, and has no option
// against it; so a transcode sets each track's flag itself once ffmpeg is done.

interface Box {
  type: string;
  body: number;
  end: number;
}

const ENABLED = 0x1;

/** The boxes between `from` and `to`, read header by header; never the whole file. */
async function* boxes(file: FileHandle, from: number, to: number): AsyncGenerator<Box> {
  const head = Buffer.alloc(16);
  for (let at = from; at + 8 <= to;) {
    const { bytesRead } = await file.read(head, 0, 16, at);
    if (bytesRead < 8) return;
    const type = head.toString('latin1', 4, 8);
    let size = head.readUInt32BE(0);
    let body = at + 8;
    if (size === 1) {
      if (bytesRead < 16) throw new Error(`malformed MP4: box ${type} at ${at} is cut short`);
      size = Number(head.readBigUInt64BE(8));
      body = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (at + size < body || at + size > to) throw new Error(`malformed MP4: box ${type} at ${at} runs past its parent`);
    yield { type, body, end: at + size };
    at += size;
  }
}

async function* children(file: FileHandle, parent: Box, type: string): AsyncGenerator<Box> {
  for await (const box of boxes(file, parent.body, parent.end)) if (box.type === type) yield box;
}

/**
 * Sets the "enabled" flag of each track named in `enabled` (by track ID) to the value given, in
 * place; tracks not named are left as they are. Returns the IDs of the tracks it changed.
 */
export async function setTracksEnabled(file: FileHandle, enabled: ReadonlyMap<number, boolean>): Promise<number[]> {
  const { size } = await file.stat();
  const changed: number[] = [];
  for await (const moov of boxes(file, 0, size)) {
    if (moov.type !== 'moov') continue;
    for await (const trak of children(file, moov, 'trak')) {
      for await (const tkhd of children(file, trak, 'tkhd')) {
        // version (1 byte), flags (3), then the creation and modification times (4 bytes each
        // in version 0, 8 in version 1), then the track ID.
        const head = Buffer.alloc(24);
        const { bytesRead } = await file.read(head, 0, 24, tkhd.body);
        const idAt = head[0] === 1 ? 20 : 12;
        if (bytesRead < idAt + 4 || tkhd.body + idAt + 4 > tkhd.end) throw new Error('malformed MP4: a track header is cut short');
        const id = head.readUInt32BE(idAt);
        const want = enabled.get(id);
        if (want === undefined) continue;
        const flags = head[3]!;
        const next = want ? flags | ENABLED : flags & ~ENABLED;
        if (next === flags) continue;
        await file.write(Buffer.from([next]), 0, 1, tkhd.body + 3);
        changed.push(id);
      }
    }
    return changed;
  }
  throw new Error('malformed MP4: it has no movie header (moov)');
}
