import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { surveyDrives } from './drive-survey.ts';
import { rootKey } from './folder-lookup.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-survey-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sections = { movies: ['Movies'], tv: ['TV', 'TV Shows'] };

describe('surveyDrives', () => {
  it('reads free space, device and the library folders of each drive', async () => {
    const a = join(root, 'a');
    const b = join(root, 'b');
    mkdirSync(join(a, 'Movies', 'Heat (1995)'), { recursive: true });
    mkdirSync(join(a, 'TV Shows', 'Lost'), { recursive: true });
    writeFileSync(join(a, 'Movies', 'loose.mkv'), '');
    mkdirSync(join(b, 'TV', 'Fargo'), { recursive: true });
    mkdirSync(join(b, 'TV Shows', 'Lost'), { recursive: true });
    const s = await surveyDrives(
      [
        { name: 'a', path: a },
        { name: 'b', path: b },
        { name: 'gone', path: join(root, 'nope') },
      ],
      sections,
    );
    expect(s.drives.map((d) => ({ ...d, free_bytes: typeof d.free_bytes, total_bytes: typeof d.total_bytes }))).toEqual([
      { name: 'a', path: a, dev: statSync(a).dev, free_bytes: 'number', total_bytes: 'number', roots: { movies: 'Movies', tv: 'TV Shows' } },
      { name: 'b', path: b, dev: statSync(b).dev, free_bytes: 'number', total_bytes: 'number', roots: { tv: 'TV' } },
      { name: 'gone', path: join(root, 'nope'), dev: null, free_bytes: 'object', total_bytes: 'object', roots: {} },
    ]);
    expect(s.folders).toEqual([
      { drive: 'a', section: 'movies', root: 'Movies', name: 'Heat (1995)' },
      { drive: 'a', section: 'tv', root: 'TV Shows', name: 'Lost' },
      { drive: 'b', section: 'tv', root: 'TV', name: 'Fargo' },
      { drive: 'b', section: 'tv', root: 'TV Shows', name: 'Lost' },
    ]);
    const id = (p: string) => `${statSync(p).dev}:${statSync(p).ino}`;
    expect(s.libraryDirs).toEqual(new Set([join(a, 'Movies'), join(a, 'TV Shows'), join(b, 'TV'), join(b, 'TV Shows')].map(id)));
    expect(s.listedRoots).toEqual(new Set([rootKey('a', 'Movies'), rootKey('a', 'TV Shows'), rootKey('b', 'TV'), rootKey('b', 'TV Shows')]));
  });
});
