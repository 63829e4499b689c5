import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@mo/api-client';
import { api, ApiError, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { replaceQuestion } from '../components/confirm-text.ts';
import { Field, SelectField } from '../components/form.tsx';
import { episodeCode, qualityLabel } from '../components/format.ts';

type Candidate = Schemas['Candidate'];
type Kind = 'movie' | 'episode';

/** The skip reasons `Import as…` settles (CONTRACT.md); the others settle themselves. */
export const SETTLEABLE = new Set(['unrecognized', 'ambiguous', 'exists', 'undone']);

interface Form {
  kind: Kind;
  title: string;
  year: string;
  season: string;
  episodes: string;
  air_date: string;
  remember: boolean;
  /** An `exists` skip only: the library's file goes to the recycle bin and the download takes its place. */
  replace: boolean;
}

/**
 * The download's own reading (GET /api/downloads' `media`) as the dialog's first reading, for a
 * skip that carries no candidates (an `exists`: the name was read, only its place was taken).
 */
export function readingOf(media: Schemas['DownloadFile']['media']): Candidate[] {
  if (!media) return [];
  const { kind, title, year, season, episodes, air_date, quality } = media;
  return [{ kind, title, year, season, episodes: episodes ?? [], absolute_episodes: [], air_date, folder: null, destination: null, quality }];
}

/** A library folder's title as it is spelled (`Doctor Who (2005)`), so the import goes into that folder. */
function formOf(c: Candidate | undefined, remember: boolean, replace = false): Form {
  if (!c) return { kind: 'episode', title: '', year: '', season: '', episodes: '', air_date: '', remember, replace };
  return {
    kind: c.kind,
    title: c.title,
    year: c.year === null ? '' : String(c.year),
    season: c.season === null ? '' : String(c.season),
    episodes: c.episodes.join(', '),
    air_date: c.air_date ?? '',
    remember,
    replace,
  };
}

/** A number where one was typed; anything else as typed, so the API's 400 names the field and says why. */
function numberOr(raw: string): number | string {
  const t = raw.trim();
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

function asOf(f: Form): Record<string, unknown> {
  if (f.kind === 'movie') return { kind: 'movie', title: f.title, year: numberOr(f.year) };
  const as: Record<string, unknown> = { kind: 'episode', title: f.title };
  if (f.year.trim() !== '') as.year = numberOr(f.year);
  if (f.air_date.trim() !== '' && f.season.trim() === '') return { ...as, air_date: f.air_date.trim() };
  as.season = numberOr(f.season);
  as.episodes =
    f.episodes.trim() === ''
      ? []
      : f.episodes
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(numberOr);
  return as;
}

function describe(c: Candidate): string {
  const year = c.year === null ? '' : ` (${c.year})`;
  const what = c.kind === 'movie' ? `${c.title}${year}` : `${c.title}${year} ${c.air_date ?? episodeCode(c.season, c.episodes)}`;
  return c.folder ? `${what}, into ${c.folder}` : `${what}, a new folder`;
}

type Answer = Awaited<ReturnType<typeof send>>;

function send(path: string, f: Form, preview: boolean) {
  return unwrap(
    api.POST('/api/imports/manual', {
      params: { query: preview ? { dry_run: 'true' } : { wait: 60 } },
      body: { path, as: asOf(f) as Schemas['ManualImportAs'], remember: f.kind === 'episode' && f.remember, replace: f.replace },
    }),
  );
}

/** The held file a previewed replacement names, if the preview was asked for. */
function heldOf(answer: Answer | undefined): string | null {
  if (!answer || 'job' in answer || 'moves' in answer) return null;
  const plans = 'plan' in answer ? [answer.plan] : answer.plans;
  return plans.find((p) => p.replaces)?.replaces?.path ?? null;
}

function Outcome({ answer, asked }: { answer: Answer; asked: 'preview' | 'import' }) {
  if ('job' in answer) return <p role="status">The import was queued; it shows under Activity once it has run.</p>;
  if ('moves' in answer) {
    return (
      <div role="status">
        {answer.moves.map((m) => (
          <p key={m.source}>
            {m.status === 'moved' ? 'Imported to ' : 'Could not import to '}
            <span className="path">{m.destination}</span>
            {m.error ? `: ${m.error}` : '.'}
          </p>
        ))}
        {answer.remembered.map((a) => (
          <p key={a.name}>
            From now on “{a.name}” goes to {a.series}.
          </p>
        ))}
      </div>
    );
  }
  const plans = 'plan' in answer ? [answer.plan] : answer.plans;
  return (
    <div role="status" className="preview">
      <p>{asked === 'import' ? 'Dry run is on, so nothing was imported. It would go to:' : 'It would go to:'}</p>
      <ul>
        {plans.map((p) => (
          <li key={p.source}>
            <span className="path" data-testid="destination">
              {p.destination}
            </span>
            {p.sidecars.length > 0 ? <span className="muted"> with {p.sidecars.length === 1 ? 'its sidecar' : `${p.sidecars.length} sidecars`}</span> : null}
            {p.replaces ? (
              <span className="warning" data-testid="replace-note">
                , replacing <span className="path">{p.replaces.path}</span> ({qualityLabel(p.replaces.quality) ?? 'quality unknown'}), which goes to the recycle
                bin first; Library → Recycle bin can put it back
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {answer.skipped.length > 0 ? (
        <p className="muted">Left behind: {answer.skipped.map((s) => `${s.source}${s.detail ? ` (${s.detail})` : ''}`).join('; ')}</p>
      ) : null}
    </div>
  );
}

const LABELS: Record<string, string> = {
  'as.kind': 'Kind',
  'as.title': 'Title',
  'as.year': 'Year',
  'as.season': 'Season',
  'as.episodes': 'Episodes',
  'as.air_date': 'Air date',
  remember: 'Remember',
  replace: 'Replace',
};

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/** The API's message as a sentence, naming the field by its label; the field itself is marked too. */
function problem(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const issue = error.issues[0];
  const label = issue ? LABELS[issue.path] : undefined;
  if (issue && label) return sentence(`${label}: ${issue.message}`);
  return sentence(error.message.replace(/^[a-z_.]+: /, ''));
}

function ImportDialog({ path, candidates, reason, onClose }: { path: string; candidates: Candidate[]; reason?: string; onClose: () => void }) {
  const queries = useQueryClient();
  const titleId = useId();
  const [picked, setPicked] = useState(0);
  const [form, setForm] = useState<Form>(() => formOf(candidates[0], false));
  const first = useRef<HTMLDivElement>(null);
  const preview = useMutation({ mutationFn: () => send(path, form, true) });
  const run = useMutation({
    mutationFn: () => send(path, form, false),
    onSuccess: async () => {
      for (const key of [queryKeys.downloads(), queryKeys.importsPending(), queryKeys.history(), queryKeys.config()])
        await queries.invalidateQueries({ queryKey: key });
    },
  });
  useEffect(() => {
    first.current?.querySelector<HTMLElement>('select, input')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const change = (patch: Partial<Form>) => {
    preview.reset();
    run.reset();
    setForm((f) => ({ ...f, ...patch }));
  };
  const [askingReplace, setAskingReplace] = useState(false);
  const error = run.error ?? preview.error;
  const busy = preview.isPending || run.isPending;
  const episode = form.kind === 'episode';
  return (
    <div className="dialog-backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} className="dialog" ref={first}>
        <h2 id={titleId}>Import as…</h2>
        <p className="path">{path}</p>
        <form
          noValidate
          aria-label="Import as"
          onSubmit={(e) => {
            e.preventDefault();
            // Replacing sends a library file to the recycle bin: asked first.
            if (form.replace) setAskingReplace(true);
            else run.mutate();
          }}
        >
          {askingReplace ? (
            <ConfirmDialog
              question={replaceQuestion(path, heldOf(preview.data))}
              onCancel={() => setAskingReplace(false)}
              onConfirm={() => {
                setAskingReplace(false);
                run.mutate();
              }}
            />
          ) : null}
          {candidates.length > 1 ? (
            <div className="field">
              <label htmlFor={`${titleId}-reading`}>Reading</label>
              <select
                id={`${titleId}-reading`}
                value={picked}
                onChange={(e) => {
                  const i = Number(e.target.value);
                  setPicked(i);
                  change(formOf(candidates[i], form.remember, form.replace));
                }}
              >
                {candidates.map((c, i) => (
                  <option key={i} value={i}>
                    {describe(c)}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <SelectField
            label="Kind"
            path="as.kind"
            options={['episode', 'movie'] as const}
            value={form.kind}
            error={error}
            onChange={(kind) => change({ kind })}
          />
          <Field
            label="Title"
            path="as.title"
            error={error}
            value={form.title}
            onChange={(e) => change({ title: e.target.value })}
            hint="A library folder's name as it is spelled, year included, puts it in that folder"
          />
          <Field label="Year" path="as.year" error={error} inputMode="numeric" value={form.year} onChange={(e) => change({ year: e.target.value })} />
          {episode ? (
            <>
              <Field
                label="Season"
                path="as.season"
                error={error}
                inputMode="numeric"
                value={form.season}
                onChange={(e) => change({ season: e.target.value })}
              />
              <Field
                label="Episodes"
                path="as.episodes"
                error={error}
                value={form.episodes}
                onChange={(e) => change({ episodes: e.target.value })}
                hint="One or more, e.g. 1, 2"
              />
              <Field
                label="Air date"
                path="as.air_date"
                error={error}
                value={form.air_date}
                onChange={(e) => change({ air_date: e.target.value })}
                hint="Daily shows only, as YYYY-MM-DD, with Season left empty"
              />
              <Field
                label="Remember"
                path="remember"
                error={error}
                type="checkbox"
                checked={form.remember}
                onChange={(e) => change({ remember: e.target.checked })}
                hint="Later downloads of this series name go to this series by themselves"
              />
            </>
          ) : null}
          {reason === 'exists' ? (
            <Field
              label="Replace"
              path="replace"
              error={error}
              type="checkbox"
              checked={form.replace}
              onChange={(e) => change({ replace: e.target.checked })}
              hint="The library holds this already: its file goes to the recycle bin and this download takes its place"
            />
          ) : null}
          {error ? (
            <p className="error" role="alert">
              {problem(error)}
            </p>
          ) : null}
          {preview.data && !run.data ? <Outcome answer={preview.data} asked="preview" /> : null}
          {run.data ? <Outcome answer={run.data} asked="import" /> : null}
          <div className="actions">
            <button type="button" onClick={() => preview.mutate()} disabled={busy}>
              Preview
            </button>
            <button type="submit" disabled={busy || run.isSuccess}>
              Import
            </button>
            <button type="button" className="link" onClick={onClose}>
              {run.isSuccess ? 'Close' : 'Cancel'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

interface Opened {
  path: string;
  candidates: Candidate[];
  /** Why the download was skipped: `exists` offers Replace. */
  reason?: string;
  opener: HTMLElement | null;
}

const OpenDialog = createContext<(o: Opened) => void>(() => {});

/**
 * Holds the dialog above the rows that open it: an import takes its row off the list (the pending
 * list and the pass result are fetched again), and the dialog must stay to show what happened.
 */
export function ImportAsHost({ children }: { children: ReactNode }) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const close = useCallback(() => {
    setOpened((o) => {
      if (o?.opener?.isConnected) o.opener.focus();
      return null;
    });
  }, []);
  return (
    <OpenDialog.Provider value={setOpened}>
      {children}
      {opened ? <ImportDialog key={opened.path} path={opened.path} candidates={opened.candidates} reason={opened.reason} onClose={close} /> : null}
    </OpenDialog.Provider>
  );
}

/** `Import as…` for one skipped download: the dialog opens pre-filled with the best reading. */
export function ImportAsButton({ path, candidates, reason }: { path: string; candidates: Candidate[]; reason?: string }) {
  const open = useContext(OpenDialog);
  return (
    <button type="button" onClick={(e) => open({ path, candidates, reason, opener: e.currentTarget })} aria-haspopup="dialog">
      Import as… <span className="sr-only">{path}</span>
    </button>
  );
}
