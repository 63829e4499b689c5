// Writes packages/api-client/src/schema.gen.ts from the OpenAPI document, built in-process.
import { writeFile } from 'node:fs/promises';
import { register } from 'tsx/esm/api';

// The document is built by the API's TypeScript sources.
register();
const { renderSchema, SCHEMA_FILE } = await import('@mo/api-client/generate');
await writeFile(SCHEMA_FILE, await renderSchema());
console.log(`wrote ${SCHEMA_FILE}`);
