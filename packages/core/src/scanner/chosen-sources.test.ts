import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, initialState, stateSchema, type Config } from '@mo/shared';
import { createLogger } from '../logging/logger.ts';
import { createStateStore } from '../state/state-store.ts';
import { checkSources } from './chosen-sources.ts';
import { runScanPass } from './run-pass.ts';

const root = mkdtempSync(join(tmpdir(), 'mo-chosen-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const log = createLogger({ name: 'test', level: 'silent' });
const OLD = new Date('2024-01-01T00:00:00Z');

describe('checkSources', () => {
  it('takes absolute paths below the downloads folder', () => {
    expect([...checkSources('/dl/', ['/dl/a.mkv', '/dl/x/b.srt'])]).toEqual(['/dl/a.mkv', '/dl/x/b.srt']);
  });

  it.each([
    ['a path outside', '/media/Movies/Heat.mkv', 'must lie inside the downloads folder'],
    ['a climb out', '/dl/../etc/passwd', 'without . or .. parts'],
    ['a relative path', 'a.mkv', 'without . or .. parts'],
    ['a NUL byte', '/dl/a\0.mkv', 'without . or .. parts'],
    ['the folder itself', '/dl', 'must lie inside the downloads folder'],
    ['a sibling sharing its prefix', '/dl2/a.mkv', 'must lie inside the downloads folder'],
  ])('refuses %s, naming the entry', (_what, bad, why) => {
    expect(() => checkSources('/dl', ['/dl/ok.mkv', bad])).toThrow(expect.objectContaining({ code: 'bad_request', details: { key: 'sources.1' } }));
    expect(() => checkSources('/dl', [bad])).toThrow(why);
  });
});

let n = 0;
function setup(dryRun: boolean) {
  const base = join(root, `s${++n}`);
  const downloads = join(base, 'downloads');
  const drive = join(base, 'disk1');
  const data = join(base, 'data');
  for (const d of [downloads, join(drive, 'Movies'), join(drive, 'TV'), data]) mkdirSync(d, { recursive: true });
  const cfg: Config = {
    ...DEFAULT_CONFIG,
    app: { ...DEFAULT_CONFIG.app, dry_run: dryRun },
    paths: { downloads, data, config: data },
    drives: [{ name: 'disk1', path: drive }],
    library: { ...DEFAULT_CONFIG.library, transfer: 'move' },
  };
  const state = createStateStore({ file: join(data, 'state.json'), schema: stateSchema, initial: initialState });
  const put = (rel: string, bytes = 60 * 1024 * 1024) => {
    const p = join(downloads, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, Buffer.alloc(bytes, 1));
    utimesSync(p, OLD, OLD);
    return p;
  };
  const pass = (extra: Partial<Parameters<typeof runScanPass>[0]> = {}) => runScanPass({ config: cfg, state, owner: { uid: null, gid: null }, log, ...extra });
  return { drive, put, pass };
}

describe('a pass of chosen downloads', () => {
  it('a preview (dryRun) moves nothing though the config says dry_run off', async () => {
    const s = setup(false);
    const heat = s.put('Heat.1995.mkv');
    const result = await s.pass({ dryRun: true });
    expect(result).toMatchObject({ dry_run: true, moves: [], plans: [expect.objectContaining({ source: heat })] });
    expect(existsSync(heat)).toBe(true);
  });

  it('carries out only the named downloads and their named sidecars: a file that came later stays', async () => {
    const s = setup(false);
    const heat = s.put('Heat.1995/Heat.1995.mkv');
    const srt = s.put('Heat.1995/Heat.1995.en.srt', 100);
    const preview = await s.pass({ dryRun: true });
    const sources = preview.plans.flatMap((p) => [p.source, ...p.sidecars.map((x) => x.source)]);
    expect(sources).toEqual([heat, srt]);
    const later = s.put('Alien.1979.mkv');
    const laterSrt = s.put('Heat.1995/Heat.1995.fr.srt', 100);
    const result = await s.pass({ sources: new Set(sources) });
    expect(result.chosen).toBe(true);
    expect(preview.chosen).toBeUndefined();
    expect(result.moves.map((m) => [m.source, m.status])).toEqual([[heat, 'moved']]);
    expect(result.moves[0]!.sidecars.map((x) => x.source)).toEqual([srt]);
    expect(result.skipped).toEqual([]);
    expect(existsSync(join(s.drive, 'Movies/Heat (1995)/Heat (1995).mkv'))).toBe(true);
    expect(existsSync(later)).toBe(true);
    expect(existsSync(laterSrt)).toBe(true);
  });
});
