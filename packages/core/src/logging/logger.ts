import { pino, type Logger, type DestinationStream } from 'pino';
import type { LogLevel } from '@mo/shared';

export type { Logger };

export function createLogger(opts: { name: string; level: LogLevel; destination?: DestinationStream }): Logger {
  return pino(
    {
      name: opts.name,
      level: opts.level,
      // Secrets may arrive in headers or query strings; they never reach the log.
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.api_key'], censor: '[redacted]' },
    },
    opts.destination,
  );
}
