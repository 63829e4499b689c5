import { describe, expect, it } from 'vitest';
import { folderHref, libraryFolderAt, libraryFolderOf } from './library-folder.ts';

const library = {
  movies: [
    { title: 'Heat', year: 1995, folder: '/m/Movies/Heat (1995)' },
    { title: 'Heat', year: null, folder: '/m/Movies/Heat' },
  ],
  series: [
    { title: 'The Office', folder: '/m/TV/The Office' },
    { title: 'Extras', folder: '/m/TV/The Office/Extras' },
  ],
};

describe('libraryFolderOf', () => {
  it('finds the movie or series whose folder holds the file, named as the Library page names it', () => {
    expect(libraryFolderOf('/m/Movies/Heat (1995)/Heat (1995).mkv', library)).toEqual({ kind: 'movie', title: 'Heat (1995)', folder: '/m/Movies/Heat (1995)' });
    expect(libraryFolderOf('/m/TV/The Office/Season 1/The Office - S01E02.mkv', library)).toEqual({
      kind: 'series',
      title: 'The Office',
      folder: '/m/TV/The Office',
    });
  });
  it('takes the deepest folder, and a folder never claims a sibling whose name starts like it', () => {
    expect(libraryFolderOf('/m/TV/The Office/Extras/x.mkv', library)?.title).toBe('Extras');
    expect(libraryFolderOf('/m/Movies/Heat 2/Heat 2.mkv', library)).toBeNull();
    expect(libraryFolderOf('/m/Movies/Heat/Heat.mkv', library)?.folder).toBe('/m/Movies/Heat');
  });
  it('is null for a file outside every folder the index lists', () => {
    expect(libraryFolderOf('/downloads/x.mkv', library)).toBeNull();
    expect(libraryFolderOf('/m/Movies/Heat (1995)', library)).toBeNull();
  });
});

describe('libraryFolderAt', () => {
  it('names the movie or series of exactly that folder', () => {
    expect(libraryFolderAt('/m/Movies/Heat', library)).toEqual({ kind: 'movie', title: 'Heat', folder: '/m/Movies/Heat' });
    expect(libraryFolderAt('/m/TV/The Office', library)?.kind).toBe('series');
    expect(libraryFolderAt('/m/TV', library)).toBeNull();
  });
});

describe('folderHref', () => {
  it('carries the folder in the query, escaped', () => {
    expect(folderHref('/m/Movies/Heat (1995)')).toBe('/library/folder?path=%2Fm%2FMovies%2FHeat%20(1995)');
  });
});
