// parseQuality on the public corpus (shared/corpus/README.md), beside @ctrl/video-filename-parser:
// the corpus labels no quality, so the floor is the agreement measured when every difference was
// read by hand (docs/performance.md, "Quality read from names"). A change that reads more names
// differently from Sonarr's rules fails here, and `pnpm bench quality` lists them.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { qualityAgreement } from '../../bench/support/quality-agreement.ts';

const here = dirname(fileURLToPath(import.meta.url));
const path = [process.env.MO_CORPUS, resolve(here, '../../../shared/corpus/release-names.dev.json')].find(
  (p): p is string => p !== undefined && p !== '' && existsSync(p),
);

describe.skipIf(path === undefined)('quality read from the public corpus’ names', () => {
  const names = path === undefined ? [] : (JSON.parse(readFileSync(path, 'utf8')) as { cases: { name: string }[] }).cases.map((c) => c.name);
  const a = qualityAgreement(names);

  it('differs from Sonarr’s rules no more than when each difference was judged', () => {
    expect(a.resolution.differences.length, a.resolution.differences.join('\n')).toBeLessThanOrEqual(4);
    expect(a.source.differences.length, a.source.differences.join('\n')).toBeLessThanOrEqual(11);
    expect(a.codec.differences, 'codec').toEqual([]);
    expect(a.fix.differences, 'PROPER/REPACK').toEqual([]);
    expect(a.group.differences.length, a.group.differences.join('\n')).toBeLessThanOrEqual(82);
  });

  it('reads as many names as it did', () => {
    expect(a.resolution.agree).toBeGreaterThanOrEqual(1000);
    expect(a.source.agree).toBeGreaterThanOrEqual(970);
    expect(a.codec.agree).toBeGreaterThanOrEqual(945);
    expect(a.group.agree).toBeGreaterThanOrEqual(800);
  });
});
