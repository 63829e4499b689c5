// Child process for the state-write kill trials: the same RuntimeConfig and state store a worker
// uses, updating state.json in a tight loop until it is SIGKILLed. Each update writes a settings
// value and a `recent` entry carrying the same counter, so a torn or mixed file cannot pass
// unnoticed. Prints "ready <pid>" once its first update landed. With "once", one update, then exit.
import { createRuntimeConfig } from '@mo/core';

const [configFile, mode] = process.argv.slice(2);
if (!configFile) throw new Error('usage: state-hammer <config.toml> [once]');
const config = await createRuntimeConfig({ configFile, pollMs: 60_000 });

let n = Math.floor(Math.random() * 1000) * 1000;
for (;;) {
  n++;
  const counter = n % 1_000_000;
  await config.state.update((s) => ({
    ...s,
    settings: { ...s.settings, app: { ...s.settings.app, settle_seconds: counter } },
    recent: [
      {
        type: 'plan' as const,
        source: `/hammer/${process.pid}#${counter}`,
        destination: `/x/${'y'.repeat(counter % 200)}`,
        at: new Date().toISOString(),
        status: 'planned' as const,
      },
      ...s.recent,
    ].slice(0, 500),
  }));
  if (n % 1000 === 1 || mode === 'once') process.stdout.write(`ready ${process.pid}\n`);
  if (mode === 'once') {
    config.close();
    process.exit(0);
  }
}
