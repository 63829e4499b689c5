// Quality read from names (parseQuality) beside @ctrl/video-filename-parser (a port of Radarr/
// Sonarr's parser) on corpus names: per field, names where both read a value and agree or differ,
// and names only one of them reads. Shared by `pnpm bench quality` and its floor in test/corpus.
import { filenameParse, parseQuality as reference, parseSourceGroups, QualityModifier } from '@ctrl/video-filename-parser';
import { parseQuality, type Quality } from '@mo/core/parse';
import { baseName } from './corpus.ts';

export type Field = 'resolution' | 'source' | 'codec' | 'fix' | 'group';
export const FIELDS: Field[] = ['resolution', 'source', 'codec', 'fix', 'group'];

export interface FieldAgreement {
  agree: number;
  differ: number;
  onlyOurs: number;
  onlyTheirs: number;
  /** `name: ours x, reference y`, for a person to judge. */
  differences: string[];
  /** `name: x`. */
  ours: string[];
}

// The package reads the codec and the group only as part of a whole parse.
const videoCodecOf = (file: string): string | null => filenameParse(file, false).videoCodec ?? null;
const groupOf = (file: string): string | null => filenameParse(file, false).group ?? null;

/** The reference's answer in our terms; `other` where it reads something our contract has no name for (CAM, 540p). */
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

export function qualityAgreement(names: readonly string[]): Record<Field, FieldAgreement> {
  const fresh = (): FieldAgreement => ({ agree: 0, differ: 0, onlyOurs: 0, onlyTheirs: 0, differences: [], ours: [] });
  const out: Record<Field, FieldAgreement> = { resolution: fresh(), source: fresh(), codec: fresh(), fix: fresh(), group: fresh() };
  for (const name of names) {
    const a = ours(name);
    const b = theirs(name);
    for (const f of FIELDS) {
      const x = a[f];
      const y = b[f];
      const n = out[f];
      if (x !== null && y !== null) {
        if (f === 'group' ? x.toLowerCase() === y.toLowerCase() : x === y) n.agree++;
        else {
          n.differ++;
          n.differences.push(`${name}: ours ${x}, reference ${y}`);
        }
      } else if (x !== null) {
        n.onlyOurs++;
        n.ours.push(`${name}: ${x}`);
      } else if (y !== null) n.onlyTheirs++;
    }
  }
  return out;
}
