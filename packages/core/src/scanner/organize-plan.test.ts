import { KNOWN_SUBTITLE_EXTENSIONS, KNOWN_VIDEO_EXTENSIONS, type IndexItem } from '@mo/shared';
import { describe, expect, it } from 'vitest';
import { classify, titleYearOfFolder } from '../library/classify.ts';
import { planOrganize } from './organize-plan.ts';

const M = '/m/disk1/Movies';
const T = '/m/disk1/TV';
const templates = {
  movieTemplate: '{title} ({year})/{title} ({year}){ext}',
  episodeTemplate: '{series}/Season {season:00}/{series} - S{season:00}E{episode:00}{ext}',
};

/** An index item as a library scan reads the file at `path`. */
function indexed(path: string): IndexItem {
  const root = path.startsWith(M) ? M : T;
  const parts = path.slice(root.length + 1).split('/');
  const section = root === M ? 'movies' : 'tv';
  const c = classify(section, parts, { videoExtensions: KNOWN_VIDEO_EXTENSIONS, subtitleExtensions: KNOWN_SUBTITLE_EXTENSIONS }, titleYearOfFolder);
  return { path, drive: 'disk1', section, root, folder: parts.length > 1 ? `${root}/${parts[0]}` : root, bytes: 1, mtime_ms: 0, nfo: null, ...c };
}

const plan = (...paths: string[]) => planOrganize(paths.map(indexed), templates).map((r) => [r.from, r.to, r.kind]);

