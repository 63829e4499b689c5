import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRuntimeConfig, readProcessEnv, type JobContext, type RuntimeConfig } from '@mo/core';
import { tempInstall, type TempInstall } from '@mo/test-support/service';
import { libraryScanHandler } from './library-scan.ts';

let install: TempInstall | undefined;
let config: RuntimeConfig | undefined;
afterEach(async () => {
  config?.close();
  await install?.cleanup();
});

const logLines: string[] = [];
const log = createLogger({ name: 'test', level: 'debug', destination: { write: (s: string) => void logLines.push(s) } });
const ctx: JobContext = {
  jobId: '1',
  attempt: 1,
  signal: new AbortController().signal,
  progress: async () => {},
  progressSoFar: 0,
  defer: () => Promise.reject(new Error('not deferred')),
  log,
};

async function scanWithLimit(limit: number) {
  install = await tempInstall(`[app]\nlibrary_scan_max_files = ${limit}\n`);
  const movie = join(install.paths.drive, 'Movies', 'Alien (1979)');
  await mkdir(movie, { recursive: true });
  for (const f of ['Alien (1979).mkv', 'Alien (1979).en.srt', 'movie.nfo']) await writeFile(join(movie, f), '');
  config = await createRuntimeConfig({ configFile: install.configFile, pollMs: 50 });
  logLines.length = 0;
  const handler = libraryScanHandler({ config, logger: log, env: readProcessEnv({ MEDIA_ORGANIZER_CONFIG: install.configFile }) });
  const out = (await handler({ trigger: 'api' }, ctx)) as { summary: { files: number; truncated: boolean } };
  const warnings = logLines.map((l) => JSON.parse(l) as { level: number; msg: string; library_scan_max_files?: number }).filter((l) => l.level === 40);
  return { summary: out.summary, warnings };
}

describe('library scan handler', () => {
  it('warns, naming the setting and its value, when the scan stops at library_scan_max_files', async () => {
    const { summary, warnings } = await scanWithLimit(2);
    expect(summary).toMatchObject({ files: 2, truncated: true });
    expect(warnings).toEqual([expect.objectContaining({ library_scan_max_files: 2, msg: expect.stringContaining('library_scan_max_files') })]);
  });

  it('says nothing of the limit when every file fits', async () => {
    const { summary, warnings } = await scanWithLimit(3);
    expect(summary).toMatchObject({ files: 3, truncated: false });
    expect(warnings).toEqual([]);
  });
});
