import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { formatBytes, qualityLabel } from '../components/format.ts';
import { NotScanned, notScanned, ScannedAt } from '../components/not-scanned.tsx';
import { PathText } from '../components/path-text.tsx';
import { Empty, ErrorNote, Loading, Page } from '../components/ui.tsx';

export function DuplicatesPage() {
  const dups = useQuery({ queryKey: queryKeys.duplicates(), queryFn: () => unwrap(api.GET('/api/tools/duplicates')) });
  const d = dups.data;
  return (
    <Page id="duplicates" title="Duplicates">
      {dups.isPending ? <Loading what="duplicates" /> : null}
      <ErrorNote error={dups.error} />
      {notScanned(d) ? <NotScanned what="Duplicate movies and series are found once a library scan has read the drives." /> : null}
      {d?.scanned_at ? (
        <>
          <p className="muted">
            <ScannedAt at={d.scanned_at} />
          </p>
          {d.movies.length + d.series.length === 0 ? <Empty>No duplicates.</Empty> : null}
          {d.movies.length > 0 ? (
            <section aria-labelledby="dm-h">
              <h2 id="dm-h">Movies</h2>
              {d.movies.map((m) => (
                <div key={`${m.title}-${m.year}`} className="group">
                  <h3>
                    {m.title}
                    {m.year ? ` (${m.year})` : ''}
                  </h3>
                  <ul>
                    {m.copies.map((c) => {
                      const quality = qualityLabel(c.quality);
                      return (
                        <li key={c.folder}>
                          <PathText path={c.folder} />{' '}
                          <span className="muted">
                            on {c.drive}, {c.files} {c.files === 1 ? 'file' : 'files'}, {formatBytes(c.bytes)}
                            {quality ? `, ${quality}` : ''}
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                </div>
              ))}
            </section>
          ) : null}
          {d.series.length > 0 ? (
            <section aria-labelledby="ds-h">
              <h2 id="ds-h">Series</h2>
              {d.series.map((s) => (
                <div key={s.title} className="group">
                  <h3>{s.title}</h3>
                  <ul>
                    {s.copies.map((c) => (
                      <li key={c.folder}>
                        <PathText path={c.folder} />{' '}
                        <span className="muted">
                          on {c.drive}, {c.episode_count} episodes
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </section>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}
