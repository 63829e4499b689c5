import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config, RecentEntry } from '@mo/shared';
import { openDataDir } from '../config/data-stores.ts';
import { validateFileConfig } from '../config/load.ts';
import { createLogger } from '../logging/logger.ts';
import { downloadsView, type DownloadsAnswer } from './downloads-answer.ts';

const log = createLogger({ name: 'downloads-answer-test', level: 'silent' });

let dir: string;
let cfg: Config;
let recent: RecentEntry[];
let encoded: DownloadsAnswer[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-downloads-answer-'));
  for (const d of ['downloads', 'data', 'drive']) await mkdir(join(dir, d), { recursive: true });
  cfg = validateFileConfig('test', {
    paths: { downloads: join(dir, 'downloads'), config: dir, data: join(dir, 'data') },
    drives: [{ name: 'disk1', path: join(dir, 'drive') }],
  });
  recent = [];
  encoded = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const view = () => {
  const data = openDataDir(cfg.paths.data);
  return downloadsView(
    { config: () => cfg, listing: () => data.downloadsListing(), history: () => data.history(), recent: () => recent, refresh: async () => {} },
    (answer) => {
      encoded.push(answer);
      return { answer };
    },
  );
};

describe('downloadsView', () => {
  it('answers no files before the first walk, and encodes again only when the recent entries change', async () => {
    const downloads = view();
    const first = await downloads(log);
    expect(first.answer).toEqual({ files: [], scanned_at: null, truncated: false, recent: [] });
    expect(await downloads(log)).toBe(first);
    recent = [];
    expect(await downloads(log)).not.toBe(first);
    expect(encoded).toHaveLength(2);
  });

  it('answers without the listing when the history cannot be read, and reads it again next time', async () => {
    // A folder where the history file belongs: reading it fails.
    await mkdir(join(dir, 'data', 'history', 'imports.jsonl'), { recursive: true });
    const downloads = view();
    expect((await downloads(log)).answer.scanned_at).toBeNull();
    await downloads(log);
    expect(encoded).toHaveLength(2);
  });
});