describe('planOrganize', () => {
  it('names an episode file as the template does, in its own season folder', () => {
    expect(planOrganize([indexed(`${T}/The Office/Season 1/the.office.s01e02.mkv`)], templates)).toEqual([
      {
        from: `${T}/The Office/Season 1/the.office.s01e02.mkv`,
        to: `${T}/The Office/Season 1/The Office - S01E02.mkv`,
        kind: 'episode',
        reason: 'the file name is not what the episode template gives for The Office S01E02',
      },
    ]);
  });

  it('keeps a sidecar named for the new name already as it is, or only changes its case', () => {
    expect(plan(`${M}/Heat (1995)/heat.mkv`, `${M}/Heat (1995)/Heat (1995).en.srt`, `${M}/Heat (1995)/heat (1995).forced.srt`)).toEqual([
      [`${M}/Heat (1995)/heat.mkv`, `${M}/Heat (1995)/Heat (1995).mkv`, 'movie'],
      [`${M}/Heat (1995)/heat (1995).forced.srt`, `${M}/Heat (1995)/Heat (1995).forced.srt`, 'movie'],
    ]);
  });

  it('renames a release-named movie folder after its file, which keeps the folder it is in', () => {
    expect(plan(`${M}/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv`)).toEqual([
      [`${M}/Heat.1995.1080p.BluRay/Heat.1995.1080p.BluRay.x264-GRP.mkv`, `${M}/Heat.1995.1080p.BluRay/Heat (1995).mkv`, 'movie'],
      [`${M}/Heat.1995.1080p.BluRay`, `${M}/Heat (1995)`, 'folder'],
    ]);
    expect(planOrganize([indexed(`${M}/Heat.1995.1080p.BluRay/Heat (1995).mkv`)], templates)[0]!.reason).toBe(
      'the folder name is not what the movie template gives for Heat (1995)',
    );
  });

  it('gives a well named library no renames', () => {
    expect(
      plan(
        `${M}/Heat (1995)/Heat (1995).mkv`,
        `${M}/Heat (1995)/Heat (1995).en.srt`,
        `${M}/Heat (1995)/movie.nfo`,
        `${T}/The Office/Season 01/The Office - S01E02.mkv`,
        `${T}/Doctor Who (2005)/Season 01/Doctor Who (2005) - S01E01.mkv`,
      ),
    ).toEqual([]);
  });

  it('takes subtitles and .nfo files along with their video, keeping their language tags', () => {
    expect(
      plan(`${M}/Heat (1995)/heat.1995.mkv`, `${M}/Heat (1995)/heat.1995.en.forced.srt`, `${M}/Heat (1995)/heat.1995.nfo`, `${M}/Heat (1995)/movie.nfo`),
    ).toEqual([
      [`${M}/Heat (1995)/heat.1995.mkv`, `${M}/Heat (1995)/Heat (1995).mkv`, 'movie'],
      [`${M}/Heat (1995)/heat.1995.en.forced.srt`, `${M}/Heat (1995)/Heat (1995).en.forced.srt`, 'movie'],
      [`${M}/Heat (1995)/heat.1995.nfo`, `${M}/Heat (1995)/Heat (1995).nfo`, 'movie'],
    ]);
  });

  it('gives each sidecar to the video whose name it starts with', () => {
    expect(
      plan(
        `${T}/Lost/Season 1/lost.s01e01.mkv`,
        `${T}/Lost/Season 1/lost.s01e01.en.srt`,
        `${T}/Lost/Season 1/lost.s01e02.mkv`,
        `${T}/Lost/Season 1/lost.s01e02.srt`,
      ),
    ).toEqual([
      [`${T}/Lost/Season 1/lost.s01e01.mkv`, `${T}/Lost/Season 1/Lost - S01E01.mkv`, 'episode'],
      [`${T}/Lost/Season 1/lost.s01e01.en.srt`, `${T}/Lost/Season 1/Lost - S01E01.en.srt`, 'episode'],
      [`${T}/Lost/Season 1/lost.s01e02.mkv`, `${T}/Lost/Season 1/Lost - S01E02.mkv`, 'episode'],
      [`${T}/Lost/Season 1/lost.s01e02.srt`, `${T}/Lost/Season 1/Lost - S01E02.srt`, 'episode'],
    ]);
  });

  it('lists no rename onto a path the index holds, in any case, nor its sidecars', () => {
    expect(plan(`${M}/Heat (1995)/heat.mkv`, `${M}/Heat (1995)/heat.en.srt`, `${M}/Heat (1995)/heat (1995).en.srt`)).toEqual([]);
    expect(plan(`${M}/Heat.1995.1080p/Heat (1995).mkv`, `${M}/Heat (1995)/Heat (1995).mkv`)).toEqual([]);
  });

  it('lists no group whose sidecar would get a name longer than a filesystem takes', () => {
    const title = 'L'.repeat(200);
    const tags = 'x'.repeat(240);
    expect(plan(`${M}/${title} (1995)/m.mkv`, `${M}/${title} (1995)/m.${tags}.srt`)).toEqual([]);
    expect(plan(`${M}/${title} (1995)/m.mkv`, `${M}/${title} (1995)/m.en.srt`)).toEqual([
      [`${M}/${title} (1995)/m.mkv`, `${M}/${title} (1995)/${title} (1995).mkv`, 'movie'],
      [`${M}/${title} (1995)/m.en.srt`, `${M}/${title} (1995)/${title} (1995).en.srt`, 'movie'],
    ]);
  });

  it('lists neither of two renames onto one name', () => {
    // Two copies of one episode in one season folder.
    expect(plan(`${T}/Lost/Season 1/lost.s01e01.720p.mkv`, `${T}/Lost/Season 1/lost.s01e01.1080p.mkv`)).toEqual([]);
    // Two release folders of one movie.
    expect(plan(`${M}/Heat.1995.720p/Heat (1995).mkv`, `${M}/Heat.1995.1080p/Heat (1995).mkv`)).toEqual([]);
  });

  it("names a file that says no other title for its folder's", () => {
    expect(plan(`${M}/Heat (1995)/movie.mkv`, `${T}/Law & Order/Season 1/S01E02.mkv`, `${T}/Law & Order/Season 1/law.and.order.s01e03.mkv`)).toEqual([
      [`${M}/Heat (1995)/movie.mkv`, `${M}/Heat (1995)/Heat (1995).mkv`, 'movie'],
      [`${T}/Law & Order/Season 1/S01E02.mkv`, `${T}/Law & Order/Season 1/Law & Order - S01E02.mkv`, 'episode'],
      [`${T}/Law & Order/Season 1/law.and.order.s01e03.mkv`, `${T}/Law & Order/Season 1/Law & Order - S01E03.mkv`, 'episode'],
    ]);
  });

  it('allows a rename that changes only the case of a name', () => {
    expect(plan(`${T}/Lost/Season 1/lost - s01e01.mkv`)).toEqual([[`${T}/Lost/Season 1/lost - s01e01.mkv`, `${T}/Lost/Season 1/Lost - S01E01.mkv`, 'episode']]);
  });

  it('keeps every rename in its own folder: nothing leaves its library folder or drive', () => {
    const renames = planOrganize(
      [`${M}/Heat.1995.1080p.BluRay/x.mkv`, `${T}/the.office.s01.1080p/the.office.s01e02.mkv`, `${T}/Lost/Season 1/lost.s01e01.mkv`].map(indexed),
      templates,
    );
    expect(renames.length).toBeGreaterThan(0);
    for (const r of renames) expect(r.to.slice(0, r.to.lastIndexOf('/'))).toBe(r.from.slice(0, r.from.lastIndexOf('/')));
  });

  it('leaves alone what the index is unsure of', () => {
    expect(
      plan(
        // Loose in the library folder: moving into a folder is more than a rename.
        `${M}/heat.1995.mkv`,
        `${T}/lost.s01e01.mkv`,
        // Extras and samples.
        `${M}/Heat (1995)/Featurettes/making.of.mkv`,
        `${M}/Heat (1995)/Heat (1995).mkv`,
        `${M}/Heat (1995)/heat-trailer.mkv`,
        // No year: which Heat?
        `${M}/Heat/heat.mkv`,
        // Two parts of one movie.
        `${M}/Ronin (1998)/ronin cd1.mkv`,
        `${M}/Ronin (1998)/ronin cd2.mkv`,
        // An episode file without an episode the index could read.
        `${T}/Lost/Season 1/pilot.mkv`,
        // A file whose season is not its season folder's.
        `${T}/Lost/Season 2/lost.s01e05.mkv`,
        // The user's own marks on a folder: provider ids, an edition, a country code.
        `${M}/Alien (1979) {edition-Director's Cut}/alien.mkv`,
        `${M}/Brazil (1985) [imdbid-tt0088846]/Brazil (1985).mkv`,
        `${T}/The Office (2005) (US)/Season 1/The Office (US) - S01E01.mkv`,
        `${M}/Ran (1985)/ran {edition-Director's Cut}.mkv`,
        // The template's name and more: an edition or version the user added.
        `${M}/Aliens (1986) - Special Edition/aliens.mkv`,
        `${M}/Ronin (1998)/Ronin (1998) - 1080p.mkv`,
        // A file whose own name says it is another movie or series than its folder's.
        `${M}/Misc (2000)/Heat.1995.1080p.mkv`,
        `${T}/Lost/Season 1/the.office.s01e03.mkv`,
      ),
    ).toEqual([
      [`${M}/Alien (1979) {edition-Director's Cut}/alien.mkv`, `${M}/Alien (1979) {edition-Director's Cut}/Alien (1979).mkv`, 'movie'],
      [`${M}/Aliens (1986) - Special Edition/aliens.mkv`, `${M}/Aliens (1986) - Special Edition/Aliens (1986).mkv`, 'movie'],
    ]);
  });

  it('renders names with the templates it is given', () => {
    const renames = planOrganize([indexed(`${T}/Lost/Season 01/Lost - S01E01.mkv`)], {
      ...templates,
      episodeTemplate: '{series}/Season {season:00}/{series} {season}x{episode:00}{ext}',
    });
    expect(renames.map((r) => r.to)).toEqual([`${T}/Lost/Season 01/Lost 1x01.mkv`]);
  });
});
