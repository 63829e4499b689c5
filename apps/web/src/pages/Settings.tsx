import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@mo/api-client';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Field, SelectField } from '../components/form.tsx';
import { ErrorNote, Loading, Page, useConfig } from '../components/ui.tsx';
import { ownerStylesheetActive } from '../theme.ts';
import { OpenSessions } from './OpenSessions.tsx';
import { Aliases } from './SettingsAliases.tsx';
import { NotificationTargets, targetRows, targetsPatch, type TargetRow } from './SettingsTargets.tsx';

type Config = NonNullable<ReturnType<typeof useConfig>['data']>;
type Kind = 'bool' | 'int' | 'text' | 'list' | 'select';
interface FieldSpec {
  path: string;
  label: string;
  kind: Kind;
  options?: readonly string[];
  hint?: string;
}

// The runtime keys, in the order a person reads them; TOML-only keys (api_key, allowed_roots,
// trusted_proxies, allow_private, transcoder.*) are shown on System, not offered here.
const SECTIONS: { title: string; fields: FieldSpec[] }[] = [
  {
    title: 'Scanner',
    fields: [
      { path: 'app.dry_run', label: 'Dry run: plan only, change no files', kind: 'bool' },
      { path: 'app.scan_interval_seconds', label: 'Scan interval (seconds, 0 = off)', kind: 'int' },
      { path: 'app.settle_seconds', label: 'Settle time (seconds)', kind: 'int' },
      { path: 'app.watch', label: 'Watch the downloads folder: pass once it settles', kind: 'bool' },
      { path: 'app.library_scan_max_files', label: 'Library scan: most files', kind: 'int' },
      { path: 'app.library_scan_timeout_seconds', label: 'Library scan: time limit (seconds)', kind: 'int' },
      { path: 'app.log_level', label: 'Log level', kind: 'select', options: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    ],
  },
  {
    title: 'Folders',
    fields: [
      { path: 'paths.downloads', label: 'Downloads folder', kind: 'text' },
      { path: 'paths.config', label: 'Config folder', kind: 'text' },
    ],
  },
  {
    title: 'Library',
    fields: [
      { path: 'library.movie_folders', label: 'Movie folders', kind: 'list', hint: 'Comma-separated folder names on each drive' },
      { path: 'library.tv_folders', label: 'TV folders', kind: 'list' },
      { path: 'library.video_extensions', label: 'Video extensions', kind: 'list' },
      { path: 'library.subtitle_extensions', label: 'Subtitle extensions', kind: 'list' },
      { path: 'library.movie_template', label: 'Movie name template', kind: 'text' },
      { path: 'library.episode_template', label: 'Episode name template', kind: 'text' },
      { path: 'library.sample_max_bytes', label: 'Samples: largest size (bytes)', kind: 'int' },
      { path: 'library.transfer', label: 'Import by', kind: 'select', options: ['move', 'hardlink', 'copy'] },
      {
        path: 'library.upgrades',
        label: 'Upgrades: a better release replaces the library file',
        kind: 'select',
        options: ['better', 'off'],
        hint: 'better: a download of higher quality replaces the file it upgrades (the old one goes to the recycle bin); off: it is skipped as exists',
      },
      { path: 'library.recycle_bin', label: 'Recycle bin: keep replaced or removed files in <drive>/.recycle', kind: 'bool' },
      { path: 'library.recycle_days', label: 'Recycle bin: days kept (0 = until the next daily purge)', kind: 'int' },
    ],
  },
  {
    title: 'Metadata',
    fields: [
      { path: 'metadata.read_nfo', label: 'Read .nfo files', kind: 'bool' },
      { path: 'metadata.include_specials', label: 'Report specials (season 0)', kind: 'bool' },
      {
        path: 'metadata.identify',
        label: 'Look up new series and absolute episode numbers on',
        kind: 'list',
        hint: 'Empty, or tvmaze (asks the TVmaze URL below, whether or not upcoming episodes are on)',
      },
    ],
  },
  {
    title: 'Release providers',
    fields: [
      { path: 'release_providers.tvmaze.enabled', label: 'Ask TVmaze for upcoming episodes', kind: 'bool' },
      { path: 'release_providers.tvmaze.url', label: 'TVmaze URL', kind: 'text' },
    ],
  },
  {
    title: 'Embedding',
    fields: [
      {
        path: 'app.frame_ancestors',
        label: 'Sites that may show these pages in a frame',
        kind: 'list',
        hint: "Comma-separated origins of your dashboards, like https://dash.example.com or http://192.168.1.5:8080 ('self' for this site); empty: none",
      },
    ],
  },
];

type Values = Record<string, unknown>;

function get(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

function set(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[keys.at(-1)!] = value;
}

function initialValues(config: Config): Values {
  const v: Values = {};
  for (const s of SECTIONS) for (const f of s.fields) v[f.path] = get(config, f.path);
  v['theme.css_file'] = config.theme.css_file;
  return v;
}

function coerce(spec: FieldSpec | undefined, raw: unknown): unknown {
  if (!spec) return raw;
  if (spec.kind === 'int' && typeof raw === 'string') return raw.trim() === '' || !/^-?\d+$/.test(raw.trim()) ? raw : Number(raw);
  if (spec.kind === 'list' && typeof raw === 'string')
    return raw
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  return raw;
}

const SPECS = new Map(SECTIONS.flatMap((s) => s.fields).map((f) => [f.path, f]));

/** Only what changed goes to the API, so a key the owner did not touch is never rewritten. */
function patchOf(
  before: Values,
  now: Values,
  drivesBefore: Drive[],
  drives: Drive[],
  targetsBefore: TargetRow[],
  targets: TargetRow[],
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(now)) {
    const v = coerce(SPECS.get(path), value);
    if (JSON.stringify(v) !== JSON.stringify(before[path])) set(patch, path, v);
  }
  if (JSON.stringify(drives) !== JSON.stringify(drivesBefore)) patch.drives = drives;
  if (JSON.stringify(targets) !== JSON.stringify(targetsBefore)) patch.notifications = { targets: targetsPatch(targets) };
  return patch;
}

type Drive = NonNullable<Schemas['SettingsPatch']['drives']>[number];

function Drives({ drives, setDrives, error }: { drives: Drive[]; setDrives: (d: Drive[]) => void; error: unknown }) {
  return (
    <fieldset>
      <legend>Drives</legend>
      {drives.map((d, i) => (
        <div key={i} className="drive-row">
          <Field
            label={`Drive ${i + 1} name`}
            path={`drives.${i}.name`}
            error={error}
            value={d.name}
            onChange={(e) => setDrives(drives.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
          />
          <Field
            label={`Drive ${i + 1} path`}
            path={`drives.${i}.path`}
            error={error}
            value={d.path}
            onChange={(e) => setDrives(drives.map((x, j) => (j === i ? { ...x, path: e.target.value } : x)))}
          />
          <button type="button" className="danger" onClick={() => setDrives(drives.filter((_, j) => j !== i))}>
            Remove drive {i + 1}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => setDrives([...drives, { name: '', path: '' }])}>
        Add drive
      </button>
    </fieldset>
  );
}

function SettingsForm({ config }: { config: Config }) {
  const queries = useQueryClient();
  const [values, setValues] = useState<Values>(() => initialValues(config));
  const [drives, setDrives] = useState<Drive[]>(() => config.drives.map((d) => ({ name: d.name, path: d.path })));
  const [targets, setTargets] = useState<TargetRow[]>(() => targetRows(config.notifications.targets));
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setValues(initialValues(config));
    setDrives(config.drives.map((d) => ({ name: d.name, path: d.path })));
    setTargets(targetRows(config.notifications.targets));
  }, [config]);
  const save = useMutation({
    mutationFn: (patch: Record<string, unknown>) => unwrap(api.POST('/api/settings', { body: patch as never })),
    onSuccess: async () => {
      setSaved(true);
      await queries.invalidateQueries({ queryKey: queryKeys.config() });
      void queries.invalidateQueries({ queryKey: queryKeys.dashboard() });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const patch = patchOf(
      initialValues(config),
      values,
      config.drives.map((d) => ({ name: d.name, path: d.path })),
      drives,
      targetRows(config.notifications.targets),
      targets,
    );
    if (Object.keys(patch).length === 0) {
      // Nothing to send is saved as it stands: the last refusal no longer applies.
      save.reset();
      setSaved(true);
      return;
    }
    save.mutate(patch);
  };
  const change = (path: string, v: unknown) => {
    setSaved(false);
    setValues((old) => ({ ...old, [path]: v }));
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Settings">
      <p className={`dry-run-note ${values['app.dry_run'] ? 'on' : 'off'}`} role="note">
        {values['app.dry_run'] ? 'Dry run is on: passes only plan, nothing on disk changes.' : 'Dry run is off: passes move files and tools change them.'}
      </p>
      {SECTIONS.map((s) => (
        <fieldset key={s.title}>
          <legend>{s.title}</legend>
          {s.fields.map((f) => {
            const v = values[f.path];
            if (f.kind === 'select')
              return (
                <SelectField
                  key={f.path}
                  label={f.label}
                  path={f.path}
                  options={f.options!}
                  value={String(v)}
                  error={save.error}
                  onChange={(x) => change(f.path, x)}
                />
              );
            if (f.kind === 'bool')
              return (
                <Field
                  key={f.path}
                  label={f.label}
                  path={f.path}
                  error={save.error}
                  type="checkbox"
                  checked={v === true}
                  onChange={(e) => change(f.path, e.target.checked)}
                />
              );
            return (
              <Field
                key={f.path}
                label={f.label}
                path={f.path}
                error={save.error}
                hint={f.hint}
                inputMode={f.kind === 'int' ? 'numeric' : undefined}
                value={Array.isArray(v) ? v.join(', ') : String(v ?? '')}
                onChange={(e) => change(f.path, e.target.value)}
              />
            );
          })}
        </fieldset>
      ))}
      <Drives drives={drives} setDrives={(d) => (setSaved(false), setDrives(d))} error={save.error} />
      <NotificationTargets
        rows={targets}
        setRows={(t) => (setSaved(false), setTargets(t))}
        error={save.error}
        saved={targetRows(config.notifications.targets)}
      />
      <ThemePart value={String(values['theme.css_file'] ?? '')} error={save.error} onChange={(v) => change('theme.css_file', v)} />
      <ErrorNote error={save.error} />
      {saved ? <p role="status">Saved.</p> : null}
      <button type="submit" disabled={save.isPending}>
        Save settings
      </button>
    </form>
  );
}

function ThemePart({ value, error, onChange }: { value: string; error: unknown; onChange: (v: string) => void }) {
  const css = useQuery({
    queryKey: queryKeys.themeCss(),
    queryFn: async () => {
      const res = await fetch('api/theme/custom.css');
      return res.ok ? res.text() : '';
    },
  });
  const active = ownerStylesheetActive();
  return (
    <fieldset className="theme">
      <legend>Theme</legend>
      <Field label="Stylesheet file (inside the config folder)" path="theme.css_file" error={error} value={value} onChange={(e) => onChange(e.target.value)} />
      <p>
        {active
          ? 'The custom stylesheet is in use on this page.'
          : 'The custom stylesheet is off for this visit (?nocss=1); open the page with ?nocss=0 to turn it back on.'}{' '}
        <a href="api/theme/custom.css">Open it</a>. The service never edits it: change the file on the host.
      </p>
      {css.data ? (
        <pre className="css-preview" aria-label="Custom stylesheet">
          <code>{css.data}</code>
        </pre>
      ) : (
        <p className="muted">The file is empty or missing.</p>
      )}
    </fieldset>
  );
}

function Account() {
  const [password, setPassword] = useState('');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const key = useMutation({ mutationFn: (regenerate: boolean) => unwrap(api.POST('/api/auth/api-key', { body: { password, regenerate } })) });
  const change = useMutation({ mutationFn: () => unwrap(api.POST('/api/auth/password', { body: { current_password: current, new_password: next } })) });
  const status = useQuery({ queryKey: queryKeys.auth(), queryFn: () => unwrap(api.GET('/api/auth/status')) });
  return (
    <section aria-labelledby="account-h" className="account">
      <h2 id="account-h">Account and API key</h2>
      {status.data?.auth === 'local_open' ? (
        <p className="warning" role="note">
          app.auth is "local_open": requests from this computer need no login. Set app.auth = "required" in the config file to close it.
        </p>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          key.mutate(false);
        }}
        aria-label="API key"
      >
        <p>Scripts use the API key in an X-Api-Key header. Your password is asked again to show or replace it.</p>
        <Field
          label="Password"
          path="password"
          error={key.error}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
        <button type="submit" disabled={key.isPending}>
          Show API key
        </button>{' '}
        <button
          type="button"
          className="danger"
          disabled={key.isPending}
          onClick={() => {
            if (confirm('Scripts using the old key will stop working. Regenerate the API key?')) key.mutate(true);
          }}
        >
          Regenerate API key
        </button>
        <ErrorNote error={key.error} />
        {key.data ? (
          <p>
            API key ({key.data.source === 'config' ? 'set in the config file' : 'generated'}): <code data-testid="api-key">{key.data.api_key}</code>
          </p>
        ) : null}
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate();
        }}
        aria-label="Change password"
      >
        <Field
          label="Current password"
          path="current_password"
          error={change.error}
          type="password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          autoComplete="current-password"
        />
        <Field
          label="New password"
          path="new_password"
          error={change.error}
          type="password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          autoComplete="new-password"
        />
        <button type="submit" disabled={change.isPending}>
          Change password
        </button>
        <ErrorNote error={change.error} />
        {change.isSuccess ? <p role="status">Password changed; every other session has ended.</p> : null}
      </form>
    </section>
  );
}

export function SettingsPage() {
  const config = useConfig();
  return (
    <Page id="settings" title="Settings">
      {config.isPending ? <Loading what="settings" /> : null}
      <ErrorNote error={config.error} />
      {config.data ? <SettingsForm config={config.data} /> : null}
      {config.data ? <Aliases /> : null}
      <Account />
      <OpenSessions />
    </Page>
  );
}
