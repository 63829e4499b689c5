import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../api/client.ts';
import { useConnected } from '../api/live.ts';
import { queryKeys } from '../api/query-keys.ts';
import { formatBytes } from '../components/format.ts';
import { ErrorNote, Loading, Page, useConfig, When } from '../components/ui.tsx';
import { WorkersPart } from './SystemWorkers.tsx';

export function SystemPage() {
  const dashboard = useQuery({ queryKey: queryKeys.dashboard(), queryFn: () => unwrap(api.GET('/api/dashboard')) });
  const ready = useQuery({ queryKey: queryKeys.ready(), queryFn: () => unwrap(api.GET('/api/ready')), refetchInterval: 15_000, retry: false });
  const health = useQuery({ queryKey: queryKeys.systemHealth(), queryFn: () => unwrap(api.GET('/api/system/health')), refetchInterval: 15_000 });
  const config = useConfig();
  const live = useConnected();
  const unlinkable = Object.entries(ready.data?.hardlinks ?? {})
    .filter(([, linked]) => !linked)
    .map(([drive]) => drive);
  return (
    <Page id="system" title="System">
      <section aria-labelledby="health-h">
        <h2 id="health-h">Health</h2>
        <ErrorNote error={health.error} />
        {health.data?.warnings.length ? (
          <div className="warning" role="alert" data-testid="health-warnings">
            {health.data.warnings.map((w) => (
              <p key={`${w.code}:${w.subject}`} data-warning={w.code} data-subject={w.subject}>
                {w.message}
              </p>
            ))}
          </div>
        ) : null}
        {health.data?.warnings.length === 0 ? <p data-testid="health-ok">Nothing needs attention.</p> : null}
        <dl className="facts">
          <dt>Redis</dt>
          <dd data-testid="redis">{ready.data ? ready.data.redis : ready.isError ? 'down' : '…'}</dd>
          <dt>Live updates</dt>
          <dd>{live ? 'connected' : 'reconnecting'}</dd>
          <dt>Last scanner pass</dt>
          <dd>
            <When at={dashboard.data?.state.last_scan_at} />
          </dd>
          <dt>Last library scan</dt>
          <dd>
            <When at={dashboard.data?.state.last_library_scan_at} />
          </dd>
          <dt>Version</dt>
          <dd>{import.meta.env.VITE_MO_VERSION ?? '0.0.0'}</dd>
        </dl>
      </section>
      <WorkersPart />
      <section aria-labelledby="drives-h">
        <h2 id="drives-h">Drives</h2>
        {dashboard.isPending ? <Loading what="drives" /> : null}
        <ErrorNote error={dashboard.error} />
        {unlinkable.length > 0 ? (
          <div className="warning" role="alert" data-testid="hardlinks-warning">
            <p>
              A hard link from the downloads folder cannot reach <strong>{unlinkable.join(', ')}</strong>: the drive lies on another filesystem, or on a
              separate mount of the same one (two Docker volumes of one disk are two mounts). Hardlink mode copies each file instead, and move copies then
              deletes.
            </p>
            <p>
              Mount one folder that holds both the downloads and the drive, once (in Docker one volume such as <code>/data</code> holding <code>torrents/</code>{' '}
              and <code>media/</code>, not one volume each), and keep the downloads on the drive's disk. The README's Docker section shows the layout.
            </p>
          </div>
        ) : null}
        {dashboard.data ? (
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">Drive</th>
                <th scope="col">Path</th>
                <th scope="col">Free</th>
                <th scope="col">Used</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {dashboard.data.drives.map((d) => (
                <tr key={d.name} data-available={d.available}>
                  <td>{d.name}</td>
                  <td className="path">{d.path}</td>
                  <td className="num">{d.available ? formatBytes(d.free_bytes) : 'not mounted'}</td>
                  <td className="num">
                    {d.available && d.total_bytes ? (
                      <meter min={0} max={d.total_bytes} value={d.used_bytes ?? 0} aria-label={`${d.name} used`}>
                        {formatBytes(d.used_bytes)}
                      </meter>
                    ) : null}{' '}
                    {formatBytes(d.used_bytes)}
                  </td>
                  <td className="num">{formatBytes(d.total_bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {dashboard.data ? (
          <p data-testid="system-recycle">
            <Link href="/library/recycle">Recycle bin</Link>:{' '}
            {dashboard.data.recycle
              ? `${dashboard.data.recycle.files.toLocaleString('en')} ${dashboard.data.recycle.files === 1 ? 'file' : 'files'}, ${formatBytes(dashboard.data.recycle.bytes)}`
              : 'not counted yet (the daily purge or a look at the recycle bin counts it)'}
            .
          </p>
        ) : null}
      </section>
      {config.data ? (
        <section aria-labelledby="cfg-h">
          <h2 id="cfg-h">Set in the config file</h2>
          <dl className="facts">
            <dt>Sign-in</dt>
            <dd>{config.data.app.auth}</dd>
            <dt>Allowed hosts</dt>
            <dd data-testid="allowed-hosts">
              {config.data.app.allowed_hosts.length > 0
                ? `Only ${config.data.app.allowed_hosts.join(', ')} and loopback names (localhost, 127.0.0.1): a request addressed to any other host name gets a 403.`
                : 'Not set: the service answers whatever host name a request is addressed to. Set it to the names you reach the service by, so that a page on another name (DNS rebinding) is refused.'}
            </dd>
            <dt>Allowed roots</dt>
            <dd>{config.data.app.allowed_roots.join(', ') || 'none set'}</dd>
            <dt>Trusted proxies</dt>
            <dd>{config.data.app.trusted_proxies.join(', ') || 'none: every client is the address that connects'}</dd>
            <dt>Video encoder</dt>
            <dd>{config.data.transcoder.video_encoder}</dd>
            <dt>Keep originals after transcoding</dt>
            <dd>{config.data.transcoder.keep_original ? 'yes' : 'no'}</dd>
          </dl>
        </section>
      ) : null}
      <section aria-labelledby="links-h">
        <h2 id="links-h">Tools</h2>
        <ul>
          <li>
            <a href="api/admin/queues">Queue dashboard</a>
          </li>
          <li>
            <a href="api/docs">API reference</a>
          </li>
          <li>
            <a href="api/metrics">Metrics (Prometheus)</a>
          </li>
        </ul>
      </section>
    </Page>
  );
}
