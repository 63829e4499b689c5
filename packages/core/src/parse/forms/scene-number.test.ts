import { describe, it } from 'vitest';
import { absolute, episode, expectParsed, movie } from '../test-fixtures/expect-parse.ts';

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
});
