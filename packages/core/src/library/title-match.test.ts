import { describe, expect, it } from 'vitest';
import { capitalsCountryReading, titleKey, type TitleKey } from '../parse/title-key.ts';
import { contradicts, fittingFolders, folderTitleKey, sameTitleGroups } from './title-match.ts';

const k = (key: string, year: number | null = null, country: string | null = null): TitleKey => ({ key, year, country });

describe('titleKey', () => {
  it.each([
    ['The Office (US)', null, null, k('office', null, 'US')],
    ['The Office US', null, null, k('office', null, 'US')],
    ['The Office', null, 'us', k('office', null, 'US')],
    ['Doctor Who (2005)', null, null, k('doctor who', 2005)],
    ['Doctor Who 2005', null, null, k('doctor who', 2005)],
    ['Doctor Who [2005]', 2005, null, k('doctor who', 2005)],
    ['Shameless (US) (2011)', null, null, k('shameless', 2011, 'US')],
    ['Shameless (US)', 2011, null, k('shameless', 2011, 'US')],
    ['The Office (US) [tvdbid-73244]', null, null, k('office', null, 'US')],
    ['Show Name {tvdb-1234}', null, null, k('show name')],
    ['Heat {imdb-tt0113277}', 1995, null, k('heat', 1995)],
    ["Marvel's Agents of S.H.I.E.L.D.", null, null, k('marvels agents of shield')],
    ['Marvels Agents of SHIELD', null, null, k('marvels agents of shield')],
    ['Law & Order', null, null, k('law and order')],
    ['Amélie', 2001, null, k('amelie', 2001)],
    ['Office, The', null, null, k('office')],
    ['The Office', null, null, k('office')],
  ] as const)('%j (year %j, country %j)', (title, year, country, expected) => {
    expect(titleKey(title, year, country)).toEqual(expected);
  });

  it.each([
    // A title word, not a country: lower case, or not a code of a remade series.
    ['This Is Us', null, k('this is us')],
    ['Among Us', null, k('among us')],
    // In a title all in capitals a bare code may be either: the library decides (capitalsCountryReading).
    ['THIS IS US', null, k('this is us')],
    ['Ghosts DE', null, k('ghosts de')],
    // A trailing number that is not the year given is part of the title.
    ['Wonder Woman 1984', 2020, k('wonder woman 1984', 2020)],
    ['Blade Runner 2049', 2017, k('blade runner 2049', 2017)],
    // Nothing left without it: the number is the title.
    ['1917', 2019, k('1917', 2019)],
    ['2012', null, k('2012')],
    ['US', null, k('us')],
    // Foreign articles stay (see titleKey).
    ['Die Hard', null, k('die hard')],
    ['Das Boot', 1981, k('das boot', 1981)],
  ] as const)('keeps %j (year %j) whole', (title, year, expected) => {
    expect(titleKey(title, year)).toEqual(expected);
  });
});

describe('folderTitleKey', () => {
  it.each([
    ['Doctor Who (2005) [tvdbid-78804]', k('doctor who', 2005)],
    ['The Office (US)', k('office', null, 'US')],
    ['The Office (2005) (US)', k('office', 2005, 'US')],
    ['Amélie (2001)', k('amelie', 2001)],
    ["Marvel's Agents of S.H.I.E.L.D.", k('marvels agents of shield')],
    ['Law & Order', k('law and order')],
  ])('%s', (name, expected) => {
    expect(folderTitleKey(name)).toEqual(expected);
  });
});

/** Whether a download's parse (title, year, country) may go into the folder: same key, nothing contradicting. */
function fits(folder: string, title: string, year: number | null = null, country: string | null = null): boolean {
  const f = folderTitleKey(folder);
  const w = titleKey(title, year, country);
  return f.key === w.key && !contradicts(f, w);
}

describe('a name against a folder', () => {
  it.each([
    ['The Office (US)', 'The Office', null, 'US'],
    ['Doctor Who (2005)', 'Doctor Who', 2005, null],
    ['Doctor Who (2005) [tvdbid-78804]', 'Doctor Who', 2005, null],
    ['Law & Order', 'Law and Order', null, null],
    ['Amélie (2001)', 'Amelie', 2001, null],
    ["Marvel's Agents of S.H.I.E.L.D.", "Marvel's Agents of S.H.I.E.L.D", null, null],
    ['Office, The', 'The Office', null, null],
    ['The Office (US)', 'The Office', null, null],
    ['Doctor Who', 'Doctor Who', 2005, null],
  ] as const)('%s takes %s %s %s', (folder, title, year, country) => {
    expect(fits(folder, title, year, country)).toBe(true);
  });

  it.each([
    ['The Office (US)', 'The Office', null, 'UK'],
    ['The Office (UK)', 'The Office', null, 'US'],
    ['Doctor Who (1963)', 'Doctor Who', 2005, null],
    ['Castle (2009)', 'Castle Rock', null, null],
    ['Castle Rock', 'Castle', 2009, null],
    ['Cosmos', 'Cosmos: A Spacetime Odyssey', null, null],
    ['Cosmos - A Spacetime Odyssey', 'Cosmos', null, null],
    ['Die Hard (1988)', 'Hard', 1988, null],
    ['This Is Us', 'This Is', null, 'US'],
  ] as const)('%s does not take %s %s %s', (folder, title, year, country) => {
    expect(fits(folder, title, year, country)).toBe(false);
  });

  it('tells folders of remakes apart', () => {
    expect(contradicts(folderTitleKey('The Office (US)'), folderTitleKey('The Office (UK)'))).toBe(true);
    expect(contradicts(folderTitleKey('Doctor Who (1963)'), folderTitleKey('Doctor Who (2005)'))).toBe(true);
    expect(contradicts(folderTitleKey('Doctor Who'), folderTitleKey('Doctor Who (2005)'))).toBe(false);
  });
});

