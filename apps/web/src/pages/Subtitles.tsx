import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { episodeCode } from '../components/format.ts';
import { NotScanned, notScanned, ScannedAt } from '../components/not-scanned.tsx';
import { PathText } from '../components/path-text.tsx';
import { Empty, ErrorNote, Loading, Page, useRowWindow } from '../components/ui.tsx';

const pathOf = (m: { path: string; title: string | null }) => `${m.title ?? ''} ${m.path}`;

export function SubtitlesPage() {
  const subs = useQuery({ queryKey: queryKeys.subtitles(), queryFn: () => unwrap(api.GET('/api/tools/subtitles')) });
  const rows = useRowWindow(subs.data?.missing ?? [], pathOf);
  return (
    <Page id="subtitles" title="Subtitles">
      {subs.isPending ? <Loading what="the subtitle audit" /> : null}
      <ErrorNote error={subs.error} />
      {notScanned(subs.data) ? <NotScanned what="Which videos have no subtitles is known once a library scan has read the drives." /> : null}
      {subs.data?.scanned_at ? (
        <>
          <p className="muted">
            {subs.data.missing.length.toLocaleString()} of {subs.data.total.toLocaleString()} videos have no subtitle file beside them.{' '}
            <ScannedAt at={subs.data.scanned_at} />
          </p>
          {subs.data.missing.length === 0 ? (
            <Empty>Every video has subtitles.</Empty>
          ) : (
            <>
              {rows.controls}
              <table className="grid">
                <thead>
                  <tr>
                    <th scope="col">Title</th>
                    <th scope="col">Episode</th>
                    <th scope="col">File</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.shown.map((m) => (
                    <tr key={m.path}>
                      <td>{m.title ?? '–'}</td>
                      <td>{m.kind === 'episode' ? episodeCode(m.season, m.episode) : ''}</td>
                      <td className="path">
                        <PathText path={m.path} href={`/library/file?path=${encodeURIComponent(m.path)}`} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {rows.more}
            </>
          )}
        </>
      ) : null}
    </Page>
  );
}
