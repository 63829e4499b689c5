import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { episodeCode } from '../components/format.ts';
import { NotScanned, notScanned } from '../components/not-scanned.tsx';
import { Empty, ErrorNote, Loading, Page, Status } from '../components/ui.tsx';

type Release = Awaited<ReturnType<typeof load>>['releases'][number];

function load() {
  return unwrap(api.GET('/api/releases'));
}

export function WantedPage() {
  const releases = useQuery({ queryKey: queryKeys.releases(), queryFn: load });
  const groups = useMemo(() => {
    const bySeries = new Map<string, Map<number, Release[]>>();
    for (const r of releases.data?.releases ?? []) {
      const seasons = bySeries.get(r.series) ?? new Map<number, Release[]>();
      bySeries.set(r.series, seasons);
      seasons.set(r.season, [...(seasons.get(r.season) ?? []), r]);
    }
    return [...bySeries.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [releases.data]);
  return (
    <Page id="wanted" title="Wanted">
      {releases.isPending ? <Loading what="missing and upcoming episodes" /> : null}
      <ErrorNote error={releases.error} />
      {notScanned(releases.data) ? <NotScanned what="Missing episodes are found once a library scan has read the drives." /> : null}
      {releases.data?.scanned_at && groups.length === 0 ? <Empty>No missing or upcoming episodes.</Empty> : null}
      {groups.map(([series, seasons]) => (
        <section key={series} className="group" aria-labelledby={`w-${series}`}>
          <h2 id={`w-${series}`}>{series}</h2>
          {[...seasons.entries()]
            .sort(([a], [b]) => a - b)
            .map(([season, eps]) => (
              <div key={season}>
                <h3>{season === 0 ? 'Specials' : `Season ${season}`}</h3>
                <ul className="episodes">
                  {eps.map((e) => (
                    <li key={`${e.season}-${e.episode}`} data-status={e.status}>
                      <span className="code">{episodeCode(e.season, e.episode)}</span> {e.title ?? ''} <Status status={e.status} />{' '}
                      {e.air_date ? <span className="muted">airs {e.air_date}</span> : null} <span className="muted">({e.source})</span>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
        </section>
      ))}
    </Page>
  );
}
