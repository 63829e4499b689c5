import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Empty, ErrorNote, useConfig } from '../components/ui.tsx';

/**
 * `[library] aliases`: series names downloads use and the library folder each means, saved by
 * `Import as…` with Remember. Removing one saves at once.
 */
export function Aliases() {
  const queries = useQueryClient();
  const config = useConfig();
  const aliases = config.data?.library.aliases ?? [];
  const remove = useMutation({
    // One alias by the server, under the settings lock: a list sent whole from this page could drop
    // an alias a manual import remembered since the page loaded.
    mutationFn: (alias: { name: string; series: string }) => unwrap(api.POST('/api/imports/aliases/remove', { body: alias })),
    onSuccess: () => queries.invalidateQueries({ queryKey: queryKeys.config() }),
  });
  return (
    <section aria-labelledby="aliases-h">
      <h2 id="aliases-h">Aliases</h2>
      <p className="muted">A download named on the left goes to the library series on the right. Import as… with Remember adds one.</p>
      {aliases.length === 0 ? (
        <Empty>No aliases yet.</Empty>
      ) : (
        <ul className="alias-list">
          {aliases.map((a) => (
            <li key={`${a.name}\0${a.series}`}>
              <span>
                “{a.name}” → {a.series}
              </span>
              <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(a)}>
                Remove <span className="sr-only">alias {a.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={remove.error} />
    </section>
  );
}
