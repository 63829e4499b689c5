import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@mo/shared';
import { fileType, isInExtrasFolder, isPartial, isSampleByName, isSampleSize, isSettled } from './download-rules.ts';

const types = {
  videoExtensions: new Set(DEFAULT_CONFIG.library.video_extensions),
  subtitleExtensions: new Set(DEFAULT_CONFIG.library.subtitle_extensions),
};
const partial = (rel: string, siblings: string[] = []) => isPartial(rel.split('/'), new Set(siblings));

describe('fileType', () => {
  it.each([
    ['a.mkv', 'video'],
    ['a.MKV', 'video'],
    ['a.m2ts', 'video'],
    ['a.srt', 'subtitle'],
    ['a.idx', 'subtitle'],
    ['a.sub', 'subtitle'],
    ['a.nfo', 'nfo'],
    ['a.NFO', 'nfo'],
    ['a.txt', 'other'],
    ['a.rar', 'other'],
    ['mkv', 'other'],
    ['.mkv', 'other'],
  ])('%s is %s', (name, type) => {
    expect(fileType(name, types)).toBe(type);
  });
});

describe('isPartial', () => {
  it.each([
    'Movie.2010.mkv.part',
    'Movie.2010.mkv.!qB',
    'Movie.2010.mkv.!qb',
    'Movie.2010.mkv.crdownload',
    'Movie.2010.mkv.tmp',
    'Movie.2010.mkv.unwanted',
    'Movie.2010.mkv.partial',
    'x.mkv.aria2',
    'Rel/_UNPACK_Movie.2010/Movie.2010.mkv',
    '_FAILED_Movie.2010/Movie.2010.mkv',
    'deep/_unpack_Rel/sub/x.mkv',
    'Rel/_unpack/x.mkv',
    'Rel/.unwanted/x.mkv',
    'Movie.2010.#42/Movie.2010.mkv',
  ])('%s is partial', (rel) => {
    expect(partial(rel)).toBe(true);
  });

  it('a file with an aria2 control file beside it is still downloading', () => {
    expect(partial('Rel/Movie.2010.mkv', ['Movie.2010.mkv', 'Movie.2010.mkv.aria2'])).toBe(true);
    expect(partial('Rel/Movie.2010.mkv', ['Movie.2010.mkv', 'Other.mkv.aria2'])).toBe(false);
  });

  it.each(['Movie.2010.mkv', 'Unpacked.Movie.2010/x.mkv', 'Rel/part/x.mkv', 'Movie.Part.2.2010.mkv', 'FAILED.Movie.2010/x.mkv'])('%s is not partial', (rel) => {
    expect(partial(rel)).toBe(false);
  });
});

describe('samples', () => {
  it.each(['Rel/Sample/x.mkv', 'Rel/samples/x.mkv', 'Rel/movie-sample.mkv', 'Rel/sample.mkv', 'Rel/movie.sample.mkv', 'Rel/Movie Sample.mkv', 'SAMPLE.mkv'])(
    '%s is a sample by name',
    (rel) => {
      expect(isSampleByName(rel.split('/'))).toBe(true);
    },
  );

  it.each(['Rel/Movie.2010.mkv', 'Rel/Samples.of.Life.2010/x.mkv', 'Sampled.2010.mkv', 'Rel/Sample.mkv.d/x.mkv'])('%s is not', (rel) => {
    expect(isSampleByName(rel.split('/'))).toBe(false);
  });

  it('a video of sample_max_bytes or less is a sample; 0 turns the rule off', () => {
    expect(isSampleSize(50, 50)).toBe(true);
    expect(isSampleSize(51, 50)).toBe(false);
    expect(isSampleSize(0, 0)).toBe(false);
  });
});

describe('isInExtrasFolder', () => {
  it('knows the Plex extras folders, at any depth, but not in the file name', () => {
    expect(isInExtrasFolder(['Movie.2010', 'Featurettes', 'Making of.mkv'])).toBe(true);
    expect(isInExtrasFolder(['Movie.2010', 'Behind The Scenes', 'x.mkv'])).toBe(true);
    expect(isInExtrasFolder(['Trailers.2010.mkv'])).toBe(false);
    expect(isInExtrasFolder(['Movie.2010', 'x.mkv'])).toBe(false);
  });
});

describe('isSettled', () => {
  it('is settled once not written for settle_seconds', () => {
    expect(isSettled(1000, 1000 + 120_000, 120)).toBe(true);
    expect(isSettled(1000, 1000 + 119_999, 120)).toBe(false);
    expect(isSettled(1000, 1000, 0)).toBe(true);
  });

  it('a file stamped in the future (a skewed clock) is not settled until then', () => {
    expect(isSettled(10_000, 5000, 0)).toBe(false);
  });
});
