import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { useLiveJobs } from '../api/live.ts';
import { formatBytes } from '../components/format.ts';
import { JobProgress } from '../components/progress.tsx';
import { DryRunBadge, Empty, ErrorNote, Loading, Page, Status, useRowWindow, When } from '../components/ui.tsx';

const itemText = (i: { path: string; title: string | null; status: string }) => `${i.title ?? ''} ${i.path} ${i.status}`;

function RunningTranscodes() {
  const jobs = useLiveJobs().filter((j) => j.queue === 'transcode' && j.state === 'active');
  const cancel = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/jobs/transcode/{id}/cancel', { params: { path: { id } } })),
  });
  if (jobs.length === 0) return null;
  return (
    <section aria-labelledby="running-h">
      <h2 id="running-h">Running</h2>
      <ul className="running">
        {jobs.map((j) => {
          return (
            <li key={j.id} data-job={j.id}>
              Job #{j.id} <JobProgress progress={j.progress} label={`transcode ${j.id} progress`} />{' '}
              <button type="button" onClick={() => cancel.mutate(j.id)} disabled={cancel.isPending}>
                Cancel
              </button>
            </li>
          );
        })}
      </ul>
      <ErrorNote error={cancel.error} />
    </section>
  );
}

export function TranscodesPage() {
  const queries = useQueryClient();
  const queue = useQuery({ queryKey: ['transcoder'], queryFn: () => unwrap(api.GET('/api/tools/transcoder')) });
  const rows = useRowWindow(queue.data?.queue ?? [], itemText);
  const refresh = () => queries.invalidateQueries({ queryKey: ['transcoder'] });
  const runNext = useMutation({ mutationFn: () => unwrap(api.POST('/api/tools/transcoder/run-next')), onSettled: refresh });
  const retry = useMutation({
    mutationFn: (path: string) => unwrap(api.POST('/api/tools/transcoder/retry', { body: { path } })),
    onSettled: refresh,
  });
  const next = runNext.data;
  return (
    <Page
      id="transcodes"
      title="Transcodes"
      actions={
        <>
          <DryRunBadge />
          <button type="button" onClick={() => runNext.mutate()} disabled={runNext.isPending}>
            Run next
          </button>
        </>
      }
    >
      <ErrorNote error={runNext.error} />
      {next && 'item' in next ? (
        next.item === null ? (
          <p role="status">Nothing is queued.</p>
        ) : 'command' in next ? (
          <section className="command" aria-labelledby="next-h">
            <h2 id="next-h">Dry run: the next transcode would run</h2>
            <p className="path">{next.item.path}</p>
            <pre>
              <code>{next.command.join(' ')}</code>
            </pre>
          </section>
        ) : 'job' in next ? (
          <p role="status">
            Started job #{next.job.id} for <span className="path">{next.item.path}</span>.
          </p>
        ) : null
      ) : null}
      <RunningTranscodes />
      {queue.isPending ? <Loading what="the transcode queue" /> : null}
      <ErrorNote error={queue.error} />
      <ErrorNote error={retry.error} />
      {queue.data ? (
        <section aria-labelledby="queue-h">
          <h2 id="queue-h">Queue</h2>
          <p className="muted">
            Index of <When at={queue.data.scanned_at} />.
          </p>
          {queue.data.queue.length === 0 ? (
            <Empty>Every video is already MP4.</Empty>
          ) : (
            <>
            {rows.controls}
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Title</th>
                  <th scope="col">Size</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.shown.map((i) => (
                  <tr key={i.path} data-status={i.status}>
                    <td className="path">{i.path}</td>
                    <td>{i.title ?? '–'}</td>
                    <td className="num">{formatBytes(i.bytes)}</td>
                    <td>
                      <Status status={i.status} />
                    </td>
                    <td>
                      {i.status === 'failed' ? (
                        <button type="button" onClick={() => retry.mutate(i.path)} disabled={retry.isPending}>
                          Retry
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {rows.more}
            </>
          )}
        </section>
      ) : null}
    </Page>
  );
}
