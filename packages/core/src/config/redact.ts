import type { Config } from '@mo/shared';

const SECRET_KEY = /key|token|password|secret/i;

function stripUrlCredentials(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const url = new URL(value);
    if (!url.username && !url.password) return value;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return value;
  }
}

function redact(value: unknown): unknown {
  if (typeof value === 'string') return stripUrlCredentials(value);
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!SECRET_KEY.test(k)) out[k] = redact(v);
    }
    return out;
  }
  return value;
}

/** The config as `GET /api/config` shows it: secret keys dropped, credentials cut out of URLs. */
export function publicConfig(config: Config): Record<string, unknown> {
  return redact(config) as Record<string, unknown>;
}
