import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { STALE_BY_EVENT } from '../api/query-keys.ts';
import { ErrorNote, When } from './ui.tsx';

/** Whether a page's answer comes from an index that was never built: its `scanned_at` is null. */
export function notScanned(answer: { scanned_at: string | null } | undefined): boolean {
  return answer !== undefined && answer.scanned_at === null;
}

/**
 * What a page that reads the library index shows before the first library scan, in place of an
 * answer that would read as "all is well" (no duplicates, every video has subtitles): the library
 * is not scanned yet, and a way to scan it. The scan's end refreshes every page read from the index.
 * `offerScan` false: the page has its own Scan library button.
 */
export function NotScanned({ what, offerScan = true }: { what: string; offerScan?: boolean }) {
  const queries = useQueryClient();
  const scan = useMutation({
    mutationFn: () => unwrap(api.POST('/api/library/scan', { params: { query: { wait: 120 } } })),
    onSettled: () => Promise.all(STALE_BY_EVENT.library.map((key) => queries.invalidateQueries({ queryKey: key }))),
  });
  return (
    <div className="not-scanned" data-testid="not-scanned">
      <p>
        <strong>The library is not scanned yet.</strong> {what}
      </p>
      {offerScan ? (
        <button type="button" onClick={() => scan.mutate()} disabled={scan.isPending}>
          Scan library
        </button>
      ) : null}
      {scan.isPending ? <p role="status">Scanning the library…</p> : null}
      <ErrorNote error={scan.error} />
    </div>
  );
}

/** When the index a page reads was built; a page shows it only once there is one. */
export function ScannedAt({ at }: { at: string }) {
  return (
    <>
      Library scanned <When at={at} />.
    </>
  );
}
