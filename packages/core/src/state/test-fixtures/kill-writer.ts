// Child process for the SIGKILL proof: updates the file in a tight loop until it is killed, and says
// "wrote" once its first update landed (so the parent kills it mid-loop, not during start-up).
import { createStateStore } from '../state-store.ts';
import { counterSchema, payloadFor } from './schemas.ts';

const [file, staleArg] = process.argv.slice(2);
if (!file) throw new Error('usage: kill-writer.ts <file> [staleMs]');

const store = createStateStore({
  file,
  schema: counterSchema,
  initial: () => ({ counter: 0, writer: process.pid, payload: payloadFor(0) }),
  staleMs: Number(staleArg ?? 2000),
});

let announced = false;
for (;;) {
  await store.update((v) => ({ counter: v.counter + 1, writer: process.pid, payload: payloadFor(v.counter + 1) }));
  if (!announced) {
    announced = true;
    process.stdout.write('wrote\n');
  }
}
