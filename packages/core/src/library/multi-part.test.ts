import { describe, expect, it } from 'vitest';
import { moviePart } from './multi-part.ts';

describe('moviePart', () => {
  it.each([
    ['Movie (2010) - cd1', 'Movie (2010)', 1, 'Movie (2010) - cd1'],
    ['Movie (2010) - cd2', 'Movie (2010)', 2, 'Movie (2010) - cd1'],
    ['Movie (2010) - CD2', 'Movie (2010)', 2, 'Movie (2010) - CD1'],
    ['Movie (2010)-cd2', 'Movie (2010)', 2, 'Movie (2010)-cd1'],
    ['Movie (2010) cd 2', 'Movie (2010)', 2, 'Movie (2010) cd 1'],
    ['Movie (2010) - part1', 'Movie (2010)', 1, 'Movie (2010) - part1'],
    ['Movie (2010) part2', 'Movie (2010)', 2, 'Movie (2010) part1'],
    ['Movie (2010).pt2', 'Movie (2010)', 2, 'Movie (2010).pt1'],
    ['The Dark Knight (2008) - pt2', 'The Dark Knight (2008)', 2, 'The Dark Knight (2008) - pt1'],
    ['Movie (2010) - Part 2', 'Movie (2010)', 2, 'Movie (2010) - Part 1'],
    ['Movie (2010) - disc2', 'Movie (2010)', 2, 'Movie (2010) - disc1'],
    ['Movie (2010) - disk2', 'Movie (2010)', 2, 'Movie (2010) - disk1'],
    ['Movie (2010) - dvd2', 'Movie (2010)', 2, 'Movie (2010) - dvd1'],
    ['Movie (2010) (Disc 02)', 'Movie (2010)', 2, 'Movie (2010) (Disc 01)'],
    ['Movie (2010)[cd2]', 'Movie (2010)', 2, 'Movie (2010)[cd1]'],
    ['Movie-cd02', 'Movie', 2, 'Movie-cd01'],
    ['Bad Boys 2006.part3', 'Bad Boys 2006', 3, 'Bad Boys 2006.part1'],
    ['Neverland (2011)[720p][PG]part2', 'Neverland (2011)[720p][PG]', 2, 'Neverland (2011)[720p][PG]part1'],
    // letters a–d, after a part type or a dash after the year
    ['Movie (2010) parta', 'Movie (2010)', 1, 'Movie (2010) parta'],
    ['Movie (2010) - cd b', 'Movie (2010)', 2, 'Movie (2010) - cd a'],
    ['Movie (2010)-a', 'Movie (2010)', 1, 'Movie (2010)-a'],
    ['Movie (2010)-b', 'Movie (2010)', 2, 'Movie (2010)-a'],
    ['Movie (2010) - B', 'Movie (2010)', 2, 'Movie (2010) - A'],
    ['Movie (2010)-d', 'Movie (2010)', 4, 'Movie (2010)-a'],
  ])('%s is part %s … %i', (base, name, part, first) => {
    expect(moviePart(base)).toEqual({ name, part, first });
  });

  it.each([
    'Movie (2010)',
    'Movie (2010) - 1080p',
    'Movie (2010) - Directors Cut',
    'Movie (2010) cd0',
    'Movie (2010)-e',
    'Movie (2010) - cd1 - extended',
    // sequels are titled so: `part` and `pt` count glued to the number or after the year
    'Harry Potter and the Deathly Hallows - Part 2',
    'Harry Potter and the Deathly Hallows Part 2',
    'Kill Bill Part 1',
    // a bare letter only after the year
    'Vitamin-D',
    'Plan - B',
    'Harry Potter and the Deathly Hallows 2',
    'cd1',
  ])('%s is no part', (base) => {
    expect(moviePart(base)).toBeNull();
  });
});
