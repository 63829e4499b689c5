import { posix } from 'node:path';
import type { Notice } from './requests.ts';

/**
 * What a person reads in a chat service after a pass, an undo or a test, before any service's
 * format: each request builder renders it in its own way (Markdown-escaped for Discord, plain
 * text elsewhere). File names come from downloads, so they are untrusted: control and direction
 * characters are cut out here, once, for every format.
 */
export interface ChatMessage {
  event: 'imported' | 'undone' | 'test';
  title: string;
  /** One line a file (its name in the library), at most MAX_LINES. */
  lines: string[];
  /** How many files the lines leave out. */
  more: number;
  /** ISO 8601, the moment the message is about. */
  at: string;
}

export const MAX_LINES = 10;
export const MAX_NAME_CHARS = 200;

// C0 and C1 controls, and the bidi embeddings, overrides and isolates that can make a name read
// backwards (a "gpj.exe" trick) or hide what follows it.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without control or direction characters, on one line, at most `max` characters. */
export function cleanText(text: string, max = MAX_NAME_CHARS): string {
  const one = text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  return truncate(one, max);
}

/** At most `max` characters (code points, never a split surrogate pair), an ellipsis marking a cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);

function listed(names: readonly string[]) {
  return { lines: names.slice(0, MAX_LINES).map((n) => cleanText(n)), more: Math.max(0, names.length - MAX_LINES) };
}

/** A pass's imports, or an undo's: the title counts the files, the lines name them as the library does. */
export function noticeMessage(notice: Notice, at: string): ChatMessage {
  const names = notice.imports.map((i) => posix.basename(i.destination));
  if (notice.undone !== undefined) {
    return { event: 'undone', title: `Undid import #${notice.undone} (${files(names.length)})`, ...listed(names), at };
  }
  return { event: 'imported', title: `Imported ${files(names.length)}`, ...listed(names), at };
}

export function testMessage(targetName: string, at: string): ChatMessage {
  return {
    event: 'test',
    title: 'Test from media-organizer',
    lines: [`The notification target "${cleanText(targetName, 64)}" works: imports will be announced here.`],
    more: 0,
    at,
  };
}

/** The message as plain text: one line a name, then how many more. */
export function plainText(message: ChatMessage): string {
  return [...message.lines, ...(message.more > 0 ? [`…and ${message.more} more`] : [])].join('\n');
}
