export {
  GOALS,
  METRICS,
  missedGoals,
  missedMetrics,
  ratio,
  scoreCases,
  type CaseExpect,
  type CorpusCase,
  type CorpusScore,
  type Metric,
  type ParsedForScoring,
} from './corpus-score.ts';
export { SERIES_COUNTRIES, seriesCountryOfIso } from './countries.ts';
export { nonVideoExtension } from './non-video.ts';
export { parseRelease, parseReleaseName, type ParsedMedia, type ParseResult } from './release-name.ts';
