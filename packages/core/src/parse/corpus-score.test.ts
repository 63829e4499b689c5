import { describe, expect, it } from 'vitest';
import { judge, missedMetrics, type CorpusCase, type ParsedForScoring } from './corpus-score.ts';

const episode = (fields: Partial<ParsedForScoring>): ParsedForScoring => ({
  kind: 'episode',
  title: 'Harbour Lights',
  year: null,
  season: 3,
  episodes: [7],
  air_date: null,
  absolute_episodes: [],
  ...fields,
});

describe('missedMetrics', () => {
  const labelled: CorpusCase = { name: 'Harbour.Lights.S03E07', expect: { kind: 'episode', title: 'Harbour Lights', season: 3, episodes: [7] } };

  it('names every figure a refusal misses', () => {
    expect(missedMetrics(judge(labelled, null)).sort()).toEqual(['seasonEpisode', 'seriesTitle']);
  });

  it('names only the figure whose field is wrong', () => {
    expect(missedMetrics(judge(labelled, episode({ episodes: [8] })))).toEqual(['seasonEpisode']);
    expect(missedMetrics(judge(labelled, episode({ title: 'Harbour' })))).toEqual(['seriesTitle']);
    expect(missedMetrics(judge(labelled, episode({})))).toEqual([]);
  });

  it('counts a refused non-video name as met, an answer to it as missed', () => {
    const music: CorpusCase = { name: 'Artist-Album-2010-GRP', expect: { kind: null } };
    expect(missedMetrics(judge(music, null))).toEqual([]);
    expect(missedMetrics(judge(music, { ...episode({}), kind: 'movie' }))).toEqual(['nonVideoRefused']);
  });

  it("takes a country suffix in a labelled title as the answer's country", () => {
    const suffixed: CorpusCase = { name: 'Riverdale.US.S05E01', expect: { kind: 'episode', title: 'Riverdale US', season: 5, episodes: [1] } };
    const riverdale = episode({ title: 'Riverdale', season: 5, episodes: [1] });
    expect(missedMetrics(judge(suffixed, { ...riverdale, country: 'US' }))).toEqual([]);
    expect(missedMetrics(judge(suffixed, { ...riverdale, country: 'UK' }))).toEqual(['seriesTitle']);
    expect(missedMetrics(judge(suffixed, riverdale))).toEqual(['seriesTitle']);
    const word: CorpusCase = { name: 'THIS.IS.US.S01E01', expect: { kind: 'episode', title: 'This Is Us', season: 1, episodes: [1] } };
    expect(missedMetrics(judge(word, episode({ title: 'THIS IS', country: 'US', season: 1, episodes: [1] })))).toEqual(['seriesTitle']);
  });
});
