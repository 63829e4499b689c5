import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Schemas } from '@mo/api-client';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { emptyRecycleQuestion } from '../components/confirm-text.ts';
import { formatBytes } from '../components/format.ts';
import { PathText } from '../components/path-text.tsx';
import { DryRunBadge, Empty, ErrorNote, Loading, Page, useConfig, When } from '../components/ui.tsx';

type Item = Schemas['RecycleItem'];

const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** What a restore did, or with dry run on would do. */
function Restored({ result }: { result: Schemas['RecycleRestoreResult'] }) {
  return (
    <p role="status" data-testid="recycle-restored">
      {result.dry_run ? 'Dry run: nothing moved; it would go back to ' : 'Restored to '}
      <PathText path={result.original} />.
    </p>
  );
}

export function RecyclePage() {
  const queries = useQueryClient();
  const config = useConfig().data;
  const bin = useQuery({ queryKey: queryKeys.recycle(), queryFn: () => unwrap(api.GET('/api/recycle')) });
  const after = {
    onSettled: async () => {
      await queries.invalidateQueries({ queryKey: queryKeys.recycle() });
      await queries.invalidateQueries({ queryKey: queryKeys.dashboard() });
    },
  };
  const restore = useMutation({ mutationFn: (path: string) => unwrap(api.POST('/api/recycle/restore', { body: { path } })), ...after });
  // The paths the question counted: a file recycled meanwhile is not deleted unasked.
  const empty = useMutation({ mutationFn: (paths: string[]) => unwrap(api.POST('/api/recycle/empty', { body: { paths } })), ...after });
  const [asking, setAsking] = useState(false);
  const items = bin.data?.items ?? [];
  const days = config?.library.recycle_days;

  return (
    <Page
      id="recycle"
      title="Recycle bin"
      actions={
        <>
          <DryRunBadge />
          <button
            type="button"
            className="danger"
            disabled={items.length === 0 || empty.isPending}
            onClick={() => {
              restore.reset();
              empty.reset();
              setAsking(true);
            }}
          >
            Empty recycle bin
          </button>
        </>
      }
    >
      <p className="muted">
        Files the service replaced or removed from the library wait here, in each drive's <code>.recycle</code> folder
        {days === undefined
          ? ''
          : days === 0
            ? ', until the next daily purge deletes them'
            : `, for ${days} ${days === 1 ? 'day' : 'days'}; the daily purge then deletes them`}
        . <Link href="/library">Back to the library</Link>
      </p>
      {config && !config.library.recycle_bin ? (
        <p className="warning" data-testid="recycle-off">
          The recycle bin is off (<code>library.recycle_bin</code>): files the service replaces or removes are deleted at once. What is already here stays until
          purged.
        </p>
      ) : null}
      <ErrorNote error={bin.error} />
      <ErrorNote error={restore.error} />
      <ErrorNote error={empty.error} />
      {restore.data ? <Restored result={restore.data} /> : null}
      {empty.data ? (
        <p role="status" data-testid="recycle-emptied">
          {empty.data.dry_run ? 'Dry run: nothing deleted; it would delete' : 'Deleted'} {empty.data.removed.length.toLocaleString('en')}{' '}
          {empty.data.removed.length === 1 ? 'file' : 'files'} ({formatBytes(empty.data.bytes)}).
        </p>
      ) : null}
      {bin.isPending ? <Loading what="the recycle bin" /> : null}
      {bin.data && items.length === 0 ? <Empty>The recycle bin is empty.</Empty> : null}
      {items.length > 0 ? (
        <>
          <p className="summary" data-testid="recycle-summary">
            {bin.data!.files.toLocaleString('en')} {bin.data!.files === 1 ? 'file' : 'files'}, {formatBytes(bin.data!.bytes)}.
          </p>
          <table className="grid">
            <caption>Recycled files, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Recycled</th>
                <th scope="col">Original place</th>
                <th scope="col">In the bin</th>
                <th scope="col">Size</th>
                <th scope="col">
                  <span className="sr-only">Restore</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((i: Item) => (
                <tr key={i.path} data-path={i.path}>
                  <td>
                    <When at={i.recycled_at} />
                  </td>
                  <td>
                    <PathText path={i.original} />
                  </td>
                  <td>
                    <PathText path={i.path} />
                  </td>
                  <td className="num">{formatBytes(i.bytes)}</td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Restore ${fileName(i.original)}`}
                      disabled={restore.isPending}
                      onClick={() => {
                        empty.reset();
                        restore.mutate(i.path);
                      }}
                    >
                      Restore
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {asking && bin.data ? (
        <ConfirmDialog
          question={emptyRecycleQuestion(bin.data.files, formatBytes(bin.data.bytes))}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            empty.mutate(items.map((i) => i.path));
          }}
        />
      ) : null}
    </Page>
  );
}
