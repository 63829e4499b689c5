import { useDeferredValue, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Schemas } from '@mo/api-client';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { episodeCode, formatBytes } from '../components/format.ts';
import { NotScanned } from '../components/not-scanned.tsx';
import { Empty, ErrorNote, Loading, Page, When } from '../components/ui.tsx';
import { MISSING_CHOICES, PAGE_SIZE, pageQuery, shownRange, SORTS, toldApart, type LibraryFilter, type Missing, type SortChoice } from './library-rows.ts';

type Library = Schemas['Library'];

interface Row {
  key: string;
  title: string;
  folder: string;
  drive: string;
  bytes: number;
  detail: string;
  picture: boolean;
  added: string | null;
}

const MISSING_WORDS: Record<Missing, string> = { picture: 'no picture', subtitles: 'no subtitles', episodes: 'episodes missing' };

function lacks(missing: readonly Missing[] | undefined): string {
  return missing && missing.length > 0 ? ` · ${missing.map((m) => MISSING_WORDS[m]).join(', ')}` : '';
}

function rowsOf(data: Library, tab: LibraryFilter['tab']): Row[] {
  if (tab === 'movies') {
    return toldApart(
      data.movies.map((m) => ({
        key: m.folder,
        title: m.year ? `${m.title} (${m.year})` : m.title,
        folder: m.folder,
        drive: m.drive,
        bytes: m.bytes,
        detail: `${m.files} file${m.files === 1 ? '' : 's'}${lacks(m.missing)}`,
        picture: m.picture === true,
        added: m.added ?? null,
      })),
    );
  }
  return toldApart(
    data.series.map((s) => ({
      key: s.folder,
      title: s.title,
      folder: s.folder,
      drive: s.drive,
      bytes: s.bytes,
      detail: `${s.seasons.length} season${s.seasons.length === 1 ? '' : 's'}, ${s.episode_count} episode${s.episode_count === 1 ? '' : 's'}${lacks(s.missing)}`,
      picture: s.picture === true,
      added: s.added ?? null,
    })),
  );
}

