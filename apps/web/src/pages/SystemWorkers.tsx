import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '@mo/api-client';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Empty, ErrorNote, Loading, When } from '../components/ui.tsx';

/** Workers beat every 10 s; the list follows at the same pace. */
const REFRESH_MS = 10_000;

type Worker = Schemas['Worker'];

function Encoders({ worker }: { worker: Worker }) {
  if (!worker.queues.includes('transcode')) return <span className="muted">no transcodes</span>;
  if (worker.encoders_tested_at === null) return <span className="muted">testing…</span>;
  const failed = Object.entries(worker.encoder_errors);
  return (
    <>
      <span data-testid="encoders">{worker.encoders.join(', ') || 'none works'}</span>
      {failed.map(([encoder, why]) => (
        <div key={encoder} className="muted">
          {encoder} does not work here: {why}
        </div>
      ))}
    </>
  );
}

export function WorkersPart() {
  const workers = useQuery({ queryKey: queryKeys.workers(), queryFn: () => unwrap(api.GET('/api/workers')), refetchInterval: REFRESH_MS });
  const idle = workers.data
    ? Object.entries(workers.data.queues)
        .filter(([, q]) => q.workers === 0)
        .map(([queue]) => queue)
    : [];
  return (
    <section aria-labelledby="workers-h">
      <h2 id="workers-h">Workers</h2>
      {workers.isPending ? <Loading what="workers" /> : null}
      <ErrorNote error={workers.error} />
      {idle.length > 0 ? (
        <div className="warning" role="alert">
          {idle.map((queue) => (
            <p key={queue} data-queue={queue}>
              No worker takes <strong>{queue}</strong> jobs: they wait until a worker with <code>{queue}</code> in its <code>WORKER_QUEUES</code> starts.
            </p>
          ))}
        </div>
      ) : null}
      {workers.data?.workers.length === 0 ? <Empty>No worker has reported in.</Empty> : null}
      {workers.data?.workers.length ? (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Queues</th>
              <th scope="col">Concurrency</th>
              <th scope="col">Encoders</th>
              <th scope="col">Last seen</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {workers.data.workers.map((w) => (
              <tr key={w.id} data-worker={w.id} data-alive={w.alive}>
                <td>
                  {w.host} <span className="muted">pid {w.pid}</span>
                </td>
                <td>{w.queues.join(', ')}</td>
                <td>{w.queues.map((q) => `${q} ${w.concurrency[q] ?? 1}`).join(', ')}</td>
                <td>
                  <Encoders worker={w} />
                </td>
                <td>
                  <When at={w.last_seen} />
                </td>
                <td>
                  <span className={`status status-${w.alive ? 'alive' : 'late'}`} data-status={w.alive ? 'alive' : 'late'}>
                    {w.alive ? 'alive' : 'no heartbeat'}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
