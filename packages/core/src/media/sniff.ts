/** How many bytes of a file `notMediaReason` looks at. */
export const SNIFF_BYTES = 4096;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Lists that make ffmpeg open other files or URLs, by how they start (after a BOM and blanks). */
const LISTS: readonly [RegExp, string][] = [
  [/^#EXTM3U/, 'an HLS playlist'],
  [/^ffconcat\b/i, 'an ffconcat list'],
  [/^<\?xml|^<MPD\b|^<smil\b/i, 'an XML manifest'],
  [/^\[playlist\]/i, 'a PLS playlist'],
];

// Every container we read starts with binary magic (EBML, an MP4 box size, RIFF's size, a TS sync
// byte followed by binary, a pack header…), so a head that is all text is no media, whatever it
// names.
function isText(head: Buffer): boolean {
  for (const byte of head) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
    if (byte === 0x7f) return false;
  }
  return true;
}

/**
 * Why the first bytes of a file say it is not media ffmpeg may be run on (a playlist, a concat
 * list, any text), or null. A defence in depth: the demuxer named by the extension would refuse
 * these too, but ffmpeg is not even started on them.
 */
export function notMediaReason(head: Buffer): string | null {
  if (head.length === 0) return 'an empty file';
  const body = head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
  const start = body.toString('latin1', 0, Math.min(body.length, 256)).trimStart();
  for (const [re, what] of LISTS) if (re.test(start)) return what;
  return isText(body) ? 'a text file' : null;
}
