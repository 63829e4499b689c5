import type { NfoInfo } from '@mo/shared';
import { describe, expect, it } from 'vitest';
import { parseNfo } from './nfo.ts';
import { growthExponent, LINEAR_BOUND, run } from '../test-fixtures/growth.ts';
import { rng } from '@mo/test-support/prng';

describe('parseNfo', () => {
  it('reads a Kodi episode', () => {
    const xml = `<?xml version="1.0"?><episodedetails><title>Rose &amp; Thorn</title><season>1</season><episode>4</episode><aired>2031-02-03</aired></episodedetails>`;
    expect(parseNfo(xml)).toEqual({ kind: 'episode', title: 'Rose & Thorn', season: 1, episode: 4, aired: '2031-02-03' });
  });

  it('reads the show ids a provider can use', () => {
    const xml =
      '<tvshow><title>Lost</title><uniqueid type="tvdb" default="true">73739</uniqueid><uniqueid type="tvmaze">123</uniqueid><uniqueid type="imdb">tt0411008</uniqueid></tvshow>';
    expect(parseNfo(xml)?.ids).toEqual({ tvdb: '73739', tvmaze: '123', imdb: 'tt0411008' });
  });

  it('reads a tvshow and a movie', () => {
    expect(parseNfo('<tvshow>\n  <title>Lost</title>\n  <premiered>2004-09-22</premiered>\n</tvshow>')).toEqual({
      kind: 'tvshow',
      title: 'Lost',
      season: null,
      episode: null,
      aired: '2004-09-22',
    });
    expect(parseNfo('<movie><title>Heat</title></movie>')?.kind).toBe('movie');
  });

  it('is null for what is not Kodi XML, and ignores malformed numbers and dates', () => {
    expect(parseNfo('https://www.imdb.com/title/tt0113277/')).toBeNull();
    expect(parseNfo('<episodedetails><season>x</season><aired>soon</aired></episodedetails>')).toMatchObject({ season: null, aired: null });
  });
});

// The expressions the reader used before it became a linear scan: still the reference for what
// it reads, on inputs small enough for their backtracking not to matter.
const TAG = (tag: string) => new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`, 'i');
const UNIQUE_ID = /<uniqueid\b[^>]*\btype\s*=\s*["']([A-Za-z0-9_-]+)["'][^>]*>\s*([^<]*?)\s*<\/uniqueid>/gi;
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);
function reference(text: string): NfoInfo | null {
  const root = /<(tvshow|episodedetails|movie)[\s>]/i.exec(text);
  if (!root) return null;
  const kind = root[1]!.toLowerCase() === 'episodedetails' ? 'episode' : (root[1]!.toLowerCase() as 'tvshow' | 'movie');
  const num = (tag: string) => {
    const m = TAG(tag).exec(text);
    return m && /^\d+$/.test(m[1]!) ? Number(m[1]) : null;
  };
  const str = (tag: string) => {
    const m = TAG(tag).exec(text);
    return m && m[1] ? decode(m[1]) : null;
  };
  const date = str('aired') ?? str('premiered');
  const ids: Record<string, string> = {};
  for (const m of text.matchAll(UNIQUE_ID)) {
    const type = m[1]!.toLowerCase();
    if (m[2] && !(type in ids)) ids[type] = decode(m[2]);
  }
  return {
    kind,
    title: str('title'),
    season: kind === 'episode' ? num('season') : null,
    episode: kind === 'episode' ? num('episode') : null,
    aired: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    ...(Object.keys(ids).length > 0 ? { ids } : {}),
  };
}

const PIECES = [
  '<tvshow>',
  '<episodedetails>',
  '<movie ',
  '<Movie>',
  '<moviex>',
  '<title>',
  '</title>',
  '<TITLE>',
  '</Title>',
  '<season>',
  '</season>',
  '<episode>',
  '</episode>',
  '<aired>',
  '</aired>',
  '<premiered>',
  '</premiered>',
  '<uniqueid',
  '<uniqueidx',
  '</uniqueid>',
  '</UniqueID>',
  ' type="tvdb"',
  " type='imdb'",
  ' TYPE = "Tmdb" ',
  ' subtype="x"',
  ' type="a b"',
  ' default="true"',
  '>',
  '<',
  ' ',
  '\n',
  '\t',
  'x',
  'Lost',
  '1',
  '42',
  '2004-09-22',
  '&amp;',
  '&lt;',
  '&bogus;',
  '\u00a0',
  'İ',
  '\u212a',
];

describe('parseNfo reads what the expressions it replaced read', () => {
  it('on 20,000 generated files of Kodi pieces', () => {
    const seeded = rng(11);
    const random = () => seeded.next();
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 24) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
      expect(parseNfo(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });
});

describe('parseNfo runs in linear time', () => {
  it.each([
    ['spaces in an unclosed title (the cubic case)', run('<episodedetails><title>', ' ', 'x')],
    ['spaces in a title closed at the end', run('<episodedetails><title>x', ' ', 'x</title>')],
    ['spaces in an unclosed unique id', run('<movie><uniqueid type="tmdb">', ' ', 'y')],
    ['type attributes without an end', run('<tvshow><uniqueid', ' type="a"')],
    ['blanks before an unfinished type', run('<tvshow><uniqueid type', ' ', '=')],
    ['unique ids without types', run('<tvshow>', '<uniqueid>1</uniqueid>')],
    ['opening tags without text', run('<tvshow>', '<title>')],
    ['a title opened again and again', run('<tvshow>', '<title>x ')],
    ['angle brackets', run('<movie>', '<')],
    ['entities', run('<movie><title>', '&amp;', '</title>')],
    ['no root at all', run('', '<tvsho')],
  ])('%s', (_, make) => {
    expect(growthExponent(parseNfo, make)).toBeLessThan(LINEAR_BOUND);
  });
});
