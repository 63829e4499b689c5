import { MAX_SEGMENT } from './prepare.ts';

/**
 * The most of a name the library's name readers look at: the release-name parser's bound. A file
 * or folder name holds at most 255 bytes (NAME_MAX), so no name on disk is cut; what is cut is a
 * title from elsewhere (an .nfo, a provider) or a string no file system holds. Their expressions
 * backtrack quadratically on long runs of blanks, dots or digits, so the cut is what keeps each
 * call's work bounded, and a walk or a report linear in the names it reads.
 */
export function boundedName(name: string): string {
  return name.length > MAX_SEGMENT ? name.slice(0, MAX_SEGMENT) : name;
}
