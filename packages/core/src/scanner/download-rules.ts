// How a file under the downloads folder is judged from its path, size and mtime alone. The names
// are those the common download clients use for work in progress.

export type FileType = 'video' | 'subtitle' | 'nfo' | 'other';

export interface FileTypeOptions {
  videoExtensions: ReadonlySet<string>;
  subtitleExtensions: ReadonlySet<string>;
}

/** qBittorrent, Transmission, Chrome/Firefox, µTorrent, BitComet, wget/curl-style temp names. */
const PARTIAL_EXTENSIONS = new Set(['.part', '.!qb', '.crdownload', '.tmp', '.unwanted', '.partial', '.download', '.!ut', '.bc!']);
/** aria2 keeps its control file beside a file that has its final name before it is complete. */
const ARIA2_CONTROL = '.aria2';
/** SABnzbd's and NZBGet's folders for jobs still unpacking or failed; qBittorrent's skipped files. */
const PARTIAL_FOLDER = /^(?:_unpack_|_failed_|_unpack$|\.unwanted$)|\.#\d+$/i;
const SAMPLE_FOLDER = /^samples?$/i;
const SAMPLE_NAME = /(?:^|[\s._-])sample(?:[\s._-]|$)/i;
/** Plex/Kodi extras: not the movie or episode itself, and no template names them. */
const EXTRAS_FOLDER = /^(?:extras|featurettes|behind the scenes|deleted scenes|interviews|scenes|shorts|trailers|bonus)$/i;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

export function stemOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

export function fileType(name: string, opts: FileTypeOptions): FileType {
  const ext = extensionOf(name);
  if (opts.videoExtensions.has(ext)) return 'video';
  if (opts.subtitleExtensions.has(ext)) return 'subtitle';
  return ext === '.nfo' ? 'nfo' : 'other';
}

/** `parts` is the path below the downloads folder, split; `siblings` the names in the same folder. */
export function isPartial(parts: readonly string[], siblings: ReadonlySet<string>): boolean {
  const name = parts[parts.length - 1]!;
  if (PARTIAL_EXTENSIONS.has(extensionOf(name)) || extensionOf(name) === ARIA2_CONTROL) return true;
  if (siblings.has(name + ARIA2_CONTROL)) return true;
  return parts.slice(0, -1).some((d) => PARTIAL_FOLDER.test(d));
}

/** By name only; the size rule is `isSampleSize`, checked once a file has settled. */
export function isSampleByName(parts: readonly string[]): boolean {
  return parts.slice(0, -1).some((d) => SAMPLE_FOLDER.test(d)) || SAMPLE_NAME.test(stemOf(parts[parts.length - 1]!));
}

/** `sampleMaxBytes` 0 turns the size rule off. */
export function isSampleSize(bytes: number, sampleMaxBytes: number): boolean {
  return sampleMaxBytes > 0 && bytes <= sampleMaxBytes;
}

export function isInExtrasFolder(parts: readonly string[]): boolean {
  return parts.slice(0, -1).some((d) => EXTRAS_FOLDER.test(d));
}

/** Settled: not written for `settleSeconds`. A write always moves mtime, so a growing file never is. */
export function isSettled(mtimeMs: number, nowMs: number, settleSeconds: number): boolean {
  return nowMs - mtimeMs >= settleSeconds * 1000;
}
