import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@mo/api-client';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { count, importQuestion } from '../components/confirm-text.ts';
import { episodeCode, formatBytes, qualityLabel, type Quality } from '../components/format.ts';
import { PathText } from '../components/path-text.tsx';
import { DryRunBadge, Empty, ErrorNote, Loading, Page, Status, useConfig, When } from '../components/ui.tsx';
import { ImportAsButton, ImportAsHost, readingOf, SETTLEABLE } from './ImportAs.tsx';

type ScanResult = Awaited<ReturnType<typeof runScan>>;

function runScan() {
  return unwrap(api.POST('/api/scan', { params: { query: { wait: 120 } } }));
}

/** A dry-run pass whatever the config says: what `Scan downloads` would do, with nothing moved. */
function runPreview() {
  return unwrap(api.POST('/api/scan', { params: { query: { wait: 120, dry_run: 'true' } } }));
}

/** A pass over the previewed downloads alone: a file that arrived since is left for the next pass. */
function runImport(sources: string[]) {
  return unwrap(api.POST('/api/scan/import', { params: { query: { wait: 120 } }, body: { sources } }));
}

type Planned = Extract<ScanResult, { plans: unknown }>['plans'][number];

/** Every file a preview would carry: each plan's video and its sidecars. */
const sourcesOf = (plans: readonly Planned[]) => plans.flatMap((p) => [p.source, ...p.sidecars.map((x) => x.source)]);

function whatItIs(
  m: {
    kind: string;
    title: string;
    year: number | null;
    season: number | null;
    episodes: number[] | null;
    air_date: string | null;
    country?: string | null;
    quality?: Quality;
  } | null,
) {
  if (!m) return <span className="muted">unrecognized</span>;
  const title = m.country ? `${m.title} (${m.country})` : m.title;
  const name = m.kind === 'movie' ? `${title}${m.year ? ` (${m.year})` : ''}` : `${title} ${m.air_date ?? episodeCode(m.season, m.episodes)}`;
  const quality = qualityLabel(m.quality);
  return quality ? (
    <>
      {name} <span className="muted">{quality}</span>
    </>
  ) : (
    name
  );
}

/**
 * The readings `Import as…` opens with: the skip's candidates, else the download's own reading from
 * the listing (an `exists` has none of its own: its name was read, only its place was taken).
 */
function useReadings() {
  const list = useQuery({ queryKey: queryKeys.downloads(), queryFn: () => unwrap(api.GET('/api/downloads')) });
  return (path: string, candidates: Schemas['Candidate'][] | undefined) =>
    candidates && candidates.length > 0 ? candidates : readingOf(list.data?.files.find((f) => f.path === path)?.media ?? null);
}

/** Only a video can be imported as something; its subtitles and .nfo go with it. */
function useIsVideo() {
  const config = useConfig();
  const extensions = config.data?.library.video_extensions ?? [];
  return (path: string) => extensions.some((ext) => path.toLowerCase().endsWith(ext));
}

