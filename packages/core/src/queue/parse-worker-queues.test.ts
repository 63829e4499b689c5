import { describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '@mo/shared';
import { parseWorkerQueues } from './worker-host.ts';

describe('parseWorkerQueues', () => {
  it('gives all queues when unset, empty or blank', () => {
    expect(parseWorkerQueues(undefined, QUEUE_NAMES)).toEqual(['scan', 'library', 'media', 'transcode', 'notify']);
    expect(parseWorkerQueues('', QUEUE_NAMES)).toEqual([...QUEUE_NAMES]);
    expect(parseWorkerQueues('   ', QUEUE_NAMES)).toEqual([...QUEUE_NAMES]);
  });

  it('returns a fresh array, not the list it was given', () => {
    const all = parseWorkerQueues(undefined, QUEUE_NAMES);
    expect(all).not.toBe(QUEUE_NAMES);
    all.pop();
    expect(QUEUE_NAMES).toHaveLength(5);
  });

  it('reads one queue and a comma list in the given order, trimming spaces and empty entries', () => {
    expect(parseWorkerQueues('media', QUEUE_NAMES)).toEqual(['media']);
    expect(parseWorkerQueues(' transcode , scan ,, ', QUEUE_NAMES)).toEqual(['transcode', 'scan']);
  });

  it('refuses a list of only commas, which would start a worker that serves nothing', () => {
    expect(() => parseWorkerQueues(' , ,', QUEUE_NAMES)).toThrow(/names no queue/);
  });

  it('removes duplicates, keeping the first position', () => {
    expect(parseWorkerQueues('scan,media,scan, media,library', QUEUE_NAMES)).toEqual(['scan', 'media', 'library']);
  });

  it('refuses unknown queue names, naming each of them and the known ones', () => {
    let message = '';
    try {
      parseWorkerQueues('scan,thumbs,Media,transcode,extra', QUEUE_NAMES);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('WORKER_QUEUES');
    expect(message).toContain('thumbs');
    expect(message).toContain('Media');
    expect(message).toContain('extra');
    expect(message).toContain('scan, library, media, transcode');
  });

  it('checks names against the list it is given', () => {
    expect(parseWorkerQueues('a,b', ['a', 'b'] as never)).toEqual(['a', 'b']);
    expect(() => parseWorkerQueues('scan', ['media'] as never)).toThrow(/scan/);
  });
});
