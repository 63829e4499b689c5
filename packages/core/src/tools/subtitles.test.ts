import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type IndexItem } from '@mo/shared';
import { episode, item } from '../releases/test-fixtures/index-items.ts';
import { parseSubtitleName, subtitleAudit, subtitleCoverage, subtitleCoverageAccumulator } from './subtitles.ts';

describe('parseSubtitleName', () => {
  it.each([
    ['Movie (2010).srt', { base: 'Movie (2010)', ext: '.srt', language: null, forced: false, sdh: false }],
    ['Movie (2010).en.srt', { base: 'Movie (2010)', language: 'en' }],
    ['Movie (2010).en.forced.srt', { base: 'Movie (2010)', language: 'en', forced: true }],
    ['Movie (2010).eng.SDH.srt', { base: 'Movie (2010)', language: 'en', sdh: true }],
    ['Movie (2010).en.cc.srt', { base: 'Movie (2010)', language: 'en', sdh: true }],
    ['Movie (2010).en.hi.srt', { base: 'Movie (2010)', language: 'en', sdh: true }],
    ['Movie (2010).hi.srt', { base: 'Movie (2010)', language: 'hi', sdh: false }],
    ['Movie (2010).forced.en.srt', { base: 'Movie (2010)', language: 'en', forced: true }],
    ['Movie (2010).English.srt', { base: 'Movie (2010)', language: 'en' }],
    ['Movie (2010).pt-BR.default.srt', { base: 'Movie (2010)', language: 'pt-br' }],
    ['Movie (2010).zh_Hans.ass', { base: 'Movie (2010)', ext: '.ass', language: 'zh-hans' }],
    ['Show - S01E02.fre.forced.SRT', { base: 'Show - S01E02', ext: '.srt', language: 'fr', forced: true }],
    // Only one language: a second word that looks like one is part of the base.
    ['Movie.It.en.srt', { base: 'Movie.It', language: 'en' }],
    ['Movie.2010.1080p.BluRay.srt', { base: 'Movie.2010.1080p.BluRay', language: null }],
    // Bare language names, as release groups put them in Subs/.
    ['2_English.srt', { base: '', language: 'en' }],
    ['English.srt', { base: '', language: 'en' }],
    ['3_eng_forced.srt', { base: '', language: 'en', forced: true }],
    ['English (SDH).srt', { base: '', language: 'en', sdh: true }],
    ['12_Français.srt', { base: '', language: 'fr' }],
    ['en.hi.srt', { base: '', language: 'en', sdh: true }],
    ['pt-BR.srt', { base: '', language: 'pt-br' }],
    ['Forced.srt', { base: '', language: null, forced: true }],
    ['Commentary.srt', { base: 'Commentary', language: null }],
  ])('%s', (name, expected) => {
    expect(parseSubtitleName(name)).toMatchObject(expected);
  });
});

const EXTS = DEFAULT_CONFIG.library.subtitle_extensions;
const M = '/m/disk1/Movies';
const T = '/m/disk1/TV';
const audit = (items: IndexItem[], language: string | null = null, subtitleExtensions = EXTS) =>
  ((a) => ({ ...a, missing: [...a.missing] }))(subtitleAudit(subtitleCoverage(items, { subtitleExtensions }), language));
const missing = (items: IndexItem[], language: string | null = null) => audit(items, language).missing.map((m) => m.path);

