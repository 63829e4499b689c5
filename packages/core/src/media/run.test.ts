import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { probeFile, runTool, ToolError } from './run.ts';
import { makeClip } from './test-fixtures/clips.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mo-run-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function failure(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('runTool', () => {
  it('returns stdout, or hands it over line by line', async () => {
    expect(await runTool(['sh', '-c', 'echo one; echo two'], { timeoutMs: 5000 })).toEqual({ stdout: 'one\ntwo' });
    const lines: string[] = [];
    await runTool(['sh', '-c', 'echo one; echo two'], { timeoutMs: 5000, onStdoutLine: (l) => lines.push(l) });
    expect(lines).toEqual(['one', 'two']);
  });

  it('stops a run at its time limit', async () => {
    const started = Date.now();
    const err = await failure(runTool(['sleep', '10'], { timeoutMs: 200 }));
    expect(err.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('kills the run when the signal aborts', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort('cancelled'), 100);
    expect((await failure(runTool(['sleep', '10'], { timeoutMs: 10_000, signal: ac.signal }))).reason).toBe('cancelled');
  });

  it('reports a failed run with its stderr, and a missing tool as such', async () => {
    const err = await failure(runTool(['sh', '-c', 'echo "bad input" >&2; exit 3'], { timeoutMs: 5000 }));
    expect(err.reason).toBe('failed');
    expect(err.message).toBe('sh failed (exit 3): bad input');
    expect((await failure(runTool(['mo-no-such-tool'], { timeoutMs: 5000 }))).reason).toBe('missing');
  });
});

describe('probeFile', () => {
  it('probes real media', async () => {
    const file = join(dir, 'a.mkv');
    await makeClip(file, { seconds: 2 });
    const probe = await probeFile(file);
    expect(probe.container).toBe('matroska,webm');
    expect(probe.streams.map((s) => `${s.index}:${s.type}:${s.language}:${s.default}`)).toEqual(['0:video:null:true', '1:audio:eng:true', '2:audio:fra:false']);
    expect(probe.duration_seconds).toBeCloseTo(2, 0);
  });

  it('calls a file ffprobe cannot read a bad request', async () => {
    const file = join(dir, 'fake.mkv');
    await writeFile(file, 'not a video');
    const err = await probeFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('bad_request');
  });
});
