// Library folders are shared over SMB, copied to exFAT disks and read by Windows players, so a name
// must be valid on the strictest of them, not only on the Linux box that writes it.

/** The longest file or folder name most filesystems accept (ext4, NTFS, exFAT, Btrfs, ZFS). */
export const MAX_NAME_BYTES = 255;

// Windows refuses these as a whole name and as the part before the first dot ("CON.mkv").
const RESERVED_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?=\.|$)/i;

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Cuts `s` to at most `max` UTF-8 bytes without splitting a character. */
export function truncateBytes(s: string, max: number): string {
  if (byteLength(s) <= max) return s;
  let out = '';
  let used = 0;
  for (const ch of s) {
    const n = byteLength(ch);
    if (used + n > max) break;
    out += ch;
    used += n;
  }
  return out;
}

function trimEnds(s: string): string {
  // Leading dots would hide the file on Unix; trailing dots and spaces are dropped by Windows.
  return s.replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');
}

/** Replaces what some filesystem forbids, the way media managers do ("Title: Part" → "Title - Part"). */
function replaceReserved(s: string): string {
  return s
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s*:\s+/g, ' - ')
    .replace(/:/g, '-')
    .replace(/"/g, "'")
    .replace(/[\\/|]/g, '-')
    .replace(/[<>?*]/g, '')
    .replace(/\s+/g, ' ');
}

/**
 * One path segment that every common filesystem accepts. `suffix` (an extension, with any sidecar
 * tags) is kept whole when the name must be shortened, and `reserveBytes` leaves room for longer
 * suffixes added later (the sidecars of a video share its stem).
 */
export function safeName(raw: string, opts: { suffix?: string; reserveBytes?: number } = {}): string {
  const suffix = opts.suffix ?? '';
  const budget = MAX_NAME_BYTES - byteLength(suffix) - (opts.reserveBytes ?? 0);
  let stem = trimEnds(replaceReserved(raw)).replace(RESERVED_DEVICE, '$1_');
  if (byteLength(stem) > budget) stem = trimEnds(truncateBytes(stem, budget));
  return (stem === '' ? '_' : stem) + suffix;
}
