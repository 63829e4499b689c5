import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link } from 'wouter';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { episodeCode, formatBytes } from '../components/format.ts';
import { NotScanned } from '../components/not-scanned.tsx';
import { Empty, ErrorNote, Loading, Page, When } from '../components/ui.tsx';
import { toldApart } from './library-rows.ts';

interface Row {
  key: string;
  title: string;
  folder: string;
  drive: string;
  bytes: number;
  files: number;
  detail: string;
  search: string;
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

const ROW_HEIGHT = 44;

/** Only the rows in view are in the page, so a 100,000-file library scrolls like a small one. */
function VirtualRows({ rows, label }: { rows: Row[]; label: string }) {
  const parent = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<string | null>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  if (rows.length === 0) return <Empty>Nothing matches.</Empty>;
  return (
    <div ref={parent} className="virtual" role="list" aria-label={label} tabIndex={0}>
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((v) => {
          const r = rows[v.index]!;
          return (
            <div
              key={r.key}
              role="listitem"
              data-index={v.index}
              ref={virtual.measureElement}
              className="row"
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
            >
              <button type="button" className="row-head" aria-expanded={open === r.key} onClick={() => setOpen(open === r.key ? null : r.key)}>
                <span className="title">{r.title}</span>
                <span className="muted">{r.detail}</span>
                <span className="muted">{r.drive}</span>
                <span className="num">{formatBytes(r.bytes)}</span>
              </button>
              {open === r.key ? <FolderFiles folder={r.folder} /> : null}
            </div>
          );
        })}
      </div>
    </div>
  );
}

export function LibraryPage() {
  const queries = useQueryClient();
  const library = useQuery({ queryKey: queryKeys.library.all(), queryFn: () => unwrap(api.GET('/api/library')) });
  const scan = useMutation({
    mutationFn: () => unwrap(api.POST('/api/library/scan', { params: { query: { wait: 120 } } })),
    onSettled: () => queries.invalidateQueries({ queryKey: queryKeys.library.all() }),
  });
  const [tab, setTab] = useState<'movies' | 'series'>('movies');
  const [text, setText] = useState('');
  const [drive, setDrive] = useState('');
  const query = useDeferredValue(text.trim().toLowerCase());

  const rows = useMemo(() => {
    const data = library.data;
    if (!data) return { movies: [] as Row[], series: [] as Row[] };
    return {
      movies: toldApart(
        data.movies.map((m) => ({
          key: m.folder,
          title: m.year ? `${m.title} (${m.year})` : m.title,
          folder: m.folder,
          drive: m.drive,
          bytes: m.bytes,
          files: m.files,
          detail: `${m.files} file${m.files === 1 ? '' : 's'}`,
          search: `${m.title} ${m.year ?? ''}`.toLowerCase(),
        })),
      ),
      series: toldApart(
        data.series.map((s) => ({
          key: s.folder,
          title: s.title,
          folder: s.folder,
          drive: s.drive,
          bytes: s.bytes,
          files: s.files,
          detail: `${s.seasons.length} season${s.seasons.length === 1 ? '' : 's'}, ${s.episode_count} episode${s.episode_count === 1 ? '' : 's'}`,
          search: s.title.toLowerCase(),
        })),
      ),
    };
  }, [library.data]);

  const shown = useMemo(() => rows[tab].filter((r) => (!drive || r.drive === drive) && (!query || r.search.includes(query))), [rows, tab, drive, query]);
  const drives = useMemo(() => [...new Set([...rows.movies, ...rows.series].map((r) => r.drive))].sort(), [rows]);

  return (
    <Page
      id="library"
      title="Library"
      actions={
        <button type="button" onClick={() => scan.mutate()} disabled={scan.isPending}>
          Scan library
        </button>
      }
    >
      <ErrorNote error={scan.error} />
      {scan.isPending ? <p role="status">Scanning the library…</p> : null}
      {library.isPending ? <Loading what="the library" /> : null}
      <ErrorNote error={library.error} />
      {library.data?.summary.scanned_at === null ? (
        <NotScanned what="Its movies and series show here once Scan library has read the drives." offerScan={false} />
      ) : null}
      {library.data?.summary.scanned_at ? (
        <>
          <p className="summary" data-testid="library-summary">
            {library.data.summary.files.toLocaleString()} files, {formatBytes(library.data.summary.bytes)}: {library.data.summary.movies.toLocaleString()}{' '}
            movies, {library.data.summary.series.toLocaleString()} series, {library.data.summary.episodes.toLocaleString()} episodes. Scanned{' '}
            <When at={library.data.summary.scanned_at} />
            {library.data.summary.truncated ? ' (stopped at the file limit)' : ''}
            {library.data.summary.timed_out ? ' (stopped at the time limit)' : ''}.
          </p>
          <div className="toolbar" role="group" aria-label="Filter">
            <div className="tabs" role="tablist" aria-label="Kind">
              {(['movies', 'series'] as const).map((t) => (
                <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
                  {t === 'movies' ? `Movies (${rows.movies.length})` : `Series (${rows.series.length})`}
                </button>
              ))}
            </div>
            <label>
              Search <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
            </label>
            <label>
              Drive{' '}
              <select value={drive} onChange={(e) => setDrive(e.target.value)}>
                <option value="">All drives</option>
                {drives.map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
            </label>
            <span className="muted" role="status">
              {shown.length.toLocaleString()} shown
            </span>
          </div>
          <VirtualRows rows={shown} label={tab === 'movies' ? 'Movies' : 'Series'} />
        </>
      ) : null}
    </Page>
  );
}
