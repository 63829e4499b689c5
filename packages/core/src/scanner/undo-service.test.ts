import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config, JobPayload } from '@mo/shared';
import { validateFileConfig } from '../config/load.ts';
import { openDataDir } from '../config/data-stores.ts';
import { createLogger } from '../logging/logger.ts';
import { openHistoryLog } from '../history/history-log.ts';
import { undoService } from './undo-service.ts';

const logger = createLogger({ name: 'undo-service-test', level: 'silent' });

let dir: string;
let cfg: Config;
const told: JobPayload<'notify'>[] = [];

beforeEach(async () => {
  told.length = 0;
  dir = await mkdtemp(join(tmpdir(), 'mo-undo-service-'));
  for (const d of ['downloads', 'data', 'drive/Movies']) await mkdir(join(dir, d), { recursive: true });
  cfg = validateFileConfig('test', {
    app: { dry_run: false },
    paths: { downloads: join(dir, 'downloads'), config: dir, data: join(dir, 'data') },
    drives: [{ name: 'disk1', path: join(dir, 'drive') }],
    notifications: { targets: [{ name: 'hook', kind: 'webhook', url: 'http://127.0.0.1:9/hook', enabled: true }] },
  });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const service = () => undoService({ config: () => cfg, data: () => openDataDir(cfg.paths.data), notify: async (payload) => void told.push(payload) });

/** One moved import, as a pass records it: the library file is the download's inode. */
async function movedImport() {
  const source = join(dir, 'downloads', 'Movie.2001.mkv');
  const destination = join(dir, 'drive', 'Movies', 'Movie (2001).mkv');
  await writeFile(destination, 'video');
  const st = await stat(destination);
  const identity = { dev: st.dev, ino: st.ino, size: st.size, mtime_ms: st.mtimeMs };
  const log = await openHistoryLog(cfg.paths.data);
  const record = await log.recordImport({
    at: new Date().toISOString(),
    source,
    destination,
    from: identity,
    to: identity,
    mode: 'move',
    method: 'rename',
    sidecars: [],
    created_dirs: [],
    pass: 'pass-1',
  });
  return { id: record.id, source, destination };
}

describe('undoService', () => {
  it('moves the file back and tells the enabled media servers it is gone', async () => {
    const { id, source, destination } = await movedImport();
    expect(await service().undo(id, logger)).toEqual({
      dry_run: false,
      id,
      restored: [{ from: destination, to: source, action: 'moved_back' }],
      from_recycle_bin: [],
    });
    expect(await readFile(source, 'utf8')).toBe('video');
    expect(told).toEqual([{ pass: 'pass-1', undone: id, imports: [{ source, destination }] }]);
    expect((await service().list({ before: null, limit: 10, source: null, destination: null })).items[0]).toMatchObject({ id, undone_at: expect.any(String) });
  });

  it('tells no one in a dry run, or with no target enabled', async () => {
    const { id, destination } = await movedImport();
    cfg = { ...cfg, app: { ...cfg.app, dry_run: true } };
    expect(await service().undo(id, logger)).toMatchObject({ dry_run: true, restored: [{ from: destination }] });
    expect((await stat(destination)).isFile()).toBe(true);
    cfg = { ...cfg, app: { ...cfg.app, dry_run: false }, notifications: { targets: cfg.notifications.targets.map((t) => ({ ...t, enabled: false })) } };
    await service().undo(id, logger);
    expect(told).toEqual([]);
  });

  it('an import not in the history is not found, and no one is told', async () => {
    await expect(service().undo(7, logger)).rejects.toMatchObject({ code: 'not_found' });
    expect(told).toEqual([]);
  });
});
