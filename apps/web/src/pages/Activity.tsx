import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Schemas } from '@mo/api-client';
import { api, unwrap } from '../api/client.ts';
import { jobTitle, mergeJobs, runSeconds, type JobRow } from '../api/job-rows.ts';
import { useLiveJobs } from '../api/live.ts';
import { queryKeys, type Queue } from '../api/query-keys.ts';
import { formatDuration } from '../components/format.ts';
import { JobProgress } from '../components/progress.tsx';
import { PathText } from '../components/path-text.tsx';
import { Empty, ErrorNote, Loading, Page, Status, When } from '../components/ui.tsx';
import { Imports } from './ActivityImports.tsx';

const QUEUES = ['scan', 'library', 'media', 'transcode', 'notify'] as const satisfies readonly Queue[];
type ScanPass = Schemas['ScanPass'];

function CancelButton({ id, title }: { id: string; title: string }) {
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/api/jobs/transcode/{id}/cancel', { params: { path: { id } } })),
  });
  return (
    <>
      <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending || cancel.isSuccess}>
        Cancel <span className="sr-only">{title}</span>
      </button>
      <ErrorNote error={cancel.error} />
    </>
  );
}

function passCounts(c: ScanPass['counts']): string {
  return `${c.plans} planned, ${c.moved} moved, ${c.failed} failed, ${c.skipped} skipped`;
}

/** What a row shows while it runs (progress), or once a scanner pass is done (its counts). */
function Outcome({ row }: { row: JobRow }) {
  if (row.state === 'active') return <JobProgress progress={row.progress} label={`${jobTitle(row)}: progress`} />;
  if (row.summary) return <span className="muted">{passCounts(row.summary.counts)}</span>;
  return null;
}

function JobsTable({ rows }: { rows: JobRow[] }) {
  const now = Date.now();
  return (
    <table className="grid jobs">
      <caption>Recent jobs</caption>
      <thead>
        <tr>
          <th scope="col">Queue</th>
          <th scope="col">Job</th>
          <th scope="col">State</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
          <th scope="col">Duration</th>
          <th scope="col">Progress</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((j) => (
          <tr key={`${j.queue}:${j.id}`} data-queue={j.queue} data-job={j.id} data-state={j.state}>
            <td>{j.queue}</td>
            <td>
              <span className="job-title">{jobTitle(j)}</span>
              {j.about?.path ? <div className="path muted">{j.about.path}</div> : null}
              <div className="job-id muted">
                <span className="sr-only">Job id </span>
                {j.id}
              </div>
              {j.error ? <div className="error">{j.error}</div> : null}
            </td>
            <td>
              <Status status={j.state} />
            </td>
            <td>{j.started_at ? <When at={j.started_at} /> : <span className="muted">–</span>}</td>
            <td>{j.finished_at ? <When at={j.finished_at} /> : <span className="muted">–</span>}</td>
            <td className="num">{formatDuration(runSeconds(j, now))}</td>
            <td>
              <Outcome row={j} />
            </td>
            <td>{j.queue === 'transcode' && j.state === 'active' ? <CancelButton id={j.id} title={jobTitle(j)} /> : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Jobs() {
  const [queue, setQueue] = useState<Queue | ''>('');
  const listed = useQuery({
    queryKey: queryKeys.jobs.list(queue),
    queryFn: () => unwrap(api.GET('/api/jobs', { params: { query: queue ? { queue } : {} } })),
  });
  const live = useLiveJobs().filter((j) => !queue || j.queue === queue);
  const rows = mergeJobs(listed.data?.jobs ?? [], listed.data ? listed.dataUpdatedAt : 0, live);
  return (
    <section aria-labelledby="jobs-h">
      <h2 id="jobs-h">Jobs</h2>
      <div className="toolbar">
        <label>
          Queue{' '}
          <select value={queue} onChange={(e) => setQueue(e.target.value as Queue | '')}>
            <option value="">All queues</option>
            {QUEUES.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={listed.error} />
      {listed.isPending && rows.length === 0 ? <Loading what="jobs" /> : rows.length === 0 ? <Empty>No jobs yet.</Empty> : <JobsTable rows={rows} />}
    </section>
  );
}

function More({ left }: { left: number }) {
  return left > 0 ? <p className="muted">and {left.toLocaleString('en')} more not shown</p> : null;
}

function PassDetails({ pass }: { pass: ScanPass }) {
  return (
    <>
      {pass.plans.length > 0 ? (
        <table className="grid">
          <caption>Plans</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Destination</th>
            </tr>
          </thead>
          <tbody>
            {pass.plans.map((p) => (
              <tr key={p.source}>
                <td className="path">
                  <PathText path={p.source} />
                </td>
                <td className="path">
                  <PathText path={p.destination} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <More left={pass.truncated.plans} />
      {pass.moves.length > 0 ? (
        <table className="grid">
          <caption>Moves</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Destination</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {pass.moves.map((m) => (
              <tr key={m.source}>
                <td className="path">
                  <PathText path={m.source} />
                </td>
                <td className="path">
                  <PathText path={m.destination} />
                </td>
                <td>
                  <Status status={m.status} />
                  {m.error ? <div className="error">{m.error}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <More left={pass.truncated.moves} />
      {pass.skipped.length > 0 ? (
        <table className="grid">
          <caption>Skipped</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {pass.skipped.map((s) => (
              <tr key={s.source} data-reason={s.reason}>
                <td className="path">
                  <PathText path={s.source} />
                </td>
                <td>
                  <Status status={s.reason} />
                  {s.detail ? <span className="muted"> {s.detail}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <More left={pass.truncated.skipped} />
      {pass.counts.plans + pass.counts.moved + pass.counts.failed + pass.counts.skipped === 0 ? (
        <Empty>Nothing to do: the downloads folder held no files.</Empty>
      ) : null}
    </>
  );
}

function ScannerPasses() {
  const passes = useQuery({ queryKey: queryKeys.scanPasses(), queryFn: () => unwrap(api.GET('/api/scan/passes')) });
  const dashboard = useQuery({ queryKey: queryKeys.dashboard(), queryFn: () => unwrap(api.GET('/api/dashboard')) });
  return (
    <section aria-labelledby="passes-h">
      <h2 id="passes-h">Scanner passes</h2>
      {dashboard.data ? (
        <p className="muted">
          Last scanner pass <When at={dashboard.data.state.last_scan_at} />, last library scan <When at={dashboard.data.state.last_library_scan_at} />.
        </p>
      ) : null}
      {passes.isPending ? (
        <Loading what="scanner passes" />
      ) : passes.isError ? (
        <ErrorNote error={passes.error} />
      ) : passes.data.passes.length === 0 ? (
        <Empty>No scanner pass has run yet.</Empty>
      ) : (
        <ul className="passes">
          {passes.data.passes.map((p) => (
            <li key={p.id} data-pass={p.id}>
              <details>
                <summary>
                  <When at={p.finished_at} />{' '}
                  {p.dry_run ? <span className="badge badge-dry-run">Dry run</span> : <span className="badge badge-live">Live</span>}{' '}
                  <span className="muted">{passCounts(p.counts)}</span>
                </summary>
                <PassDetails pass={p} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ActivityPage() {
  return (
    <Page id="activity" title="Activity">
      <Jobs />
      <ScannerPasses />
      <Imports />
    </Page>
  );
}