function PassResult({ result, heading, children }: { result: ScanResult; heading?: string; children?: ReactNode }) {
  const isVideo = useIsVideo();
  const readings = useReadings();
  if (!('plans' in result)) {
    return <p role="status">The pass was queued; its result will appear under Activity.</p>;
  }
  return (
    <section aria-labelledby="pass-h" className="pass-result">
      <h2 id="pass-h">{heading ?? (result.dry_run ? 'Plan (dry run: nothing moved)' : 'Pass result')}</h2>
      {children}
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
                    {p.sidecars.length > 0 ? (
                      <ul className="sidecars" aria-label={`Files that go with ${p.source}`}>
                        {p.sidecars.map((x) => (
                          <li key={x.source}>
                            <PathText path={x.source} />
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </td>
                  <td className="path">
                    <PathText path={p.destination} />
                    {p.replaces ? (
                      <div className="muted">
                        replaces <PathText path={p.replaces.path} /> ({qualityLabel(p.replaces.quality) ?? 'quality unknown'})
                      </div>
                    ) : null}
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
                {s.detail ? <span className="muted skip-detail"> {s.detail}</span> : null}
                {SETTLEABLE.has(s.reason) && isVideo(s.source) ? (
                  <>
                    {' '}
                    <ImportAsButton path={s.source} candidates={readings(s.source, s.candidates)} reason={s.reason} />
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
  const readings = useReadings();
  if (!pending.data || pending.data.items.length === 0) return <ErrorNote error={pending.error} />;
  return (
    <section aria-labelledby="pending-h">
      <h2 id="pending-h">Waiting for you</h2>
      <p className="muted">The last pass could not tell what these are, or where they go. Settle each with Import as…</p>
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
                {i.detail ? <span className="muted skip-detail"> {i.detail}</span> : null}
              </td>
              <td className="num">{formatBytes(i.bytes)}</td>
              <td>
                <ImportAsButton path={i.path} candidates={readings(i.path, i.candidates)} reason={i.reason} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * `Scan downloads`: with dry run on, a pass (which only plans) as before. With it off, a preview
 * first, whose plan the owner confirms with `Import these`; that imports the previewed files alone.
 */
function useScanDownloads() {
  const queries = useQueryClient();
  const config = useConfig();
  const onSettled = () => {
    void queries.invalidateQueries({ queryKey: queryKeys.downloads() });
    void queries.invalidateQueries({ queryKey: queryKeys.importsPending() });
    void queries.invalidateQueries({ queryKey: queryKeys.dashboard() });
  };
  const scan = useMutation({ mutationFn: runScan, onSettled });
  const preview = useMutation({ mutationFn: runPreview, onSettled });
  const imported = useMutation({ mutationFn: runImport, onSettled, onSuccess: () => preview.reset() });
  const start = () => {
    for (const m of [scan, preview, imported]) m.reset();
    if (config.data?.app.dry_run) scan.mutate();
    else preview.mutate();
  };
  const busy = !config.data || scan.isPending || preview.isPending || imported.isPending;
  return { scan, preview, imported, start, busy, mode: config.data?.library.transfer ?? 'move' };
}

type ScanDownloads = ReturnType<typeof useScanDownloads>;

/** The preview's plan, with `Import these (N)` (asking first, naming the transfer mode) and `Cancel`. */
function Preview({ run }: { run: ScanDownloads }) {
  const [asking, setAsking] = useState(false);
  const result = run.preview.data;
  if (!result) return null;
  if (!('plans' in result)) return <p role="status">The preview is still running; its plan will appear under Activity. Nothing was moved.</p>;
  const plans = result.plans;
  const sidecars = plans.reduce((n, p) => n + p.sidecars.length, 0);
  const question = importQuestion(plans.length, sidecars, run.mode);
  return (
    <PassResult result={result} heading="Preview: nothing moved yet">
      <p className="muted">
        {plans.length === 0
          ? 'Nothing would be imported.'
          : `${count(plans.length, 'file')} would be imported${sidecars > 0 ? `, with ${count(sidecars, 'subtitle or info file', 'subtitle and info files')}` : ''}.`}
      </p>
      <div className="preview-actions">
        {plans.length > 0 ? (
          <button type="button" onClick={() => setAsking(true)} disabled={run.imported.isPending} aria-haspopup="dialog">
            Import these ({plans.length.toLocaleString()})
          </button>
        ) : null}
        <button type="button" className="link" onClick={() => run.preview.reset()} disabled={run.imported.isPending}>
          {plans.length > 0 ? 'Cancel' : 'Close'}
        </button>
      </div>
      {asking ? (
        <ConfirmDialog
          question={question}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            run.imported.mutate(sourcesOf(plans));
          }}
        />
      ) : null}
    </PassResult>
  );
}

export function DownloadsPage() {
  // The worker refreshes the listing within seconds of a change, with no job the event stream would
  // tell of; asking again this often costs the API a stat and the bytes it built once.
  const list = useQuery({ queryKey: queryKeys.downloads(), queryFn: () => unwrap(api.GET('/api/downloads')), refetchInterval: 5000 });
  const run = useScanDownloads();
  const { scan, preview, imported } = run;
  return (
    <Page
      id="downloads"
      title="Downloads"
      actions={
        <>
          <DryRunBadge />
          <button type="button" onClick={run.start} disabled={run.busy}>
            Scan downloads
          </button>
        </>
      }
    >
      <ErrorNote error={scan.error ?? preview.error ?? imported.error} />
      {scan.isPending || preview.isPending ? <p role="status">Scanning…</p> : null}
      {imported.isPending ? <p role="status">Importing…</p> : null}
      <ImportAsHost>
        {scan.data ? <PassResult result={scan.data} /> : null}
        <Preview run={run} />
        {imported.data ? <PassResult result={imported.data} /> : null}
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
