// No zod here: the web page imports this file on its own (`@mo/shared/quality-words`), and the
// scanner words its `exists` details with it, so both say a quality the same way.

/** The fields of a `quality` (see quality.ts) that its words are made of. */
export interface QualityWords {
  resolution: 2160 | 1080 | 720 | 576 | 480 | null;
  source: 'remux' | 'bluray' | 'web-dl' | 'webrip' | 'hdtv' | 'dvd' | 'sdtv' | null;
  codec: 'x265' | 'x264' | 'av1' | 'xvid' | null;
  proper: boolean;
  repack: boolean;
  group: string | null;
}

const SOURCE_NAMES: Record<NonNullable<QualityWords['source']>, string> = {
  remux: 'Remux',
  bluray: 'BluRay',
  'web-dl': 'WEB-DL',
  webrip: 'WEBRip',
  hdtv: 'HDTV',
  dvd: 'DVD',
  sdtv: 'SDTV',
};
const CODEC_NAMES: Record<NonNullable<QualityWords['codec']>, string> = { x265: 'x265', x264: 'x264', av1: 'AV1', xvid: 'XviD' };

/** "1080p BluRay x264 · PROPER · GRP", as release names write it; null where the name says nothing of its quality. */
export function qualityWords(q: QualityWords): string | null {
  const picture = [q.resolution === null ? null : `${q.resolution}p`, q.source && SOURCE_NAMES[q.source], q.codec && CODEC_NAMES[q.codec]]
    .filter((p): p is string => !!p)
    .join(' ');
  const parts = [picture, q.proper ? 'PROPER' : '', q.repack ? 'REPACK' : '', q.group ?? ''].filter((p) => p !== '');
  return parts.length === 0 ? null : parts.join(' · ');
}
