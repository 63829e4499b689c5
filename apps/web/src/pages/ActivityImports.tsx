import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@mo/api-client';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { formatBytes } from '../components/format.ts';
import { PathText } from '../components/path-text.tsx';
import { Empty, ErrorNote, Loading, Status, useConfig, When } from '../components/ui.tsx';

type Import = Schemas['HistoryItem'];
type Undone = Schemas['UndoResult'];

const PAGE = 50;

function UndoOutcome({ result }: { result: Undone }) {
  const moves = result.restored.map((r) => (
    <li key={r.from}>
      {r.action === 'moved_back' ? 'back to' : 'removed'} <PathText path={r.action === 'moved_back' ? r.to : r.from} />
    </li>
  ));
  const unrecycled = result.from_recycle_bin.map((r) => (
    <li key={r.from}>
      back from the recycle bin to <PathText path={r.to} />
    </li>
  ));
  return (
    <div role="status" className="muted">
      {result.dry_run ? `Dry run: import ${result.id} would be undone, nothing changed:` : `Import ${result.id} undone:`}
      <ul>
        {moves}
        {unrecycled}
      </ul>
    </div>
  );
}

function ImportRow({ item, dryRun, onUndo, busy }: { item: Import; dryRun: boolean; onUndo: (item: Import) => void; busy: boolean }) {
  return (
    <tr data-import={item.id} data-undone={item.undone_at ? 'true' : 'false'}>
      <td>
        <When at={item.at} />
      </td>
      <td>{item.mode}</td>
      <td className="path">
        <PathText path={item.source} />
      </td>
      <td className="path">
        <PathText path={item.destination} />
        {item.sidecars.length > 0 ? <div className="muted">and {item.sidecars.length === 1 ? '1 sidecar' : `${item.sidecars.length} sidecars`}</div> : null}
        {item.replaced ? (
          <div className="muted" data-replaced>
            replaced <PathText path={item.replaced.path} />, now in the recycle bin
          </div>
        ) : null}
      </td>
      <td className="num">{formatBytes(item.bytes)}</td>
      <td>
        {item.undone_at ? (
          <>
            <Status status="undone" /> <When at={item.undone_at} />
          </>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              const what =
                item.mode === 'rename'
                  ? `Rename ${item.destination} back to ${item.source}?`
                  : item.mode === 'move'
                    ? `Move ${item.destination} back to ${item.source}?`
                    : `Remove the library ${item.mode === 'copy' ? 'copy' : 'link'} ${item.destination}? The download stays.`;
              if (dryRun || confirm(what)) onUndo(item);
            }}
          >
            Undo <span className="sr-only">import {item.id}</span>
          </button>
        )}
      </td>
    </tr>
  );
}

/** What the scanner put into the library (GET /api/history), newest first, each with its undo. */
export function Imports() {
  const queries = useQueryClient();
  const config = useConfig();
  const dryRun = config.data?.app.dry_run ?? true;
  const history = useInfiniteQuery({
    queryKey: queryKeys.history(),
    queryFn: ({ pageParam }) =>
      unwrap(api.GET('/api/history', { params: { query: pageParam === null ? { limit: PAGE } : { limit: PAGE, before: pageParam } } })),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next,
  });
  const undo = useMutation({
    mutationFn: (item: Import) => unwrap(api.POST('/api/history/{id}/undo', { params: { path: { id: String(item.id) } } })),
    onSettled: async () => {
      await queries.invalidateQueries({ queryKey: queryKeys.history() });
      await queries.invalidateQueries({ queryKey: queryKeys.downloads() });
    },
  });
  const items = history.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="imports-h">
      <h2 id="imports-h">Imports</h2>
      <ErrorNote error={history.error} />
      <ErrorNote error={undo.error} />
      {undo.data ? <UndoOutcome result={undo.data} /> : null}
      {history.isPending ? (
        <Loading what="imports" />
      ) : items.length === 0 ? (
        <Empty>Nothing has been imported into the library yet.</Empty>
      ) : (
        <table className="grid">
          <caption>Files the scanner put into the library, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Mode</th>
              <th scope="col">Download</th>
              <th scope="col">Library file</th>
              <th scope="col">Size</th>
              <th scope="col">
                <span className="sr-only">Undo</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <ImportRow key={item.id} item={item} dryRun={dryRun} onUndo={(i) => undo.mutate(i)} busy={undo.isPending} />
            ))}
          </tbody>
        </table>
      )}
      {history.hasNextPage ? (
        <button type="button" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
          Older imports
        </button>
      ) : null}
    </section>
  );
}
