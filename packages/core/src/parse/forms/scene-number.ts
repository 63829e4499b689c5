// Old scene numbering: "lost.311.hdtv" (season 3, episode 11), "show.name.0105.720p" (season 1,
// episode 5), always right before the release words. A number in a title ("Apollo.13.1995") is
// never one: it must be followed by a release word, not by a year or more title. After a series
// year the number may have four digits: "show.2014.1008.hdtv" (season 10, episode 8).
import { isYear } from '../title.ts';
import { firstJunk, isHeight } from '../vocabulary.ts';
import { marker, type Form, type Marker } from './marker.ts';

// Dots on both sides: scene names are dotted; `Show Name 445 vostfr` is an anime's absolute number.
const RE_NUMBER = /(?<=\.)(?:([1-9])(\d{2})|0([1-9])(\d{2}))(?=\.)/g;
// A year, then a number of three or four digits alone: "the.flash.2014.208.hdtv", "Show 2014 208".
const RE_AFTER_YEAR = /(?<![\p{L}\p{N}])((?:19|20)\d{2})([ ._])(\d{3,4})(?![\p{L}\p{N}])/u;
const RE_HINT = /[^hx]\.(?:[1-9]\d\d|0[1-9]\d\d)\.|(?:19|20)\d\d[ ._]\d{3}/i;
// Broadcast captures, where old scene numbering with a season past 9 is found.
const RE_BROADCAST = /(?<![\p{L}\p{N}])(?:(?:(?:hd|pd|sd)tv|dsr)(?:rip)?|(?:tv|sat|dvb|ds)rip)(?![\p{L}\p{N}])/iu;

/**
 * A number right after a series year reads as a scene number only where nothing else can be
 * meant: in a dotted name, release words right after it, and a real season and episode; four
 * digits ("1008") only in a broadcast capture, since elsewhere they are as often an absolute
 * episode ("One.Piece.1999.1001.1080p"). Anything else after the year ("Show.2014.208" at the end,
 * "Show 2014 208", "Show.2014.200.hdtv", a height without its `p`) is refused: read as a movie, the
 * number would be dropped unseen.
 */
function afterYear(s: string, m: RegExpExecArray): Marker | null {
  const digits = m[3]!;
  // "Blade.Runner.2049.2017": a second year is the title's or the movie's, as the movie form decides.
  if (digits.length === 4 && /^(?:19|20)/.test(digits)) return null;
  const start = m.index + m[1]!.length + 1;
  const end = start + digits.length;
  const n = Number(digits);
  const season = Math.floor(n / 100);
  const episode = n % 100;
  const sure = m[2] === '.' && season >= 1 && episode >= 1 && !isHeight(digits) && firstJunk(s) === end + 1 && (season < 10 || RE_BROADCAST.test(s.slice(end)));
  if (sure) return marker('episode', start, end, { season, episodes: [episode] });
  return marker('episode', start, start, { conflict: 'a number after the year that may be the episode, or a resolution' });
}

export const sceneNumber: Form = {
  name: 'scene number',
  hint: RE_HINT,
  find(s) {
    const y = RE_AFTER_YEAR.exec(s);
    if (y && y.index > 0 && isYear(Number(y[1]))) {
      const found = afterYear(s, y);
      if (found) return found;
    }
    const junk = firstJunk(s);
    if (junk < 0) return null;
    for (const m of s.slice(0, junk).matchAll(RE_NUMBER)) {
      const end = m.index + m[0].length;
      if (end < junk - 1) continue;
      const episode = Number(m[2] ?? m[4]);
      if (episode === 0) return null;
      return marker('episode', m.index, end, { season: Number(m[1] ?? m[3]), episodes: [episode] });
    }
    return null;
  },
};
