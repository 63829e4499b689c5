// The forms a name is read in, most reliable first: the first that finds its marker decides where
// the title ends and what the numbers are.
import { absolute } from './absolute.ts';
import { daily } from './daily.ts';
import { episodeOnly, partOf } from './episode-only.ts';
import type { Form } from './marker.ts';
import { movieYear } from './movie-year.ts';
import { nxnn } from './nxnn.ts';
import { sceneNumber } from './scene-number.ts';
import { seasonPack } from './season-pack.ts';
import { spelled } from './spelled.ts';
import { sxxeyy } from './sxxeyy.ts';

export const FORMS: readonly Form[] = [sxxeyy, nxnn, spelled, daily, episodeOnly, seasonPack, absolute, sceneNumber, movieYear, partOf];

export type { Form, FormContext, Marker } from './marker.ts';
