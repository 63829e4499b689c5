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
export {
  compareQuality,
  parseQuality,
  qualityFromHeight,
  SOURCE_RANK,
  UNKNOWN_QUALITY,
  type Codec,
  type Quality,
  type Resolution,
  type Source,
} from './quality.ts';
export { parseRelease, parseReleaseName, type ParsedMedia, type ParseResult } from './release-name.ts';
