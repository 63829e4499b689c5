import { DEFAULT_CONFIG } from '@mo/shared';
import type { PlanOptions } from '../plan-pass.ts';

/** The planner's options as the default config gives them, at `nowMs`. */
export function defaultPlanOptions(nowMs: number): PlanOptions {
  const l = DEFAULT_CONFIG.library;
  return {
    nowMs,
    settleSeconds: 120,
    sampleMaxBytes: l.sample_max_bytes,
    movieTemplate: l.movie_template,
    episodeTemplate: l.episode_template,
    videoExtensions: l.video_extensions,
    subtitleExtensions: l.subtitle_extensions,
    upgrades: l.upgrades,
  };
}
