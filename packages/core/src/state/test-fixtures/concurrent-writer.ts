// Child process for the multi-process proof: waits for "go" on stdin, then launches <count>
// concurrent updates that each append "<prefix>-<i>" to the shared ids array.
import { createStateStore } from '../state-store.ts';
import { idsSchema } from './schemas.ts';

const [file, prefix, countArg] = process.argv.slice(2);
if (!file || !prefix) throw new Error('usage: concurrent-writer.ts <file> <prefix> [count]');
const count = Number(countArg ?? 500);

const store = createStateStore({ file, schema: idsSchema, initial: () => ({ ids: [] }) });

process.stdout.write('ready\n');
process.stdin.once('data', () => {
  process.stdin.destroy();
  const started = Date.now();
  void Promise.all(Array.from({ length: count }, (_, i) => store.update((v) => ({ ids: [...v.ids, `${prefix}-${i}`] })))).then(
    () => process.stdout.write(`done ${Date.now() - started}\n`),
    (err: unknown) => {
      process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
      process.exit(1);
    },
  );
});
