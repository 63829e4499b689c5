import { Field, SelectField } from '../components/form.tsx';

export const TARGET_KINDS = ['jellyfin', 'emby', 'plex', 'kodi', 'webhook'] as const;
type TargetKind = (typeof TARGET_KINDS)[number];

/** A notification target as the form edits it; `secret` is a new value only (blank keeps the saved one). */
export interface TargetRow {
  name: string;
  kind: TargetKind;
  url: string;
  enabled: boolean;
  secret: string;
}

/** The key each kind's secret goes in; Kodi takes its user and password inside the URL. */
const SECRET_KEY: Record<TargetKind, 'api_key' | 'token' | 'secret' | null> = { jellyfin: 'api_key', emby: 'api_key', plex: 'token', kodi: null, webhook: 'secret' };
const SECRET_LABEL: Record<TargetKind, string> = { jellyfin: 'API key', emby: 'API key', plex: 'Plex token', kodi: '', webhook: 'Secret (sent as X-MO-Secret)' };

export function targetRows(targets: readonly { name: string; kind: TargetKind; url: string; enabled: boolean }[]): TargetRow[] {
  return targets.map((t) => ({ name: t.name, kind: t.kind, url: t.url, enabled: t.enabled, secret: '' }));
}

/**
 * The targets as POST /api/settings takes them: the API never shows secrets, and a target sent
 * without one keeps the one it had under the same name, so only a newly typed secret is sent.
 */
export function targetsPatch(rows: readonly TargetRow[]): Record<string, unknown>[] {
  return rows.map((r) => {
    const key = SECRET_KEY[r.kind];
    const out: Record<string, unknown> = { name: r.name, kind: r.kind, url: r.url, enabled: r.enabled };
    if (key && r.secret !== '') out[key] = r.secret;
    return out;
  });
}

/** The media servers and webhooks told after each import (the `[notifications]` section). */
export function NotificationTargets({ rows, setRows, error }: { rows: TargetRow[]; setRows: (rows: TargetRow[]) => void; error: unknown }) {
  const edit = (i: number, change: Partial<TargetRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <fieldset>
      <legend>Notification targets</legend>
      {rows.map((r, i) => {
        const key = SECRET_KEY[r.kind];
        const at = `notifications.targets.${i}`;
        return (
          <div key={i} className="drive-row" data-target={i}>
            <Field label={`Target ${i + 1} name`} path={`${at}.name`} error={error} value={r.name} onChange={(e) => edit(i, { name: e.target.value })} />
            <SelectField label={`Target ${i + 1} kind`} path={`${at}.kind`} options={TARGET_KINDS} value={r.kind} error={error} onChange={(kind) => edit(i, { kind })} />
            <Field label={`Target ${i + 1} URL`} path={`${at}.url`} error={error} value={r.url} onChange={(e) => edit(i, { url: e.target.value })} />
            {key ? (
              <Field
                label={`Target ${i + 1} ${SECRET_LABEL[r.kind]}`}
                path={`${at}.${key}`}
                error={error}
                type="password"
                autoComplete="off"
                hint="Leave blank to keep the saved one"
                value={r.secret}
                onChange={(e) => edit(i, { secret: e.target.value })}
              />
            ) : null}
            <Field label={`Target ${i + 1} enabled`} path={`${at}.enabled`} error={error} type="checkbox" checked={r.enabled} onChange={(e) => edit(i, { enabled: e.target.checked })} />
            <button type="button" className="danger" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
              Remove target {i + 1}
            </button>
          </div>
        );
      })}
      <button type="button" onClick={() => setRows([...rows, { name: '', kind: 'jellyfin', url: '', enabled: true, secret: '' }])}>
        Add target
      </button>
    </fieldset>
  );
}
