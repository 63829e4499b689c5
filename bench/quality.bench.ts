// Quality read from names (parseQuality) on the public corpus, against @ctrl/video-filename-parser
// (a port of Radarr/Sonarr's parser) as the reference. The corpus labels no quality, so this
// measures agreement: per field, names where both read a value and agree or differ, and names
// only one of them reads. Each difference is listed for a person to judge; the Sonarr forms the
// unit tests pin (quality.test.ts) are where ours is held right.
//
// Run: pnpm bench quality   (MO_CORPUS=<path> to read another file of the same shape)
import { filenameParse, parseQuality as reference, parseSourceGroups, QualityModifier } from '@ctrl/video-filename-parser';
import { parseQuality, type Quality } from '@mo/core/parse';
import { baseName, loadCorpus, pct, table } from './support/corpus.ts';

type Field = 'resolution' | 'source' | 'codec' | 'fix' | 'group';
const FIELDS: Field[] = ['resolution', 'source', 'codec', 'fix', 'group'];

/** The reference's answer in our terms; `other` where it reads a source our contract has no name for (CAM, screener). */
function theirs(name: string): Record<Field, string | null> {
  const file = baseName(name);
  const q = reference(file);
  const g = parseSourceGroups(file);
  const res = q.resolution ? q.resolution.slice(0, -1) : null;
  let source: string | null = null;
  if (q.modifier === QualityModifier.REMUX) source = 'remux';
  else if (g.bluray || g.bdrip || g.brrip) source = 'bluray';
  else if (g.webrip) source = 'webrip';
  else if (g.webdl) source = 'web-dl';
  else if (g.hdtv) source = 'hdtv';
  else if (g.dvd || g.dvdr) source = 'dvd';
  else if (g.sdtv || g.pdtv || g.tvrip || g.dsr) source = 'sdtv';
  else if (q.sources.length > 0) source = 'other';
  const codecs: Record<string, string> = { x265: 'x265', h265: 'x265', x264: 'x264', h264: 'x264', xvid: 'xvid' };
  const vc = videoCodecOf(file);
  return {
    resolution: res === '540' ? 'other' : res,
    source,
    codec: vc === null ? null : (codecs[vc] ?? 'other'),
    fix: q.revision.version > 1 || q.revision.real > 0 ? 'yes' : null,
    group: groupOf(file),
  };
}

function ours(name: string): Record<Field, string | null> {
  const q: Quality = parseQuality(name);
  return {
    resolution: q.resolution === null ? null : String(q.resolution),
    source: q.source,
    codec: q.codec,
    fix: q.proper || q.repack ? 'yes' : null,
    group: q.group,
  };
}

// The package reads the codec and the group only as part of a whole parse.
const videoCodecOf = (file: string): string | null => filenameParse(file, false).videoCodec ?? null;
const groupOf = (file: string): string | null => filenameParse(file, false).group ?? null;

const { path, cases } = loadCorpus();
const counts = Object.fromEntries(FIELDS.map((f) => [f, { agree: 0, differ: 0, onlyOurs: 0, onlyTheirs: 0 }])) as Record<
  Field,
  { agree: number; differ: number; onlyOurs: number; onlyTheirs: number }
>;
const differences: Record<Field, string[]> = { resolution: [], source: [], codec: [], fix: [], group: [] };
const onlyOurs: Record<Field, string[]> = { resolution: [], source: [], codec: [], fix: [], group: [] };
for (const c of cases) {
  const a = ours(c.name);
  const b = theirs(c.name);
  for (const f of FIELDS) {
    const x = a[f];
    const y = b[f];
    const n = counts[f];
    if (x !== null && y !== null) {
      if (f === 'group' ? x.toLowerCase() === y.toLowerCase() : x === y) n.agree++;
      else {
        n.differ++;
        differences[f].push(`${c.name}: ours ${x}, reference ${y}`);
      }
    } else if (x !== null) {
      n.onlyOurs++;
      onlyOurs[f].push(`${c.name}: ${x}`);
    } else if (y !== null) n.onlyTheirs++;
  }
}

console.log(`${cases.length} names from ${path}\n`);
table(
  ['field', 'both, agree', 'both, differ', 'only ours', 'only reference', 'agreement'],
  FIELDS.map((f) => {
    const n = counts[f];
    return [f, String(n.agree), String(n.differ), String(n.onlyOurs), String(n.onlyTheirs), pct(n.agree, n.agree + n.differ)];
  }),
);
for (const f of FIELDS) {
  if (differences[f].length > 0) console.log(`\n${f}, read differently:\n  ${differences[f].join('\n  ')}`);
  if (onlyOurs[f].length > 0) console.log(`\n${f}, read by ours alone:\n  ${onlyOurs[f].join('\n  ')}`);
}
