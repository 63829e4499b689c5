import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { useLiveJobs, type LiveJob } from '../api/live.ts';
import { JobProgress } from '../components/progress.tsx';
import { Empty, ErrorNote, Loading, Page, Status, When } from '../components/ui.tsx';

function CancelButton({ job }: { job: LiveJob }) {
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/api/jobs/transcode/{id}/cancel', { params: { path: { id: job.id } } })),
  });
  return (
    <>
      <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending || cancel.isSuccess}>
        Cancel
      </button>
      <ErrorNote error={cancel.error} />
    </>
  );
}

function Jobs() {
  const jobs = useLiveJobs();
  if (jobs.length === 0) return <Empty>No job has run since this page opened.</Empty>;
  return (
    <table className="grid jobs">
      <caption>Jobs</caption>
      <thead>
        <tr>
          <th scope="col">Queue</th>
          <th scope="col">Job</th>
          <th scope="col">State</th>
          <th scope="col">Progress</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((j) => (
          <tr key={`${j.queue}:${j.id}`} data-queue={j.queue} data-job={j.id}>
            <td>{j.queue}</td>
            <td>
              {j.name} <span className="muted">#{j.id}</span>
              {j.error ? <div className="error">{j.error}</div> : null}
            </td>
            <td>
              <Status status={j.state} />
            </td>
            <td>
              <JobProgress progress={j.progress} label={`${j.name} progress`} />
            </td>
            <td>{j.queue === 'transcode' && j.state === 'active' ? <CancelButton job={j} /> : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RecentPasses() {
  const downloads = useQuery({ queryKey: ['downloads'], queryFn: () => unwrap(api.GET('/api/downloads')) });
  const dashboard = useQuery({ queryKey: ['dashboard'], queryFn: () => unwrap(api.GET('/api/dashboard')) });
  if (downloads.isPending) return <Loading what="recent passes" />;
  if (downloads.isError) return <ErrorNote error={downloads.error} />;
  return (
    <section aria-labelledby="recent-h">
      <h2 id="recent-h">Scanner: recent plans and moves</h2>
      {dashboard.data ? (
        <p className="muted">
          Last scanner pass <When at={dashboard.data.state.last_scan_at} />, last library scan <When at={dashboard.data.state.last_library_scan_at} />.
        </p>
      ) : null}
      {downloads.data.recent.length === 0 ? (
        <Empty>No plans or moves yet.</Empty>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Type</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {downloads.data.recent.map((r, i) => (
              <tr key={`${r.at}-${i}`}>
                <td>
                  <When at={r.at} />
                </td>
                <td>{r.type}</td>
                <td className="path">{r.source}</td>
                <td className="path">{r.destination}</td>
                <td>
                  <Status status={r.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ActivityPage() {
  return (
    <Page id="activity" title="Activity">
      <section aria-label="Jobs">
        <Jobs />
      </section>
      <RecentPasses />
    </Page>
  );
}
