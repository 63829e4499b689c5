import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderSchema, SCHEMA_FILE } from './generate.ts';

describe('schema.gen.ts', () => {
  it('is what the API document generates now (run `pnpm gen:client` after changing the document)', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    const fresh = await renderSchema();
    expect(committed === fresh, 'packages/api-client/src/schema.gen.ts is out of date: run `pnpm gen:client`').toBe(true);
  });
});
