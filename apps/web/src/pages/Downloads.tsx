import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { episodeCode, formatBytes } from '../components/format.ts';
import { PathText } from '../components/path-text.tsx';
import { DryRunBadge, Empty, ErrorNote, Loading, Page, Status, useConfig, When } from '../components/ui.tsx';
import { ImportAsButton, ImportAsHost, SETTLEABLE } from './ImportAs.tsx';

type ScanResult = Awaited<ReturnType<typeof runScan>>;

function runScan() {
  return unwrap(api.POST('/api/scan', { params: { query: { wait: 120 } } }));
}

function whatItIs(
  m: {
    kind: string;
    title: string;
    year: number | null;
    season: number | null;
    episodes: number[] | null;
    air_date: string | null;
    country?: string | null;
  } | null,
) {
  if (!m) return <span className="muted">unrecognized</span>;
  const title = m.country ? `${m.title} (${m.country})` : m.title;
  if (m.kind === 'movie') return `${title}${m.year ? ` (${m.year})` : ''}`;
  return `${title} ${m.air_date ?? episodeCode(m.season, m.episodes)}`;
}

/** Only a video can be imported as something; its subtitles and .nfo go with it. */
function useIsVideo() {
  const config = useConfig();
  const extensions = config.data?.library.video_extensions ?? [];
  return (path: string) => extensions.some((ext) => path.toLowerCase().endsWith(ext));
}

function PassResult({ result }: { result: ScanResult }) {
  const isVideo = useIsVideo();
  if (!('plans' in result)) {
    return <p role="status">The pass was queued; its result will appear under Activity.</p>;
  }
  return (
    <section aria-labelledby="pass-h" className="pass-result">
      <h2 id="pass-h">{result.dry_run ? 'Plan (dry run: nothing moved)' : 'Pass result'}</h2>
      {result.plans.length + result.moves.length + result.skipped.length === 0 ? <Empty>Nothing to do.</Empty> : null}
      {(result.dry_run ? result.plans : result.moves).length > 0 ? (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Destination</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {(result.dry_run ? result.plans.map((p) => ({ ...p, status: 'planned' as string, error: undefined as string | undefined })) : result.moves).map(
              (p) => (
                <tr key={p.source}>
                  <td className="path">
                    <PathText path={p.source} />
                  </td>
                  <td className="path">
                    <PathText path={p.destination} />
                  </td>
                  <td>
                    <Status status={p.status} />
                    {p.error ? <span className="error"> {p.error}</span> : null}
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      ) : null}
      {result.skipped.length > 0 ? (
        <>
          <h3>Skipped</h3>
          <ul className="skipped">
            {result.skipped.map((s) => (
              <li key={s.source}>
                <PathText path={s.source} />: <Status status={s.reason} />
                {s.detail ? <span className="muted"> {s.detail}</span> : null}
                {SETTLEABLE.has(s.reason) && isVideo(s.source) ? (
                  <>
                    {' '}
                    <ImportAsButton path={s.source} candidates={s.candidates ?? []} />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** What the last pass left for the owner to say (GET /api/imports/pending), each with `Import as…`. */
function Pending() {
  const pending = useQuery({ queryKey: queryKeys.importsPending(), queryFn: () => unwrap(api.GET('/api/imports/pending')) });
  if (!pending.data || pending.data.items.length === 0) return <ErrorNote error={pending.error} />;
  return (
    <section aria-labelledby="pending-h">
      <h2 id="pending-h">Waiting for you</h2>
      <p className="muted">The last pass could not tell what these are, or where they go. Say it with Import as….</p>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Why it waits</th>
            <th scope="col">Size</th>
            <th scope="col">
              <span className="sr-only">Import</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pending.data.items.map((i) => (
            <tr key={i.path} data-pending={i.path}>
              <td className="path">
                <PathText path={i.path} />
              </td>
              <td>
                <Status status={i.reason} />
                {i.detail ? <span className="muted"> {i.detail}</span> : null}
              </td>
              <td className="num">{formatBytes(i.bytes)}</td>
              <td>
                <ImportAsButton path={i.path} candidates={i.candidates} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function DownloadsPage() {
  const queries = useQueryClient();
  // The worker refreshes the listing within seconds of a change, with no job the event stream would
  // tell of; asking again this often costs the API a stat and the bytes it built once.
  const list = useQuery({ queryKey: queryKeys.downloads(), queryFn: () => unwrap(api.GET('/api/downloads')), refetchInterval: 5000 });
  const scan = useMutation({
    mutationFn: runScan,
    onSettled: () => {
      void queries.invalidateQueries({ queryKey: queryKeys.downloads() });
      void queries.invalidateQueries({ queryKey: queryKeys.importsPending() });
      void queries.invalidateQueries({ queryKey: queryKeys.dashboard() });
    },
  });
  return (
    <Page
      id="downloads"
      title="Downloads"
      actions={
        <>
          <DryRunBadge />
          <button type="button" onClick={() => scan.mutate()} disabled={scan.isPending}>
            Scan downloads
          </button>
        </>
      }
    >
      <ErrorNote error={scan.error} />
      {scan.isPending ? <p role="status">Scanning…</p> : null}
      <ImportAsHost>
        {scan.data ? <PassResult result={scan.data} /> : null}
        <Pending />
      </ImportAsHost>
      <section aria-labelledby="files-h">
        <h2 id="files-h">Files</h2>
        {list.isPending ? <Loading what="downloads" /> : null}
        <ErrorNote error={list.error} />
        {list.data ? (
          <>
            <p className="muted">
              Listed by the pass at <When at={list.data.scanned_at} />
              {list.data.truncated ? '; the folder holds more files than the listing keeps.' : '.'}
            </p>
            {list.data.files.length === 0 ? (
              <Empty>No files in the downloads folder.</Empty>
            ) : (
              <table className="grid">
                <thead>
                  <tr>
                    <th scope="col">File</th>
                    <th scope="col">Recognised as</th>
                    <th scope="col">Size</th>
                    <th scope="col">Settled</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.files.map((f) => (
                    <tr key={f.path}>
                      <td className="path">
                        <PathText path={f.path} />
                      </td>
                      <td>{whatItIs(f.media)}</td>
                      <td className="num">{formatBytes(f.bytes)}</td>
                      <td>{f.settled ? 'yes' : <Status status="settling" />}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        ) : null}
      </section>
    </Page>
  );
}
