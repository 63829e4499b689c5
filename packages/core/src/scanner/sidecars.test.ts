import { describe, expect, it } from 'vitest';
import { attachSidecars } from './sidecars.ts';

const f = (rel: string) => ({ rel });

function attach(videos: string[], sidecars: string[]) {
  const v = videos.map(f);
  const s = sidecars.map(f);
  const { attached, orphans } = attachSidecars(v, s);
  const out: Record<string, string[]> = {};
  for (const [video, list] of attached) {
    out[video.rel] = list.map((a) => `${a.file.rel} ${a.tags ? JSON.stringify(a.tags) : 'nfo'}`);
  }
  return { out, orphans: orphans.map((o) => o.rel) };
}

const tags = (language: string | null, forced = false, sdh = false) => JSON.stringify({ language, forced, sdh });

describe('attachSidecars', () => {
  it('matches by the video name in the same folder, keeping the tags after it', () => {
    const r = attach(['Movie.2010.1080p.mkv'], ['Movie.2010.1080p.en.srt', 'Movie.2010.1080p.en.forced.srt', 'Movie.2010.1080p.nfo', 'Movie.2010.1080p.srt']);
    expect(r.orphans).toEqual([]);
    expect(r.out['Movie.2010.1080p.mkv']).toEqual([
      `Movie.2010.1080p.en.srt ${tags('en')}`,
      `Movie.2010.1080p.en.forced.srt ${tags('en', true)}`,
      'Movie.2010.1080p.nfo nfo',
      `Movie.2010.1080p.srt ${tags(null)}`,
    ]);
  });

  it('prefers the longest matching video name', () => {
    const r = attach(['Show/Show.S01E01.mkv', 'Show/Show.S01E01.Extended.mkv'], ['Show/Show.S01E01.Extended.en.srt']);
    expect(Object.keys(r.out)).toEqual(['Show/Show.S01E01.Extended.mkv']);
  });

  it('does not match a name that merely starts with the same letters', () => {
    const r = attach(['Show.S01E01.mkv'], ['Show.S01E011.srt']);
    expect(r.orphans).toEqual(['Show.S01E011.srt']);
  });

  it('matches case-insensitively', () => {
    expect(attach(['Rel/movie.2010.mkv'], ['Rel/MOVIE.2010.EN.srt']).out['Rel/movie.2010.mkv']).toEqual([`Rel/MOVIE.2010.EN.srt ${tags('en')}`]);
  });

  it('takes a Subs folder beside the only video', () => {
    const r = attach(
      ['Movie.2010/Movie.2010.mkv'],
      ['Movie.2010/Subs/English.srt', 'Movie.2010/Subs/2_French.srt', 'Movie.2010/Subtitles/3_English.forced.srt'],
    );
    expect(r.out['Movie.2010/Movie.2010.mkv']).toEqual([
      `Movie.2010/Subs/English.srt ${tags('en')}`,
      `Movie.2010/Subs/2_French.srt ${tags('fr')}`,
      `Movie.2010/Subtitles/3_English.forced.srt ${tags('en', true)}`,
    ]);
  });

  it('takes Subs/<video name>/ folders of a season pack to their episode', () => {
    const r = attach(
      ['Pack/Show.S01E01.mkv', 'Pack/Show.S01E02.mkv'],
      ['Pack/Subs/Show.S01E01/2_English.srt', 'Pack/Subs/Show.S01E02/2_English.srt', 'Pack/Subs/Show.S01E02.en.srt', 'Pack/Subs/English.srt'],
    );
    expect(r.out['Pack/Show.S01E01.mkv']).toEqual([`Pack/Subs/Show.S01E01/2_English.srt ${tags('en')}`]);
    expect(r.out['Pack/Show.S01E02.mkv']).toEqual([`Pack/Subs/Show.S01E02/2_English.srt ${tags('en')}`, `Pack/Subs/Show.S01E02.en.srt ${tags('en')}`]);
    // Which episode a bare English.srt in a pack belongs to cannot be known.
    expect(r.orphans).toEqual(['Pack/Subs/English.srt']);
  });

  it('gives the only video of a release folder its other sidecars', () => {
    const r = attach(['Rel/movie-grp.mkv'], ['Rel/Movie.2010.1080p.en.srt', 'Rel/release.nfo']);
    expect(r.out['Rel/movie-grp.mkv']).toEqual([`Rel/Movie.2010.1080p.en.srt ${tags('en')}`, 'Rel/release.nfo nfo']);
  });

  it('never gives a video the subtitles of another episode', () => {
    const r = attach(['Rel/Show.S01E02.mkv'], ['Rel/Show.S01E01.en.srt']);
    expect(r.orphans).toEqual(['Rel/Show.S01E01.en.srt']);
  });

  it('matches loose files in the downloads folder by name only', () => {
    const r = attach(['A.2010.mkv'], ['B.2011.en.srt', 'notes.nfo', 'A.2010.en.srt']);
    expect(r.out['A.2010.mkv']).toEqual([`A.2010.en.srt ${tags('en')}`]);
    expect(r.orphans).toEqual(['B.2011.en.srt', 'notes.nfo']);
  });

  it('leaves sidecars with no video as orphans', () => {
    expect(attach([], ['Rel/x.srt']).orphans).toEqual(['Rel/x.srt']);
    expect(attach(['Rel/a.mkv', 'Rel/b.mkv'], ['Rel/c.srt']).orphans).toEqual(['Rel/c.srt']);
  });
});
