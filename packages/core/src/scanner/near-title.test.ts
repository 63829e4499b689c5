import { describe, expect, it } from 'vitest';
import { leftoverIsMarker, nearness } from './near-title.ts';

describe('nearness: one title a run of whole words of the other', () => {
  it('finds the words left over, and on which side', () => {
    expect(nearness('show name tem 1', 'show name')).toEqual({ leftover: ['tem', '1'], before: false, longer: 'name' });
    expect(nearness('show', 'show name')).toEqual({ leftover: ['name'], before: false, longer: 'folder' });
    expect(nearness('daily show', 'show')).toEqual({ leftover: ['daily'], before: true, longer: 'name' });
  });

  it('equal titles match rather than come near; parts of words, single letters and unrelated titles are not near', () => {
    expect(nearness('show name', 'show name')).toBeNull();
    expect(nearness('wheat', 'heat')).toBeNull();
    expect(nearness('heat wave', 'heat waves')).toBeNull();
    expect(nearness('a show', 'a')).toBeNull();
    expect(nearness('', 'show')).toBeNull();
  });
});

describe("leftoverIsMarker: what makes the near folder the download's show", () => {
  const near = (nameKey: string, folderKey: string) => nearness(nameKey, folderKey)!;

  it("a season marker that agrees with the download's season, in the usual spellings", () => {
    expect(leftoverIsMarker(near('show name tem 1', 'show name'), 1, null)).toBe(true);
    expect(leftoverIsMarker(near('show name season 2', 'show name'), 2, null)).toBe(true);
    expect(leftoverIsMarker(near('show name s2', 'show name'), 2, null)).toBe(true);
    expect(leftoverIsMarker(near('show name 2nd season', 'show name'), 2, null)).toBe(true);
    expect(leftoverIsMarker(near('show name staffel 3', 'show name'), null, null)).toBe(true);
    expect(leftoverIsMarker(near('show name tem 1', 'show name'), 2, null)).toBe(false);
  });

  it('a part marker, words that only describe a release, and a year the folder lacks', () => {
    expect(leftoverIsMarker(near('show name part 2', 'show name'), 1, null)).toBe(true);
    expect(leftoverIsMarker(near('show name 1080p', 'show name'), 1, null)).toBe(true);
    expect(leftoverIsMarker(near('show name tem 1 x264', 'show name'), 1, null)).toBe(true);
    expect(leftoverIsMarker(near('show name 2019', 'show name'), 1, null)).toBe(true);
    expect(leftoverIsMarker(near('show name 2019', 'show name'), 1, 2005)).toBe(false);
  });

  it("words a title may hold, release words or not, and anything before the folder's title: another show", () => {
    expect(leftoverIsMarker(near('real hustle', 'hustle'), 1, null)).toBe(false);
    expect(leftoverIsMarker(near('show name 1080p', 'name'), 1, null)).toBe(false);
    expect(leftoverIsMarker(near('final space', 'space'), 1, null)).toBe(false);
    expect(leftoverIsMarker(near('show name english', 'show name'), 1, null)).toBe(false);
    expect(leftoverIsMarker(near('show name ultimate', 'show name'), 1, null)).toBe(false);
    expect(leftoverIsMarker(near('show name german', 'show name'), 1, null)).toBe(false);
  });

  it('a number, a word or a date is another show as likely as this one', () => {
    expect(leftoverIsMarker(near('show name 2', 'show name'), 1, null)).toBe(false);
    expect(leftoverIsMarker(near('show name legacy', 'show name'), 1, null)).toBe(false);
    expect(leftoverIsMarker(near('judge developer 2016 02 25', 'judge developer'), 20, null)).toBe(false);
    expect(leftoverIsMarker(near('show', 'show name'), 1, null)).toBe(false);
  });
});
