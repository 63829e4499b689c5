import { describe, it } from 'vitest';
import { absolute, episode, expectParsed, expectRefused, movie } from '../test-fixtures/expect-parse.ts';

describe('form scene number', () => {
  it.each([
    ['iron.valley.311.hdtv-grp', episode('iron valley', 3, [11])],
    ['Iron.Valley.0105.720p.HDTV', episode('Iron Valley', 1, [5])],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it('leaves numbers of spaced names to the absolute form', () => {
    expectParsed('Iron Valley 311 vostfr HD', absolute('Iron Valley', [311]));
  });

  it('never takes a number followed by more title or a year', () => {
    expectParsed('Flight.311.To.Nowhere.2014.1080p.BluRay', movie('Flight 311 To Nowhere', 2014));
  });

  it('reads the number after a series year, four digits only in a broadcast capture', () => {
    expectParsed('iron.valley.2016.311.hdtv-grp', episode('iron valley', 3, [11], { year: 2016 }));
    expectParsed('Iron.Valley.2016.0311.720p.WEB', episode('Iron Valley', 3, [11], { year: 2016 }));
    expectParsed('iron.valley.2016.1204.hdtv-grp', episode('iron valley', 12, [4], { year: 2016 }));
  });

  it('refuses a number after a year that it cannot be sure of, rather than drop it from a movie', () => {
    const why = /number after the year/;
    expectRefused('iron.valley.2016.311', why);
    expectRefused('iron.valley.2016.311-grp', why);
    expectRefused('iron.valley.2016.311.extra.words-grp', why);
    expectRefused('Iron Valley 2016 311 HDTV', why);
    expectRefused('iron.valley.2016.300.hdtv', why);
    expectRefused('Iron.Valley.2016.1204.1080p.WEB', why);
    expectRefused('Iron.Valley.2016.720.BluRay', why);
  });

  it('leaves a second year to the movie form', () => {
    expectParsed('Iron.Valley.2049.2016.720p.BluRay', movie('Iron Valley 2049', 2016));
  });
});
