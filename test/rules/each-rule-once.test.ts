// Rules the service keeps in one place, checked over the source tree: a second copy of a list starts
// equal and drifts (four video lists once disagreed on `.iso` and `.strm`).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, KNOWN_SUBTITLE_EXTENSIONS, KNOWN_VIDEO_EXTENSIONS } from '@mo/shared';
import { demuxerFor, muxerFor } from '@mo/core/media';
import { SERIES_COUNTRIES, seriesCountryOfIso } from '@mo/core/parse';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The non-test TypeScript the service and its benches run. */
function sources(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'dist') walk(path);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        out.push({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') });
      }
    }
  };
  for (const group of ['apps', 'packages']) {
    for (const pkg of readdirSync(join(ROOT, group))) walk(join(ROOT, group, pkg, 'src'));
  }
  walk(join(ROOT, 'bench'));
  return out;
}

/** Quoted list entries on one line (a key of an object literal is no entry). */
const entries = (line: string) => [...line.matchAll(/'([^'\n]*)'(?!\s*:)/g)].map((m) => m[1]!);

/** The places of lines outside `own` that list three or more entries `inList` accepts. */
function copiesOf(own: ReadonlySet<string>, inList: (entry: string) => boolean): string[] {
  const copies: string[] = [];
  for (const { path, text } of sources()) {
    if (own.has(path)) continue;
    for (const [i, line] of text.split('\n').entries()) {
      if (entries(line).filter(inList).length >= 3) copies.push(`${path}:${i + 1}`);
    }
  }
  return copies;
}

describe('the extension lists', () => {
  it('are declared once: no other list of three or more known types', () => {
    const video = (e: string) => KNOWN_VIDEO_EXTENSIONS.has(e.startsWith('.') ? e : `.${e}`);
    const subtitle = (e: string) => e.startsWith('.') && KNOWN_SUBTITLE_EXTENSIONS.has(e);
    // The one list, and the config's defaults, which CONTRACT lists and the type checker holds to it.
    const own = new Set(['packages/shared/src/media/extensions.ts', 'packages/shared/src/config/schema.ts']);
    expect(copiesOf(own, video)).toEqual([]);
    expect(copiesOf(own, subtitle)).toEqual([]);
  });

  it('hold the config defaults, and every container the service reads or writes is a known video type', () => {
    for (const ext of DEFAULT_CONFIG.library.video_extensions) expect(KNOWN_VIDEO_EXTENSIONS.has(ext)).toBe(true);
    for (const ext of DEFAULT_CONFIG.library.subtitle_extensions) expect(KNOWN_SUBTITLE_EXTENSIONS.has(ext)).toBe(true);
    for (const ext of ['.iso', '.strm', '.srt', '.nfo', '.txt']) {
      expect(demuxerFor(`a${ext}`)).toBeNull();
      expect(muxerFor(`a${ext}`)).toBeNull();
    }
  });

  it('leave out .iso and .strm, which no demuxer reads', () => {
    for (const ext of ['.iso', '.strm']) expect(KNOWN_VIDEO_EXTENSIONS.has(ext) || KNOWN_SUBTITLE_EXTENSIONS.has(ext)).toBe(false);
  });
});

describe('the country list', () => {
  it('is declared once', () => {
    expect(copiesOf(new Set(['packages/core/src/parse/countries.ts']), (e) => SERIES_COUNTRIES.has(e))).toEqual([]);
  });

  it('names the UK as the library does where a provider gives ISO codes', () => {
    expect(seriesCountryOfIso('GB')).toBe('UK');
    expect(seriesCountryOfIso('us')).toBe('US');
    expect(seriesCountryOfIso('DE')).toBe('DE');
  });
});

describe('the title key', () => {
  it('is the only title normaliser: no other module declares a title key or normalises titles', () => {
    const declares = /\b(?:function|const)\s+(\w*(?:[Tt]itleKey|[Nn]ormali[sz]e\w*Title)\w*)\b/g;
    const found: string[] = [];
    for (const { path, text } of sources()) {
      if (path === 'packages/core/src/parse/title-key.ts') continue;
      // folderTitleKey reads a folder's name into the title key, through titleKey.
      for (const m of text.matchAll(declares)) if (m[1] !== 'folderTitleKey') found.push(`${path}: ${m[1]}`);
    }
    expect(found).toEqual([]);
  });
});