export function FolderFiles({ folder }: { folder: string }) {
  const files = useQuery({
    queryKey: queryKeys.library.files(folder),
    queryFn: () => unwrap(api.GET('/api/library/files', { params: { query: { folder } } })),
  });
  if (files.isPending) return <Loading what="files" />;
  if (files.isError) return <ErrorNote error={files.error} />;
  return (
    <ul className="files">
      {files.data.files.map((f) => (
        <li key={f.path}>
          {f.type === 'video' ? (
            <Link href={`/library/file?path=${encodeURIComponent(f.path)}`}>{f.path.slice(folder.length + 1) || f.path}</Link>
          ) : (
            <span>{f.path.slice(folder.length + 1)}</span>
          )}{' '}
          <span className="muted">
            {f.season !== null || f.episodes.length > 0 ? `${episodeCode(f.season, f.episodes)} · ` : ''}
            {formatBytes(f.bytes)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A relative URL, so it follows the page's <base> behind a proxy prefix like every API call. */
const pictureUrl = (folder: string) => `api/library/picture?folder=${encodeURIComponent(folder)}`;

function Rows({ rows, label }: { rows: Row[]; label: string }) {
  const [open, setOpen] = useState<string | null>(null);
  if (rows.length === 0) return <Empty>Nothing matches.</Empty>;
  return (
    <ul className="library-list" aria-label={label}>
      {rows.map((r) => (
        <li key={r.key} className="row">
          <button type="button" className="row-head library-row" aria-expanded={open === r.key} onClick={() => setOpen(open === r.key ? null : r.key)}>
            {r.picture ? (
              <img className="library-thumb" src={pictureUrl(r.folder)} alt="" loading="lazy" decoding="async" />
            ) : (
              <span className="library-thumb" />
            )}
            <span className="title">{r.title}</span>
            <span className="muted">{r.detail}</span>
            <span className="muted">{r.drive}</span>
            <span className="num">{formatBytes(r.bytes)}</span>
          </button>
          {open === r.key ? <FolderFiles folder={r.folder} /> : null}
        </li>
      ))}
    </ul>
  );
}

export function LibraryPage() {
  const queries = useQueryClient();
  const scan = useMutation({
    mutationFn: () => unwrap(api.POST('/api/library/scan', { params: { query: { wait: 120 } } })),
    onSettled: () => queries.invalidateQueries({ queryKey: queryKeys.library.all() }),
  });
  const [filter, setFilter] = useState<LibraryFilter>({ tab: 'movies', text: '', drive: '', missing: '', sort: 'title:asc', offset: 0 });
  // Any change but a page turn starts again at the first page.
  const change = (to: Partial<Omit<LibraryFilter, 'offset'>>) => setFilter((f) => ({ ...f, ...to, offset: 0 }));
  const query = pageQuery(useDeferredValue(filter));
  const library = useQuery({
    queryKey: queryKeys.library.page(JSON.stringify(query)),
    queryFn: () => unwrap(api.GET('/api/library', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const data = library.data;
  const total = data?.page?.total ?? { movies: 0, series: 0 };
  const rows = data ? rowsOf(data, filter.tab) : [];
  const matching = total[filter.tab];
  // One page of answers needs no paging buttons; an offset past the first page always keeps them.
  const paged = matching > PAGE_SIZE || filter.offset > 0;

  return (
    <Page
      id="library"
      title="Library"
      actions={
        <>
          <Link href="/library/organize">Organize</Link>
          <Link href="/library/recycle">Recycle bin</Link>
          <button type="button" onClick={() => scan.mutate()} disabled={scan.isPending}>
            Scan library
          </button>
        </>
      }
    >
      <ErrorNote error={scan.error} />
      {scan.isPending ? <p role="status">Scanning the library…</p> : null}
      {library.isPending ? <Loading what="the library" /> : null}
      <ErrorNote error={library.error} />
      {data?.summary.scanned_at === null ? (
        <NotScanned what="Its movies and series show here once Scan library has read the drives." offerScan={false} />
      ) : null}
      {data?.summary.scanned_at ? (
        <>
          <p className="summary" data-testid="library-summary">
            {data.summary.files.toLocaleString()} files, {formatBytes(data.summary.bytes)}: {data.summary.movies.toLocaleString()} movies,{' '}
            {data.summary.series.toLocaleString()} series, {data.summary.episodes.toLocaleString()} episodes. Scanned <When at={data.summary.scanned_at} />
            {data.summary.truncated ? ' (stopped at the file limit)' : ''}
            {data.summary.timed_out ? ' (stopped at the time limit)' : ''}.
          </p>
          <div className="toolbar library-toolbar" role="group" aria-label="Filter">
            <div className="tabs" role="tablist" aria-label="Kind">
              {(['movies', 'series'] as const).map((t) => (
                <button key={t} type="button" role="tab" aria-selected={filter.tab === t} onClick={() => change({ tab: t })}>
                  {t === 'movies' ? `Movies (${total.movies.toLocaleString()})` : `Series (${total.series.toLocaleString()})`}
                </button>
              ))}
            </div>
            <label>
              Search <input type="search" value={filter.text} onChange={(e) => change({ text: e.target.value })} />
            </label>
            <label>
              Drive{' '}
              <select value={filter.drive} onChange={(e) => change({ drive: e.target.value })}>
                <option value="">All drives</option>
                {(data.page?.drives ?? []).map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
            </label>
            <label>
              Missing{' '}
              <select value={filter.missing} onChange={(e) => change({ missing: e.target.value as Missing | '' })}>
                {MISSING_CHOICES.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Sort{' '}
              <select value={filter.sort} onChange={(e) => change({ sort: e.target.value as SortChoice })}>
                {SORTS.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <Rows rows={rows} label={filter.tab === 'movies' ? 'Movies' : 'Series'} />
          <nav className="library-pager" aria-label="Pages of the library">
            {paged ? (
              <button type="button" disabled={filter.offset === 0} onClick={() => setFilter((f) => ({ ...f, offset: Math.max(0, f.offset - PAGE_SIZE) }))}>
                Previous
              </button>
            ) : null}
            <span className="muted" role="status">
              {shownRange(data.page?.offset ?? 0, rows.length, matching)}
            </span>
            {paged ? (
              <button type="button" disabled={filter.offset + PAGE_SIZE >= matching} onClick={() => setFilter((f) => ({ ...f, offset: f.offset + PAGE_SIZE }))}>
                Next
              </button>
            ) : null}
          </nav>
        </>
      ) : null}
    </Page>
  );
}
