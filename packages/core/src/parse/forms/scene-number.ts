// Old scene numbering: "lost.311.hdtv" (season 3, episode 11), "show.name.0105.720p" (season 1,
// episode 5), always right before the release words. A number in a title ("Apollo.13.1995") is
// never one: it must be followed by a release word, not by a year or more title.
import { firstJunk } from '../vocabulary.ts';
import { marker, type Form } from './marker.ts';

// Dots on both sides: scene names are dotted; `Show Name 445 vostfr` is an anime's absolute number.
const RE_NUMBER = /(?<=\.)(?:([1-9])(\d{2})|0([1-9])(\d{2}))(?=\.)/g;

export const sceneNumber: Form = {
  name: 'scene number',
  hint: /[^hx]\.(?:[1-9]\d\d|0[1-9]\d\d)\./i,
  find(s) {
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
