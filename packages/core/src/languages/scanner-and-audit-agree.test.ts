import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@mo/shared';
import { item } from '../releases/test-fixtures/index-items.ts';
import { attachSidecars } from '../scanner/sidecars.ts';
import { parseSubtitleName, subtitleCoverage } from '../tools/subtitles.ts';
import { tagSuffix, type SubtitleTags } from './subtitle-tags.ts';

/** The tags the scanner keeps when it moves `<folder>/<subtitle>` beside `<folder>/<video>.mkv`. */
function scannerReads(video: string, subtitle: string): SubtitleTags | null {
  const v = { rel: `Release/${video}.mkv` };
  const list = attachSidecars([v], [{ rel: `Release/${subtitle}` }]).attached.get(v);
  return list?.[0]?.tags ?? null;
}

/** The tags the subtitle audit counts for the same files in the library. */
function auditReads(video: string, subtitle: string): SubtitleTags | null {
  const dir = '/m/disk1/Movies/Heat (1995)';
  const coverage = subtitleCoverage([item(`${dir}/${video}.mkv`), item(`${dir}/${subtitle}`)], {
    subtitleExtensions: DEFAULT_CONFIG.library.subtitle_extensions,
  });
  const s = [...coverage.videos()][0]?.sidecars[0];
  return s ? { language: s.language, forced: s.forced, sdh: s.sdh } : null;
}

const V = 'Heat (1995)';
const t = (language: string | null, forced = false, sdh = false): SubtitleTags => ({ language, forced, sdh });

describe('the scanner and the subtitle audit read a subtitle name alike', () => {
  it.each([
    [V, `${V}.hi.srt`, t('hi')],
    [V, `${V}.en.hi.srt`, t('en', false, true)],
    [V, `${V}.hi.en.srt`, t('en', false, true)],
    [V, `${V}.eng.sdh.srt`, t('en', false, true)],
    [V, `${V}.en.forced.srt`, t('en', true)],
    [V, `${V}.pt-BR.srt`, t('pt-br')],
    [V, `${V}.zh_Hans.default.srt`, t('zh-hans')],
    [V, `${V}.English.srt`, t('en')],
    [V, `${V} English.srt`, t('en')],
    [V, `${V}.Français.forced.srt`, t('fr', true)],
    [V, `${V}.cc.srt`, t(null, false, true)],
    [V, `${V}.foreign.srt`, t(null, true)],
    [V, `${V}.srt`, t(null)],
    [V, `${V} - commentary.srt`, t(null)],
    [V, 'Subs/2_English.srt', t('en')],
    [V, 'Subs/3_eng_forced.srt', t('en', true)],
    [V, 'Subs/English (SDH).srt', t('en', false, true)],
    [V, 'Subs/hi.srt', t('hi')],
    [V, 'Subs/en.hi.srt', t('en', false, true)],
    [V, `Subs/${V}/2_English.srt`, t('en')],
    // A title ending in a language code: only what follows the video's name is tags.
    ['Now.You.See.It', 'Now.You.See.It.srt', t(null)],
    ['Now.You.See.It', 'Now.You.See.It.de.srt', t('de')],
  ])('%s + %s', (video, subtitle, expected) => {
    expect(scannerReads(video, subtitle)).toEqual(expected);
    expect(auditReads(video, subtitle)).toEqual(expected);
  });

  it('the name the scanner gives a sidecar reads back as the tags it kept', () => {
    for (const subtitle of [`${V}.hi.srt`, `${V}.en.hi.srt`, `${V}.eng.sdh.srt`, `${V}.pt-BR.forced.srt`, 'Subs/English (SDH).srt']) {
      const kept = scannerReads(V, subtitle)!;
      const renamed = parseSubtitleName(`Heat (1995)${tagSuffix(kept)}.srt`);
      expect({ language: renamed.language, forced: renamed.forced, sdh: renamed.sdh }).toEqual(kept);
    }
  });
});
