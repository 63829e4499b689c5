import { describe, expect, it } from 'vitest';
import { aliasTable } from './aliases.ts';
import { buildFolderLookup, type LibraryFolder } from './folder-lookup.ts';
import { identify, titleCase, type IdentifyContext, type ProviderAnswers } from './identify.ts';

const tv = (name: string): LibraryFolder => ({ drive: 'disk1', section: 'tv', root: 'TV', name });
const movie = (name: string): LibraryFolder => ({ drive: 'disk1', section: 'movies', root: 'Movies', name });

function context(folders: LibraryFolder[], over: Partial<IdentifyContext> = {}): IdentifyContext {
  return { folders: buildFolderLookup([], folders, new Set()), aliases: () => null, ...over };
}

/** What the scanner decided: `folder | title | SxxEyy` for a plan, the reason for a refusal. */
function decide(name: string, ctx: IdentifyContext): string {
  const r = identify(name, ctx);
  if (!r.ok) return r.reason;
  const m = r.media;
  const numbers = m.season !== null ? `S${m.season}E${m.episodes.join('-')}` : (m.air_date ?? String(m.year));
  return `${r.folders[0]?.name ?? 'new'} | ${m.title} | ${numbers}`;
}

describe('identify: the library decides between readings', () => {
  it('takes the reading that alone fits a library folder', () => {
    expect(decide('Hanayome 3 - 21 [1080p].mkv', context([tv('Hanayome')]))).toBe('Hanayome | Hanayome | S3E21');
    expect(decide('parks_04_12.avi', context([tv('Parks')]))).toBe('Parks | parks | S4E12');
    expect(decide('parks_04_12.avi', context([tv('The Parks')]))).toBe('The Parks | parks | S4E12');
    expect(decide('Тихий город (S3E2) / Quiet Town (S3E2) (2021) WEB-DL 1080p.mkv', context([tv('Quiet Town (2021)')]))).toBe(
      'Quiet Town (2021) | Quiet Town | S3E2',
    );
  });

  it('refuses, with every reading as a candidate, where two fit or the fitting one has no season', () => {
    const both = identify('Hanayome 3 - 21 [1080p].mkv', context([tv('Hanayome'), tv('Hanayome 3')]));
    expect(both).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(!both.ok && both.detail).toContain('reads as "Hanayome 3" absolute 21 in Hanayome 3 or "Hanayome" S03E21 in Hanayome');
    expect(both.readings.map((r) => r.folder?.name)).toEqual(['Hanayome 3', 'Hanayome']);

    const absolute = identify('Hanayome 3 - 21 [1080p].mkv', context([tv('Hanayome 3')]));
    expect(absolute).toMatchObject({
      ok: false,
      reason: 'unrecognized',
      detail: 'absolute episode numbers without a season; it reads as "Hanayome 3" absolute 21 in Hanayome 3 or "Hanayome" S03E21',
    });
    expect(absolute.readings.map((r) => [r.media.title, r.folder?.name ?? null])).toEqual([
      ['Hanayome 3', 'Hanayome 3'],
      ['Hanayome', null],
    ]);
    // An old scene number or an absolute one, of one series: which episode is meant the name cannot say.
    expect(decide('the.Programme.305.avi', context([tv('The Programme')]))).toBe('ambiguous');
  });

  it('does not take a reading nothing confirms: a name the parser refuses stays refused, with its readings', () => {
    const r = identify('[Grp] Kodomo - Hikari no Machi - 07 [1080p].mkv', context([]));
    expect(r).toMatchObject({
      ok: false,
      reason: 'unrecognized',
      detail: 'the series title may end before its " - "; it reads as "Kodomo - Hikari no Machi" absolute 7 or "Kodomo" absolute 7',
    });
    expect(r.readings.map((x) => x.media.title)).toEqual(['Kodomo - Hikari no Machi', 'Kodomo']);
    expect(decide('parks_04_12.avi', context([tv('Other')]))).toBe('unrecognized');
  });

  it("makes a new folder for the parser's own reading where no library folder is near it", () => {
    expect(decide('Brand.New.Show.S01E01.720p.mkv', context([tv('Other Show Entirely')]))).toBe('new | Brand New Show | S1E1');
    expect(decide('the.bear.s02e01.mkv', context([]))).toBe('new | The Bear | S2E1');
  });

  it('never a new folder beside a near one: into it when the rest is a marker, ambiguous otherwise', () => {
    expect(decide('Show Name - Tem 1 [Cap.102].mkv', context([tv('Show Name')]))).toBe('Show Name | Show Name - Tem 1 | S1E2');
    // `Show` is near only through words `Show Name` has too: the closer folder decides.
    expect(decide('Show Name - Tem 1 [Cap.102].mkv', context([tv('Show Name'), tv('Show')]))).toBe('Show Name | Show Name - Tem 1 | S1E2');
    expect(decide('Show.Name.German.Dubbed.S02E03.mkv', context([tv('Show Name (2019)')]))).toMatch(/^Show Name \(2019\) \|/);
    const other = identify('Show.Name.2.S01E01.720p.mkv', context([tv('Show Name')]));
    expect(other).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(!other.ok && other.detail).toBe('library folders near "Show Name 2" S01E01: Show Name; a new folder beside them may split one show');
    expect(other.readings.map((r) => r.folder?.name ?? null)).toEqual([null, 'Show Name']);
    expect(decide('Show.S01E01.720p.mkv', context([tv('Show Name')]))).toBe('ambiguous');
    // Words before the folder's title, or words a title may hold, make another show: never into it.
    expect(decide('The.Real.Hustle.S01E01.720p.HDTV.x264.mkv', context([tv('Hustle')]))).toBe('ambiguous');
    expect(decide('Final.Space.S01E01.720p.mkv', context([tv('Space')]))).toBe('ambiguous');
    expect(decide('Show.Name.Ultimate.S01E01.720p.mkv', context([tv('Show Name')]))).toBe('ambiguous');
  });

  it('a movie is near only a folder of its own year, and never beside a series of its title', () => {
    expect(decide('Toy.Story.2.1999.1080p.mkv', context([movie('Toy Story (1995)')]))).toBe('new | Toy Story 2 | 1999');
    expect(decide('Heist.Film.Extended.Cut.2016.1080p.mkv', context([movie('Heist Film (2016)')]))).toMatch(/^Heist Film \(2016\) \|/);
    expect(decide('Quiet.Town.French.2006.720p.BluRay.mkv', context([movie('Quiet Town French (2006)')]))).toBe(
      'Quiet Town French (2006) | Quiet Town French | 2006',
    );
    expect(decide('Quiet.Town.French.2006.720p.BluRay.mkv', context([movie('Quiet Town (2006)')]))).toBe('Quiet Town (2006) | Quiet Town | 2006');
    // Neither in the library: the word may end the title or tag the release, and a new folder of either may be wrong.
    const unsure = identify('Quiet.Town.French.2006.720p.BluRay.mkv', context([movie('Other (2006)')]));
    expect(unsure).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(unsure.readings.map((r) => r.media.title)).toEqual(['Quiet Town', 'Quiet Town French']);
    const r = identify('Quiet.Town.2010.1080p.BluRay.mkv', context([tv('Quiet Town (2010)')]));
    expect(r).toMatchObject({
      ok: false,
      reason: 'ambiguous',
      detail: 'read as the movie "Quiet Town" (2010), but the library has a series of that title: Quiet Town (2010)',
    });
  });

  it("goes by the owner's aliases, to the folder or (none yet) a new one of the series' name", () => {
    const aliases = aliasTable([{ name: 'Sousou no Kaeru', series: 'Kaeru: The Journey (2023)' }]);
    expect(decide('Sousou.no.Kaeru.S01E05.1080p.mkv', context([tv('Kaeru - The Journey (2023)')], { aliases }))).toBe(
      'Kaeru - The Journey (2023) | Kaeru: The Journey | S1E5',
    );
    expect(decide('Sousou.no.Kaeru.S01E05.1080p.mkv', context([], { aliases }))).toBe('new | Kaeru: The Journey | S1E5');
    const office = aliasTable([{ name: 'The Office', series: 'The Office (US)' }]);
    const both = context([tv('The Office (US)'), tv('The Office (UK)')], { aliases: office });
    expect(decide('The.Office.S02E01.720p.mkv', both)).toBe('The Office (US) | The Office | S2E1');
    expect(decide('The.Office.UK.S02E01.720p.mkv', both)).toBe('The Office (UK) | The Office | S2E1');
  });

  it('the provider confirms a series the library lacks and numbers its absolute episodes; unsure, it decides nothing', () => {
    const provider: ProviderAnswers = {
      series: (title) =>
        title === 'Sousou no Kaeru' || title === 'Kaeru: The Journey' ? { id: 1, title: 'Kaeru: The Journey', year: 2023, country: null } : null,
      absolute: (_s, abs) => (abs[0]! <= 28 ? { season: 1, episodes: [...abs] } : null),
    };
    expect(decide('[Grp] Sousou no Kaeru - 05 (1080p).mkv', context([], { provider }))).toBe('new | Kaeru: The Journey | S1E5');
    expect(decide('[Grp] Sousou no Kaeru - 05 (1080p).mkv', context([tv('Kaeru - The Journey (2023)')], { provider }))).toBe(
      'Kaeru - The Journey (2023) | Kaeru: The Journey | S1E5',
    );
    expect(decide('[Grp] Sousou no Kaeru - 40 (1080p).mkv', context([], { provider }))).toBe('unrecognized');
    expect(decide('[Grp] Unknown Thing - 05 (1080p).mkv', context([], { provider }))).toBe('unrecognized');
    // The country a name gives goes with it to the provider and stays with its answer.
    const asked: (string | null)[] = [];
    const remakes: ProviderAnswers = {
      series: (title, _year, country) => {
        asked.push(country);
        return title === 'Shameless' ? { id: 2, title: 'Shameless', year: 2011, country } : null;
      },
      absolute: () => null,
    };
    expect(decide('Shameless.US.S01E01.720p.mkv', context([tv('Shameless (UK)')], { provider: remakes }))).toBe('new | Shameless | S1E1');
    expect(asked).toEqual(['US']);
    // A sequel's number is no absolute episode for the provider to map (`Scream 2` beside a series `Scream`).
    expect(decide('Quiet.Town.2.DVDRip.XviD.avi', context([tv('Quiet Town')], { provider }))).toBe('unrecognized');
    // The provider's title beside a folder the owner named otherwise is no more a new folder than the release's.
    expect(decide('[Grp] Sousou no Kaeru - 05 (1080p).mkv', context([tv('Kaeru')], { provider }))).toBe('ambiguous');
  });

  it("keeps the library's word on two folders of one title (Doctor Who 1963 and 2005) as before", () => {
    const r = identify('Doctor.Who.S01E01.mkv', context([tv('Doctor Who (1963)'), tv('Doctor Who (2005)')]));
    expect(r).toMatchObject({ ok: false, reason: 'ambiguous', detail: 'library folders that fit: Doctor Who (1963), Doctor Who (2005)' });
    expect(r.readings.map((x) => x.folder?.name)).toEqual(['Doctor Who (1963)', 'Doctor Who (2005)']);
  });
});

describe('titleCase: a title all in lower case for a new folder', () => {
  it('capitalises words but the small ones inside, and keeps any spelling with a capital', () => {
    expect(titleCase('the bear')).toBe('The Bear');
    expect(titleCase('lord of the rings')).toBe('Lord of the Rings');
    expect(titleCase("grey's anatomy")).toBe("Grey's Anatomy");
    expect(titleCase('iCarly')).toBe('iCarly');
    expect(titleCase('QI')).toBe('QI');
    expect(titleCase('24')).toBe('24');
  });
});
