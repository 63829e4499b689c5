import { describe, expect, it } from 'vitest';
import { notMediaReason, SNIFF_BYTES } from './sniff.ts';

const text = (s: string) => Buffer.from(s, 'utf8');
const bin = (...bytes: number[]) => Buffer.from(bytes);

describe('notMediaReason', () => {
  it.each([
    ['#EXTM3U\n#EXTINF:10,\n/etc/passwd\n', 'an HLS playlist'],
    ['\ufeff#EXTM3U\n#EXT-X-ENDLIST\n', 'an HLS playlist'],
    ['  \r\n#EXTM3U\n', 'an HLS playlist'],
    ["ffconcat version 1.0\nfile '/etc/passwd'\n", 'an ffconcat list'],
    ["FFCONCAT version 1.0\nfile 'a.mkv'\n", 'an ffconcat list'],
    ['<?xml version="1.0"?><MPD>', 'an XML manifest'],
    ['<MPD xmlns="urn:mpeg:dash:schema:mpd:2011">', 'an XML manifest'],
    ['<smil><body>', 'an XML manifest'],
    ['[playlist]\nFile1=/etc/passwd\n', 'a PLS playlist'],
    ["file '/etc/passwd'\n", 'a text file'],
    ['/etc/passwd\n', 'a text file'],
    ['not a video', 'a text file'],
    ['', 'an empty file'],
  ])('refuses %j as %s', (head, reason) => {
    expect(notMediaReason(text(head))).toBe(reason);
  });

  it('lets the binary magic of every container it reads through', () => {
    const heads = [
      bin(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01), // EBML (Matroska, WebM)
      Buffer.concat([bin(0, 0, 0, 0x20), text('ftypisom'), bin(0, 0, 2, 0)]), // MP4 / MOV
      Buffer.concat([text('RIFF'), bin(0x24, 0x10, 0, 0), text('AVI LIST')]), // AVI
      bin(0x47, 0x40, 0x00, 0x10, 0x00, 0x00, 0xb0, 0x0d), // MPEG-TS
      bin(0x00, 0x00, 0x01, 0xba, 0x44, 0x00, 0x04), // MPEG-PS
      bin(0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11), // ASF
      Buffer.concat([text('FLV'), bin(0x01, 0x05, 0, 0, 0, 9)]), // FLV
      Buffer.concat([text('OggS'), bin(0, 2, 0, 0)]), // Ogg
    ];
    for (const head of heads) expect(notMediaReason(head)).toBeNull();
  });

  it('calls a playlist a playlist even when binary follows its first line', () => {
    expect(notMediaReason(Buffer.concat([text('#EXTM3U\n'), bin(0, 1, 2, 3)]))).toBe('an HLS playlist');
  });

  it('takes a text start followed by binary within the sniffed bytes for media', () => {
    expect(notMediaReason(Buffer.concat([text('RIFF'), Buffer.alloc(SNIFF_BYTES - 4, 0)]))).toBeNull();
  });
});
