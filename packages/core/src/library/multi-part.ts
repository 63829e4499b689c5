import { boundedName } from '../parse/name-bound.ts';

// Movies split over several files (`Movie (2010) - cd1.mkv`, `Movie (2010) - cd2.mkv`), stacked
// as Jellyfin's StackResolver and Kodi's video stacking do: a part type (`cd`, `dvd`, `part`, `pt`,
// `disc`, `disk`) and a number or a letter a–d at the end of the name, after a separator or a
// closing bracket. Plex documents the same part types.

export interface MoviePart {
  /** The name without the part: `Movie (2010)`. */
  name: string;
  /** 1 for `cd1`, `part a`, `-a`; 2 for `cd2`, `part b`, `-b`; … */
  part: number;
  /** The same name for the first part (`Movie (2010) - cd1` for `Movie (2010) - cd2`): what all the parts share. */
  first: string;
}

const TYPED =
  /^(?<name>.*?)(?<lead>(?:(?<=[\])}])|[ _.-]+)[([]?(?<type>cd|dvd|part|pt|dis[ck])(?<gap>[ _.-]*))(?:(?<num>\d{1,3})|(?<letter>[a-d]))(?<close>[)\]]?)$/i;
// A bare letter (`Movie (2010)-a`) only after the year: without it `Vitamin-D` or `Plan - B` would be parts.
const LETTERED = /^(?<name>.*?[([](?:18|19|20)\d\d[)\]])(?<lead>\s*-\s*)(?<letter>[a-d])(?<close>)$/i;
const ENDS_WITH_YEAR = /[([](?:18|19|20)\d\d[)\]]$/;

/**
 * `Part 2` is also how sequels are titled (`Deathly Hallows - Part 2`): `part` and `pt` count only
 * glued to their number (`part2`) or after the year (`Movie (2010) - Part 2`).
 */
function sequelTitle(g: Record<string, string | undefined>): boolean {
  return /^p/i.test(g.type!) && g.gap !== '' && !ENDS_WITH_YEAR.test(g.name!);
}

/** The part a movie file's name (without its extension) is, or null for a whole movie. */
export function moviePart(name: string): MoviePart | null {
  const base = boundedName(name);
  let g = TYPED.exec(base)?.groups;
  if (g && sequelTitle(g)) g = undefined;
  g ??= LETTERED.exec(base)?.groups;
  if (!g || !g.name) return null;
  const part = g.num !== undefined ? Number(g.num) : g.letter!.toLowerCase().charCodeAt(0) - 96;
  if (part < 1) return null;
  const firstToken = g.num !== undefined ? '1'.padStart(g.num.length, '0') : g.letter === g.letter!.toLowerCase() ? 'a' : 'A';
  return { name: g.name.replace(/[\s._-]+$/, ''), part, first: g.name + g.lead + firstToken + g.close };
}
