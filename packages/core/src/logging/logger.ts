import { pino, type Logger, type DestinationStream } from 'pino';
import type { LogLevel } from '@mo/shared';

export type { Logger };

/**
 * Standard output, written line by line as each is logged. Pino's own default buffers and flushes
 * what is left as the process exits, and that flush retries a write that failed with EPIPE forever:
 * a process whose log reader had died (`tee` under scripts/start) never exited. Written at once,
 * a broken pipe is seen on the write, and logging stops there instead.
 */
function standardOutput(): DestinationStream {
  return pino.destination({ dest: 1, sync: true });
}

export function createLogger(opts: { name: string; level: LogLevel; destination?: DestinationStream }): Logger {
  return pino(
    {
      name: opts.name,
      level: opts.level,
      // Secrets may arrive in headers or query strings; they never reach the log.
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.api_key'], censor: '[redacted]' },
    },
    opts.destination ?? standardOutput(),
  );
}
