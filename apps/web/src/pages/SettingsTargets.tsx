import { useId } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { Field, SelectField } from '../components/form.tsx';

export const TARGET_KINDS = ['jellyfin', 'emby', 'plex', 'kodi', 'webhook', 'discord', 'ntfy', 'gotify', 'apprise'] as const;
type TargetKind = (typeof TARGET_KINDS)[number];

/** A notification target as the form edits it; `secret` is a new value only (blank keeps the saved one). */
export interface TargetRow {
  name: string;
  kind: TargetKind;
  url: string;
  enabled: boolean;
  secret: string;
}

/**
 * The key each kind's secret goes in; Kodi takes its user and password inside the URL, and a
 * Discord webhook URL holds its own token.
 */
const SECRET_KEY: Record<TargetKind, 'api_key' | 'token' | 'secret' | null> = {
  jellyfin: 'api_key',
  emby: 'api_key',
  plex: 'token',
  kodi: null,
  webhook: 'secret',
  discord: null,
  ntfy: 'token',
  gotify: 'token',
  apprise: 'token',
};
const SECRET_LABEL: Record<TargetKind, string> = {
  jellyfin: 'API key',
  emby: 'API key',
  plex: 'Plex token',
  kodi: '',
  webhook: 'Secret (sent as X-MO-Secret)',
  discord: '',
  ntfy: 'Access token (optional)',
  gotify: 'App token',
  apprise: 'Configuration key (optional)',
};
/** What the URL of each chat kind is, and why part of it may show as cut. */
const URL_HINT: Partial<Record<TargetKind, string>> = {
  discord: 'The webhook URL Discord gives; its token is not shown once saved (leave it so to keep it)',
  ntfy: 'The topic URL, e.g. https://ntfy.sh/<topic>; the topic is not shown once saved (leave it so to keep it)',
  gotify: 'The Gotify server, e.g. http://gotify.lan',
  apprise: 'The Apprise API server, e.g. http://apprise:8000',
};

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

/**
 * Sends a test message to a saved target (POST /api/notifications/test) and says what came back:
 * the API waits at most 10 s, and a failure names what the target answered.
 */
function TestTarget({ name, saved }: { name: string; saved: boolean }) {
  const test = useMutation({ mutationFn: () => unwrap(api.POST('/api/notifications/test', { body: { name } })) });
  const hintId = useId();
  return (
    <div className="target-test">
      <button type="button" disabled={!saved || test.isPending} onClick={() => test.mutate()} aria-describedby={saved ? undefined : hintId}>
        Test {name || 'target'}
      </button>
      {!saved ? (
        <small className="hint" id={hintId}>
          Save the settings to test this target
        </small>
      ) : null}
      <span role="status" className={test.isError ? 'error' : undefined} data-test-result={test.isSuccess ? 'ok' : test.isError ? 'failed' : undefined}>
        {test.isPending
          ? 'Sending a test message…'
          : test.isSuccess
            ? `${name} answered: the test message was sent.`
            : test.isError
              ? `Test failed: ${(test.error as Error).message}`
              : ''}
      </span>
    </div>
  );
}

/** The media servers, webhooks and chat services told after each import (the `[notifications]` section). */
export function NotificationTargets({
  rows,
  setRows,
  error,
  saved = [],
}: {
  rows: TargetRow[];
  setRows: (rows: TargetRow[]) => void;
  error: unknown;
  saved?: readonly TargetRow[];
}) {
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
            <SelectField
              label={`Target ${i + 1} kind`}
              path={`${at}.kind`}
              options={TARGET_KINDS}
              value={r.kind}
              error={error}
              onChange={(kind) => edit(i, { kind })}
            />
            <Field
              label={`Target ${i + 1} URL`}
              path={`${at}.url`}
              error={error}
              hint={URL_HINT[r.kind]}
              value={r.url}
              onChange={(e) => edit(i, { url: e.target.value })}
            />
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
            <Field
              label={`Target ${i + 1} enabled`}
              path={`${at}.enabled`}
              error={error}
              type="checkbox"
              checked={r.enabled}
              onChange={(e) => edit(i, { enabled: e.target.checked })}
            />
            <TestTarget name={r.name} saved={saved.some((s) => JSON.stringify(s) === JSON.stringify(r))} />
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
