import { describe, it } from 'vitest';
import { daily, episode, expectParsed, expectRefused } from '../test-fixtures/expect-parse.ts';

describe('form air date', () => {
  it.each([
    ['Late.Night.Talk.2023.11.02.Guest.Name.720p.WEB', daily('Late Night Talk', '2023-11-02')],
    ['Late Night Talk 2023-11-02.mkv', daily('Late Night Talk', '2023-11-02')],
    ['Late Night Talk 2023 11 02', daily('Late Night Talk', '2023-11-02')],
    ['Late.Night.Talk.2023.23.11.WEB', daily('Late Night Talk', '2023-11-23')],
    ['Abendschau.23.11.2023.German.720p', daily('Abendschau', '2023-11-23')],
    ['Late Night Talk - 11-23-2023 - Guest', daily('Late Night Talk', '2023-11-23')],
    ['Late Night Talk 11-23-21', daily('Late Night Talk', '2021-11-23')],
    ['LateNightTalk_20231102_2100.mp4', daily('LateNightTalk', '2023-11-02')],
    ['Late Night Talk (2 Nov 2023)', daily('Late Night Talk', '2023-11-02')],
    ['Late Night Talk 2nd November 2023 WEBRip', daily('Late Night Talk', '2023-11-02')],
    ['Late Night Talk 30th Sept 2020 WEBRip', daily('Late Night Talk', '2020-09-30')],
    ['Late Night Talk - Thu 02 Nov 2023', daily('Late Night Talk', '2023-11-02')],
    ['Late Night Talk 02-Nov-23 mp4', daily('Late Night Talk', '2023-11-02')],
    ['Late Night Talk November 2, 2023', daily('Late Night Talk', '2023-11-02')],
    ['Abendschau 2 Januar 2023', daily('Abendschau', '2023-01-02')],
  ])('%s', (name, want) => {
    expectParsed(name, want);
  });

  it('keeps the air date of a numbered episode beside its numbers', () => {
    expectParsed('Late Night Talk - S05E12 - (2023-11-02)', episode('Late Night Talk', 5, [12], { air_date: '2023-11-02' }));
  });

  it('refuses a date that reads as two days, and one that is no day at all', () => {
    expectRefused('Abendschau.05.06.2023.German', /two days/);
    expectRefused('Late.Night.Talk.2023.02.30.WEB');
  });

  it('refuses a date without a show', () => {
    expectRefused('2023.11.02.mkv', /title/);
  });
});
