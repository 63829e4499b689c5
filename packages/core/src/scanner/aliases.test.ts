import { describe, expect, it } from 'vitest';
import { aliasTable } from './aliases.ts';

describe('aliasTable: the series an alias names', () => {
  const table = aliasTable([
    { name: 'Sousou no Kaeru', series: 'Kaeru: The Journey (2023)' },
    { name: 'The Programme (2010)', series: 'Programme, The (2010)' },
    { name: 'Twice Said', series: 'First Show' },
    { name: 'twice said', series: 'Second Show' },
  ]);

  it('compares names as titles compare, and reads the series as a folder name', () => {
    expect(table('sousou no kaeru', null, null)).toEqual({ title: 'Kaeru: The Journey', year: 2023, country: null });
    expect(table('Sousou-no-Kaeru!', null, null)).toEqual({ title: 'Kaeru: The Journey', year: 2023, country: null });
  });

  it('an alias with a year is not for a download of another year', () => {
    expect(table('The Programme', 2010, null)).toMatchObject({ year: 2010 });
    expect(table('The Programme', null, null)).toMatchObject({ year: 2010 });
    expect(table('The Programme', 1999, null)).toBeNull();
  });

  it("a download whose year or country contradicts the alias's series is not that series", () => {
    const who = aliasTable([
      { name: 'Doctor Who', series: 'Doctor Who (2005)' },
      { name: 'The Office', series: 'The Office (US)' },
    ]);
    expect(who('Doctor Who', null, null)).toMatchObject({ year: 2005 });
    expect(who('Doctor Who', 1963, null)).toBeNull();
    expect(who('The Office', null, 'UK')).toBeNull();
    expect(who('The Office', null, 'US')).toMatchObject({ title: 'The Office' });
  });

  it('two aliases of one name for different series settle nothing', () => {
    expect(table('Twice Said', null, null)).toBeNull();
    expect(table('Unknown', null, null)).toBeNull();
  });
});
