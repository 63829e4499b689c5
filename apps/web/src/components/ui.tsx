import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';

export function Page({ id, title, actions, children }: { id: string; title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.page = id;
    document.title = `${title} · media-organizer`;
  }, [id, title]);
  return (
    <main className="page" data-page={id} id="main">
      <header className="page-head">
        <h1>{title}</h1>
        {actions ? <div className="actions">{actions}</div> : null}
      </header>
      {children}
    </main>
  );
}

/**
 * What went wrong, in the API's words: each refused field's sentence where the answer has them (a
 * settings refusal), else its message. The error code is for scripts, not shown.
 */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const sentences = error instanceof ApiError ? error.issues.flatMap((i) => (i.sentence ? [i.sentence] : [])) : [];
  if (sentences.length > 0)
    return (
      <div className="error" role="alert">
        <p>{sentences.length === 1 ? 'Not saved: one field needs a change.' : `Not saved: ${sentences.length} fields need a change.`}</p>
        <ul>
          {sentences.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </div>
    );
  const text = error instanceof Error ? error.message : String(error);
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function Status({ status }: { status: string }) {
  return (
    <span className={`status status-${status}`} data-status={status}>
      {status}
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty muted">{children}</p>;
}

export function useConfig() {
  return useQuery({ queryKey: queryKeys.config(), queryFn: () => unwrap(api.GET('/api/config')) });
}

/** Whether writes are only planned: shown wherever a button could move or change files. */
export function DryRunBadge() {
  const config = useConfig();
  if (!config.data) return null;
  return config.data.app.dry_run ? (
    <span className="badge badge-dry-run" title="Nothing on disk changes while dry run is on; turn it off in Settings">
      Dry run
    </span>
  ) : (
    <span className="badge badge-live">Live: changes files</span>
  );
}

export function When({ at }: { at: string | null | undefined }) {
  return <time dateTime={at ?? undefined}>{at ? new Date(at).toLocaleString() : 'never'}</time>;
}

const PAGE_ROWS = 200;

/**
 * Long reports (tens of thousands of rows at 100,000 files) render a page of rows at a time,
 * filtered by text first: the whole list in the DOM takes seconds to lay out.
 */
export function useRowWindow<T>(rows: readonly T[], text: (row: T) => string) {
  const [query, setQuery] = useState('');
  const [limit, setLimit] = useState(PAGE_ROWS);
  const q = query.trim().toLowerCase();
  const matching = useMemo(() => (q ? rows.filter((r) => text(r).toLowerCase().includes(q)) : rows), [rows, q, text]);
  const controls = (
    <div className="toolbar">
      <label>
        Filter <input type="search" value={query} onChange={(e) => (setQuery(e.target.value), setLimit(PAGE_ROWS))} />
      </label>
      <span className="muted">
        {Math.min(limit, matching.length).toLocaleString()} of {matching.length.toLocaleString()} shown
      </span>
    </div>
  );
  const more =
    matching.length > limit ? (
      <button type="button" onClick={() => setLimit(limit + PAGE_ROWS)}>
        Show {Math.min(PAGE_ROWS, matching.length - limit)} more
      </button>
    ) : null;
  return { shown: matching.slice(0, limit), controls, more };
}
