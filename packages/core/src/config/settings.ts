import { FLAT_APP_KEYS, RUNTIME_SECTIONS, settingsPatchSchema, settingsSentence, type Config, type SettingsPatch } from '@mo/shared';
import { z } from 'zod';
import { AppError, validationError } from '../errors.ts';
import { deepMerge } from './merge.ts';
import { effectiveConfig } from './load.ts';
import { publicTargetUrl } from './redact.ts';

const flatKeys = new Set<string>(FLAT_APP_KEYS);
const sections = new Set<string>(RUNTIME_SECTIONS);

/**
 * Keys of runtime sections that only the config file may set: whoever holds a session must not be
 * able to lock the owner out (the key), widen where paths may point (the roots), let the provider
 * URL reach internal addresses, or have a forged X-Forwarded-For believed (the trusted proxies).
 */
export const FILE_ONLY_KEYS = [
  ['app', 'api_key'],
  ['app', 'allowed_roots'],
  ['app', 'trusted_proxies'],
  ['release_providers', 'tvmaze', 'allow_private'],
  ['paths', 'data'],
] as const;

function has(obj: unknown, path: readonly string[]): boolean {
  let at = obj;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, key)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

/** A 400 naming the first key of FILE_ONLY_KEYS that a nested settings body sets. */
export function refuseFileOnlyKeys(nested: unknown): void {
  for (const path of FILE_ONLY_KEYS) {
    if (!has(nested, path)) continue;
    const key = path.join('.');
    const why = key === 'paths.data' ? 'holds state.json, so it can only be set in the config file' : 'can only be set in the config file';
    throw new AppError('bad_request', `${key}: ${why}`, { key });
  }
}

/**
 * Turns a `POST /api/settings` body (nested sections, legacy flat app keys, or both) into one
 * validated patch. Anything unknown, mistyped or ambiguous is a 400 naming the key path.
 */
export function settingsPatchFromBody(body: unknown): SettingsPatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('bad_request', 'the body must be a JSON object of settings');
  }
  const nested: Record<string, unknown> = {};
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (flatKeys.has(key)) flat[key] = value;
    else if (sections.has(key)) nested[key] = value;
    else if (key === 'transcoder') {
      throw new AppError('bad_request', 'transcoder: not a runtime setting; set it in the config file', { key });
    } else throw new AppError('bad_request', `${key}: unknown setting`, { key });
  }
  if (Object.keys(flat).length > 0) {
    const app = nested.app;
    if (app !== undefined && (typeof app !== 'object' || app === null || Array.isArray(app))) {
      throw new AppError('bad_request', 'app: expected an object', { key: 'app' });
    }
    for (const key of Object.keys(flat)) {
      if (app && key in app) {
        throw new AppError('bad_request', `app.${key}: given both as a flat key and inside app`, { key: `app.${key}` });
      }
    }
    nested.app = { ...(app as object | undefined), ...flat };
  }
  refuseFileOnlyKeys(nested);
  const parsed = settingsPatchSchema.safeParse(nested);
  if (!parsed.success) throw validationError(parsed.error, [], settingsSentence);
  return parsed.data;
}

const TARGET_SECRETS = ['api_key', 'token', 'secret'] as const;

/**
 * GET /api/config never shows a target's secrets, so a client that posts back what it read would
 * erase them: a target sent without one keeps the one it had under the same name, and a URL sent
 * back exactly as GET /api/config showed it keeps the credentials it had.
 */
function keepTargetSecrets(fileConfig: Config, saved: SettingsPatch, patch: SettingsPatch): SettingsPatch {
  const targets = patch.notifications?.targets;
  if (!targets) return patch;
  const before = new Map((saved.notifications?.targets ?? fileConfig.notifications.targets).map((t) => [t.name, t]));
  const kept = targets.map((t) => {
    const old = before.get(t.name);
    if (!old) return t;
    const out = { ...t };
    for (const key of TARGET_SECRETS) if (out[key] === undefined && old[key] !== undefined) out[key] = old[key];
    if (out.url !== old.url && out.url === publicTargetUrl(old)) out.url = old.url;
    return out;
  });
  return { ...patch, notifications: { ...patch.notifications, targets: kept } };
}

/** The saved settings after `patch`, checked against the whole config they produce. */
export function mergeSettings(fileConfig: Config, saved: SettingsPatch, patch: SettingsPatch): SettingsPatch {
  const next = deepMerge(saved, keepTargetSecrets(fileConfig, saved, patch));
  try {
    effectiveConfig(fileConfig, next);
  } catch (err) {
    if (err instanceof z.ZodError) throw validationError(err);
    throw err;
  }
  return next;
}
