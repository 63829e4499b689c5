import type { Config } from '@mo/shared';

const SECRET_KEY = /key|token|password|secret/i;
/** Query parameters that carry a credential in webhook and notification URLs (`?token=`, `?sig=`, `?apikey=`). */
const SECRET_PARAM = /key|token|password|secret|pass|auth|sig|hash|code|session/i;

/** `value` as GET /api/config shows it: a URL without its user, password or credential query parameters. */
export function publicUrl(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const url = new URL(value);
    const params = [...url.searchParams.keys()].filter((k) => SECRET_PARAM.test(k));
    if (!url.username && !url.password && params.length === 0) return value;
    url.username = '';
    url.password = '';
    for (const k of params) url.searchParams.delete(k);
    return url.toString();
  } catch {
    return value;
  }
}

/**
 * A notification target's URL as GET /api/config shows it. Some services keep the secret in the
 * path: a Discord webhook URL ends in its token (`/api/webhooks/<id>/<token>`) and an ntfy topic
 * is readable by anyone who knows its name, so for those kinds the last path segment is cut too.
 */
export function publicTargetUrl(target: { kind: string; url: string }): string {
  const shown = publicUrl(target.url);
  if (target.kind !== 'discord' && target.kind !== 'ntfy') return shown;
  try {
    const url = new URL(shown);
    url.pathname = url.pathname.replace(/\/[^/]+\/?$/, target.kind === 'ntfy' ? '/' : '');
    return url.toString();
  } catch {
    return shown;
  }
}

function redact(value: unknown): unknown {
  if (typeof value === 'string') return publicUrl(value);
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
  const pub = redact(config) as Record<string, unknown> & { notifications?: { targets?: { kind: string; url: string }[] } };
  const targets = config.notifications?.targets;
  if (pub.notifications?.targets && targets) {
    pub.notifications.targets = pub.notifications.targets.map((t, i) => ({ ...t, url: publicTargetUrl(targets[i]!) }));
  }
  return pub;
}