describe('subtitleAudit', () => {
  it('reports each main video without a sidecar, as movie or episode, and counts what it audited', () => {
    const lost = episode(`${T}/Lost`, 1, [2, 3], { title: 'Lost' });
    expect(audit([item(`${M}/Heat (1995)/Heat (1995).mkv`), item(`${M}/Heat (1995)/poster.jpg`), lost])).toEqual({
      total: 2,
      missing: [
        { path: `${M}/Heat (1995)/Heat (1995).mkv`, kind: 'movie', title: 'Heat', season: null, episode: null },
        { path: lost.path, kind: 'episode', title: 'Lost', season: 1, episode: 2 },
      ],
    });
  });

  it('takes a subtitle beside the video whose name starts with the video base name', () => {
    const d = `${M}/Heat (1995)`;
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Heat (1995).srt`)])).toEqual([]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Heat (1995).en.forced.srt`)])).toEqual([]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/heat (1995).EN.srt`)])).toEqual([]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Heat (1995) - commentary.srt`)])).toEqual([]);
    // Not the same base name, or in another folder.
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Heat.srt`)])).toEqual([`${d}/Heat (1995).mkv`]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Heat (1995)x.srt`)])).toEqual([`${d}/Heat (1995).mkv`]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${M}/Alien (1979)/Heat (1995).srt`)])).toEqual([`${d}/Heat (1995).mkv`]);
  });

  it('gives a subtitle to the video with the longest matching name, not to every video it starts with', () => {
    expect(missing([item(`${M}/Movie.mkv`), item(`${M}/Movie.Part2.mkv`), item(`${M}/Movie.Part2.en.srt`)])).toEqual([`${M}/Movie.mkv`]);
  });

  it('counts only the configured subtitle extensions, read now', () => {
    const d = `${M}/Heat (1995)`;
    const items = [item(`${d}/Heat (1995).mkv`), item(`${d}/Heat (1995).smi`, { type: 'other' })];
    expect(audit(items).missing).toHaveLength(1);
    expect(audit(items, null, [...EXTS, '.smi']).missing).toHaveLength(0);
  });

  it('takes any subtitle in a Subs or Subtitles folder beside a movie', () => {
    const d = `${M}/Heat (1995)`;
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Subs/2_English.srt`)])).toEqual([]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/subtitles/whatever.srt`)])).toEqual([]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Subs/Heat.1995.1080p-GRP/3_English.srt`)])).toEqual([]);
    expect(missing([item(`${d}/Heat (1995).mkv`), item(`${d}/Other/Heat (1995).srt`)])).toEqual([`${d}/Heat (1995).mkv`]);
  });

  it('in a season Subs folder, gives a subtitle to the episode it names by file, folder or episode number', () => {
    const s = `${T}/Lost/Season 1`;
    const e1 = item(`${s}/Lost - S01E01 - Pilot.mkv`, { season: 1, episodes: [1] });
    const e2 = item(`${s}/Lost - S01E02.mkv`, { season: 1, episodes: [2] });
    const e3 = item(`${s}/Lost - S01E03.mkv`, { season: 1, episodes: [3] });
    expect(missing([e1, e2, e3, item(`${s}/Subs/Lost - S01E01 - Pilot.en.srt`, { season: 1, episodes: [1] })])).toEqual([e2.path, e3.path]);
    expect(missing([e1, e2, e3, item(`${s}/Subs/Lost - S01E02/2_English.srt`, { season: 1 })])).toEqual([e1.path, e3.path]);
    // The release name of the download, after the video was renamed: matched by its episode.
    expect(missing([e1, e2, e3, item(`${s}/Subs/Lost.S01E03.1080p.WEB.h264-GRP/2_English.srt`, { season: 1 })])).toEqual([e1.path, e2.path]);
    expect(missing([e1, e2, e3, item(`${s}/Subs/Lost.S01E09.en.srt`, { season: 1, episodes: [9] })])).toEqual([e1.path, e2.path, e3.path]);
    // Named after no video and no episode: it belongs to all of them.
    expect(missing([e1, e2, e3, item(`${s}/Subs/English.srt`, { season: 1 })])).toEqual([]);
  });

  it('does not audit extras and samples, and does not let their subtitles count', () => {
    const d = `${M}/Heat (1995)`;
    const a = audit([
      item(`${d}/Heat (1995).mkv`),
      item(`${d}/Featurettes/Making of.mkv`, { extra: true }),
      item(`${d}/Featurettes/Heat (1995).srt`),
      item(`${d}/Heat (1995)-trailer.mkv`, { extra: true }),
    ]);
    expect(a.total).toBe(1);
    expect(a.missing.map((m) => m.path)).toEqual([`${d}/Heat (1995).mkv`]);
  });

  it('with a language, wants a full subtitle in it: not forced, not untagged, not another language', () => {
    const d = `${M}/Heat (1995)`;
    const v = item(`${d}/Heat (1995).mkv`);
    expect(missing([v, item(`${d}/Heat (1995).en.srt`)], 'en')).toEqual([]);
    expect(missing([v, item(`${d}/Heat (1995).en.sdh.srt`)], 'en')).toEqual([]);
    expect(missing([v, item(`${d}/Subs/2_English.srt`)], 'en')).toEqual([]);
    expect(missing([v, item(`${d}/Heat (1995).pt-BR.srt`)], 'pt')).toEqual([]);
    expect(missing([v, item(`${d}/Heat (1995).en.forced.srt`)], 'en')).toEqual([v.path]);
    expect(missing([v, item(`${d}/Heat (1995).srt`)], 'en')).toEqual([v.path]);
    expect(missing([v, item(`${d}/Heat (1995).de.srt`)], 'en')).toEqual([v.path]);
    expect(missing([v, item(`${d}/Heat (1995).pt.srt`)], 'pt-br')).toEqual([v.path]);
  });

  it('lists the languages of the full sidecars it found, with and without region', () => {
    const d = `${M}/Heat (1995)`;
    const coverage = subtitleCoverage(
      [
        item(`${d}/Heat (1995).mkv`),
        item(`${d}/Heat (1995).pt-BR.srt`),
        item(`${d}/Heat (1995).de.forced.srt`),
        item(`${d}/Heat (1995).srt`),
        item(`${M}/Alien (1979)/Heat (1995).fr.srt`),
      ],
      { subtitleExtensions: EXTS },
    );
    expect([...coverage.languages].sort()).toEqual(['pt', 'pt-br']);
    expect([...coverage.videos()][0]!.sidecars.map((s) => s.language)).toEqual(['pt-br', 'de', null]);
  });

  it('makes its list of missing files as it is read, the same each time', () => {
    const d = `${M}/Heat (1995)`;
    const acc = subtitleCoverageAccumulator({ subtitleExtensions: EXTS });
    for (const i of [
      item(`${d}/Heat (1995).mkv`),
      item(`${d}/Heat (1995).en.srt`),
      item(`${M}/Alien (1979)/Alien (1979).mkv`),
      item(`${M}/Up (2009)/Up (2009).mkv`),
    ])
      acc.add(i);
    const a = subtitleAudit(acc.coverage(), 'en');
    expect(Array.isArray(a.missing)).toBe(false);
    const paths = [`${M}/Alien (1979)/Alien (1979).mkv`, `${M}/Up (2009)/Up (2009).mkv`];
    expect([...a.missing].map((m) => m.path)).toEqual(paths);
    expect([...a.missing].map((m) => m.path)).toEqual(paths);
    // The coverage is worked out once: asked again, it still has the sidecar it found.
    expect([...subtitleAudit(acc.coverage()).missing].map((m) => m.path)).toEqual(paths);
  });

  it('handles loose files in the library folder by name', () => {
    expect(missing([item(`${M}/Heat.1995.mkv`), item(`${M}/Alien.1979.mkv`), item(`${M}/Heat.1995.en.srt`)])).toEqual([`${M}/Alien.1979.mkv`]);
  });
});