describe('fittingFolders', () => {
  const pick = (wanted: TitleKey, names: string[]) => {
    const r = fittingFolders(wanted, names, folderTitleKey);
    return `${r.kind}: ${r.folders.join(' | ')}`;
  };

  it('finds the one show, on however many drives it lies', () => {
    expect(pick(k('lost'), ['Lost', 'Lost'])).toBe('found: Lost | Lost');
    expect(pick(k('office', null, 'US'), ['The Office (US)', 'The Office (UK)'])).toBe('found: The Office (US)');
    expect(pick(k('doctor who', 2005), ['Doctor Who (1963)', 'Doctor Who (2005)'])).toBe('found: Doctor Who (2005)');
    expect(pick(k('castle'), ['Castle Rock'])).toBe('found: ');
  });

  it('prefers the folder that says what the name says over one that says nothing', () => {
    expect(pick(k('doctor who', 2005), ['Doctor Who', 'Doctor Who (2005)'])).toBe('found: Doctor Who (2005)');
    expect(pick(k('doctor who', 2005), ['Doctor Who', 'Doctor Who (1963)'])).toBe('found: Doctor Who');
  });

  it('lets a name without year or country take the single show of its title', () => {
    expect(pick(k('doctor who'), ['Doctor Who (2005)'])).toBe('found: Doctor Who (2005)');
  });

  it('refuses to choose between two shows the name fits', () => {
    expect(pick(k('doctor who'), ['Doctor Who (1963)', 'Doctor Who (2005)'])).toBe('ambiguous: Doctor Who (1963) | Doctor Who (2005)');
    expect(pick(k('office'), ['The Office (US)', 'The Office (UK)'])).toBe('ambiguous: The Office (US) | The Office (UK)');
    expect(pick(k('doctor who'), ['Doctor Who', 'Doctor Who (2005)'])).toBe('ambiguous: Doctor Who | Doctor Who (2005)');
    expect(pick(k('office', 2005, 'US'), ['The Office (US)', 'The Office (2005)'])).toBe('ambiguous: The Office (US) | The Office (2005)');
  });
});

describe('sameTitleGroups', () => {
  const g = (xs: [string, number | null, string | null][]) => sameTitleGroups(xs, (x) => titleKey(x[0], x[1], x[2])).map((b) => b.map((x) => x.join('|')));

  it('buckets by key, joining things without a year or country to the one there is', () => {
    expect(
      g([
        ['Lost', null, null],
        ['lost', 2004, null],
        ['LOST!', null, null],
        ['Fargo', null, null],
      ]),
    ).toEqual([['Lost||', 'lost|2004|', 'LOST!||'], ['Fargo||']]);
    expect(
      g([
        ['The Office', null, 'US'],
        ['Office', 2005, null],
      ]),
    ).toEqual([['The Office||US', 'Office|2005|']]);
  });

  it('splits by year when there are several, leaving those without a year on their own', () => {
    expect(
      g([
        ['Doctor Who', 1963, null],
        ['Doctor Who', null, null],
        ['Doctor Who', 2005, null],
        ['Doctor Who', 2005, null],
      ]),
    ).toEqual([['Doctor Who|1963|'], ['Doctor Who||'], ['Doctor Who|2005|', 'Doctor Who|2005|']]);
  });

  it('splits by country likewise', () => {
    expect(
      g([
        ['The Office (US)', null, null],
        ['The Office', null, 'UK'],
        ['The Office', null, null],
        ['Office', null, 'US'],
      ]),
    ).toEqual([['The Office (US)||', 'Office||US'], ['The Office||UK'], ['The Office||']]);
  });
});

describe('capitalsCountryReading', () => {
  it('reads a bare code ending a title all in capitals as a country, for the library to confirm', () => {
    expect(capitalsCountryReading('THE OFFICE US')).toEqual({ title: 'THE OFFICE', country: 'US' });
    expect(capitalsCountryReading('The Office US')).toBeNull();
    expect(capitalsCountryReading('THE OFFICE (US)')).toBeNull();
    expect(capitalsCountryReading('GHOSTS DE')).toBeNull();
    expect(capitalsCountryReading('US')).toBeNull();
  });
});
