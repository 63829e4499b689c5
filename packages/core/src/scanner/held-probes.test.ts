import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '@mo/shared';
import { makeClip } from '../media/test-fixtures/clips.ts';
import { probeFile } from '../media/run.ts';
import { createLogger } from '../logging/logger.ts';
import { heldProbes, type ProbeFn } from './held-probes.ts';
import { planDownloads } from './run-pass.ts';

const log = createLogger({ name: 'test', level: 'silent' });
const OLD = new Date('2024-01-01T00:00:00Z');
let root: string;
/** 1280×720, and 1920×1080: real pictures, named without any quality. */
let clip720: string;
let clip1080: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'held-probes-'));
  clip720 = join(root, 'clips', 'a.mp4');
  clip1080 = join(root, 'clips', 'b.mkv');
  mkdirSync(dirname(clip720), { recursive: true });
  await Promise.all([makeClip(clip720, { seconds: 1, size: '1280x720' }), makeClip(clip1080, { seconds: 1, size: '1920x1080' })]);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const counting = () => {
  const asked: string[] = [];
  const probe: ProbeFn = (path) => {
    asked.push(path);
    return probeFile(path);
  };
  return { asked, probe };
};

describe('heldProbes', () => {
  it('reads a real picture’s resolution; a file that is no media is unknown', async () => {
    const junk = join(root, 'clips', 'junk.mkv');
    writeFileSync(junk, 'not a video');
    const probes = heldProbes(probeFile);
    expect(probes.resolution(clip720)).toBeUndefined();
    await probes.probe([clip720, clip1080, junk, join(root, 'gone.mkv')]);
    expect([clip720, clip1080, junk, join(root, 'gone.mkv')].map((p) => probes.resolution(p))).toEqual([720, 1080, null, null]);
  });

  it('probes a file once per size and modification time, across passes', async () => {
    const file = join(root, 'clips', 'once.mp4');
    await makeClip(file, { seconds: 1, size: '1280x720' });
    const { asked, probe } = counting();
    await heldProbes(probe).probe([file]);
    await heldProbes(probe).probe([file]);
    expect(asked).toEqual([file]);
    utimesSync(file, OLD, OLD);
    await heldProbes(probe).probe([file]);
    expect(asked).toEqual([file, file]);
  });
});

describe('planDownloads: a held file named without quality is probed for an upgrade', () => {
  function setup(held: string, clip: string) {
    const base = mkdtempSync(join(root, 'pass-'));
    const downloads = join(base, 'downloads');
    const drive = join(base, 'disk1');
    const movie = join(drive, 'Movies', 'Heat (1995)');
    mkdirSync(movie, { recursive: true });
    mkdirSync(join(base, 'data'));
    mkdirSync(join(downloads, 'Heat.1995.1080p.BluRay.x264-GRP'), { recursive: true });
    for (const [from, to] of [
      [clip, join(movie, held)],
      [clip, join(downloads, 'Heat.1995.1080p.BluRay.x264-GRP', 'Heat.1995.1080p.BluRay.x264-GRP.mkv')],
    ] as const) {
      copyFileSync(from, to);
      utimesSync(to, OLD, OLD);
    }
    writeFileSync(join(movie, 'Heat (1995).en.srt'), '1\n00:00:00,000 --> 00:00:01,000\nHi\n');
    const cfg: Config = {
      ...DEFAULT_CONFIG,
      paths: { downloads, data: join(base, 'data'), config: join(base, 'data') },
      drives: [{ name: 'disk1', path: drive }],
      library: { ...DEFAULT_CONFIG.library, sample_max_bytes: 0 },
    };
    return { cfg, movie };
  }

  it('replaces a 720p file of another container, its sidecar with it, probing only that file', async () => {
    const { cfg, movie } = setup('Heat (1995).mp4', clip720);
    const { asked, probe } = counting();
    const r = await planDownloads(cfg, { log, nowMs: Date.now(), records: [], probe });
    expect(asked).toEqual([join(movie, 'Heat (1995).mp4')]);
    expect(r.skipped).toEqual([]);
    expect(r.plans.map((p) => [p.plan.destination, p.replaces, p.plan.replaces?.quality.resolution])).toEqual([
      [join(movie, 'Heat (1995).mkv'), { video: join(movie, 'Heat (1995).mp4'), sidecars: [join(movie, 'Heat (1995).en.srt')] }, 720],
    ]);
  });

  it('is "exists" for a 1080p one, naming its probed quality', async () => {
    const { cfg, movie } = setup('Heat (1995).mkv', clip1080);
    const r = await planDownloads(cfg, { log, nowMs: Date.now(), records: [] });
    expect(r.plans).toEqual([]);
    expect(r.skipped.map((s) => [s.reason, s.detail])).toEqual([
      ['exists', `the library holds this movie already: ${join(movie, 'Heat (1995).mkv')} (1080p, probed); this download: 1080p BluRay x264 · GRP`],
    ]);
  });

  it('probes nothing with upgrades off', async () => {
    const { cfg } = setup('Heat (1995).mp4', clip720);
    const { asked, probe } = counting();
    const r = await planDownloads({ ...cfg, library: { ...cfg.library, upgrades: 'off' } }, { log, nowMs: Date.now(), records: [], probe });
    expect(asked).toEqual([]);
    expect(r.skipped[0]!.detail).toMatch(/not replaced: upgrades are off/);
  });
});
