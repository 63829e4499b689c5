/**
 * The questions asked before an action that changes many files: what it does, to how many, and
 * what becomes of the files it started from. Pure, so that the wording is tested once.
 */

export interface Question {
  /** The dialog's heading: the action and the count, as a question. */
  title: string;
  /** What follows from it, in full sentences. */
  consequence: string;
  /** The button that does it: the action and the count again, never a bare "OK". */
  confirm: string;
}

/** "1 file", "42 files". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/** The container the originals share (`MKV`), or none when they differ. */
function kindOf(extensions: readonly string[]): string {
  const kinds = new Set(extensions.map((e) => e.replace(/^\./, '').toUpperCase()));
  return kinds.size === 1 ? `${[...kinds][0]} ` : '';
}

/**
 * Run all: `extensions` of the entries it would queue; `keepOriginal` is `[transcoder]
 * keep_original` and `recycleBin` `[library] recycle_bin`, which the worker reads when each
 * transcode finishes.
 */
export function transcodeAllQuestion(extensions: readonly string[], keepOriginal: boolean, paused: boolean, recycleBin = false): Question {
  const n = extensions.length;
  const originals = n === 1 ? `The original ${kindOf(extensions)}file` : `The ${n.toLocaleString('en')} original ${kindOf(extensions)}files`;
  const gone = recycleBin ? 'will go to the recycle bin' : 'will be deleted';
  const fate = keepOriginal
    ? `${originals} ${n === 1 ? 'is' : 'are'} kept beside ${n === 1 ? 'its MP4' : 'their MP4s'} (keep_original is on); Discard original removes one later.`
    : `${originals} ${gone} after each transcode succeeds (keep_original is off); a failed transcode leaves its original as it was.`;
  return {
    title: `Transcode ${count(n, 'file')} to MP4?`,
    consequence: `${fate}${paused ? ' The queue is paused: they start when it is resumed.' : ''}`,
    confirm: `Transcode ${count(n, 'file')}`,
  };
}

/** Cancel all: the waiting jobs (cancel-all ends only those that have not started). */
export function cancelAllQuestion(waiting: number, running: number): Question {
  const goOn = running === 0 ? '' : ` ${count(running, 'transcode')} already running ${running === 1 ? 'goes' : 'go'} on.`;
  return {
    title: `Cancel ${count(waiting, 'waiting transcode')}?`,
    consequence: `${waiting === 1 ? 'It leaves the run queue and stays' : 'They leave the run queue and stay'} in line without a job; no file is touched.${goOn}`,
    confirm: `Cancel ${count(waiting, 'transcode')}`,
  };
}

/** Discard original: one file, gone for good unless `recycleBin` (`[library] recycle_bin`) keeps it. */
export function discardOriginalQuestion(path: string, recycleBin = false): Question {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (recycleBin)
    return {
      title: `Move the original ${name} to the recycle bin?`,
      consequence: `${path} goes to its drive’s recycle bin, from where it can be restored until it is purged; the MP4 made from it stays.`,
      confirm: 'Recycle the original',
    };
  return {
    title: `Delete the original ${name}?`,
    consequence: `${path} is deleted for good; the MP4 made from it stays.`,
    confirm: 'Delete the original',
  };
}

export type TransferMode = 'move' | 'hardlink' | 'copy';

const VERB: Record<TransferMode, string> = { move: 'Move', hardlink: 'Hard-link', copy: 'Copy' };

/** Import these: `videos` planned, `sidecars` (subtitles, .nfo) travelling with them; `mode` is `[library] transfer`. */
export function importQuestion(videos: number, sidecars: number, mode: TransferMode): Question {
  const what = sidecars === 0 ? count(videos, 'file') : `${count(videos, 'file')} and ${count(sidecars, 'subtitle or info file', 'subtitle and info files')}`;
  const one = videos === 1;
  const fate: Record<TransferMode, string> = {
    move: `${one ? 'It leaves' : 'They leave'} the downloads folder for the library.`,
    hardlink: one
      ? 'The download stays where it is (for seeding); the library gets a second name for it, taking no more space.'
      : 'The downloads stay where they are (for seeding); the library gets a second name for each, taking no more space.',
    copy: one
      ? 'The download stays where it is; it is copied into the library, taking its space again.'
      : 'The downloads stay where they are; each is copied into the library, taking its space again.',
  };
  return {
    title: `${VERB[mode]} ${what} into the library?`,
    consequence: `${fate[mode]} Only the files of this preview are imported; anything that arrived since waits for the next pass. Each import can be undone under Activity.`,
    confirm: `${VERB[mode]} ${count(videos, 'file')}`,
  };
}

/** Empty recycle bin: every file in every drive's bin, `bytes` already written for people (`1.20 GB`). */
export function emptyRecycleQuestion(files: number, bytes: string): Question {
  return {
    title: `Delete ${count(files, 'file')} from the recycle bin?`,
    consequence: `${files === 1 ? 'It is' : `All ${count(files, 'file')} are`} deleted for good (${bytes}), and can no longer be restored.`,
    confirm: `Delete ${count(files, 'file')}`,
  };
}

/** Organize's Apply: the ticked renames, subtitles and .nfo files counted as files. */
export function organizeQuestion(files: number, folders: number): Question {
  const what = [files > 0 ? count(files, 'file') : '', folders > 0 ? count(folders, 'folder') : ''].filter(Boolean).join(' and ');
  const one = files + folders === 1;
  return {
    title: `Rename ${what}?`,
    consequence: `${one ? 'It takes' : 'Each takes'} the name the templates give, in ${one ? 'its' : 'its own'} folder on the same drive; nothing is copied or deleted. Each rename can be undone under Activity, Imports.`,
    confirm: `Rename ${what}`,
  };
}

/** Import as… with Replace: the library's file of that movie or episode goes to the recycle bin first. */
export function replaceQuestion(download: string, held: string | null): Question {
  const name = download.slice(download.lastIndexOf('/') + 1);
  return {
    title: `Replace the library’s file with ${name}?`,
    consequence: `${held ?? 'The file the library holds for it'} and its subtitles go to the drive’s recycle bin first; undoing the import in Activity puts them back.`,
    confirm: 'Replace and import',
  };
}
