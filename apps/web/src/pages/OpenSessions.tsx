import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { ErrorNote, Loading, When } from '../components/ui.tsx';

/** The browsers and scripts logged in as the owner; an ended one is sent to the login form at its next request. */
export function OpenSessions() {
  const queries = useQueryClient();
  const sessions = useQuery({ queryKey: queryKeys.sessions(), queryFn: () => unwrap(api.GET('/api/auth/sessions')) });
  const end = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/auth/sessions/{id}/end', { params: { path: { id } } })),
    onSuccess: async (_, id) => {
      // Ending this browser's own session is a logout: asking who we are again shows the login form.
      if (sessions.data?.sessions.find((s) => s.id === id)?.current) await queries.invalidateQueries({ queryKey: queryKeys.auth() });
    },
    // Also after a 404: the session went some other way, and the list shows it.
    onSettled: () => queries.invalidateQueries({ queryKey: queryKeys.sessions() }),
  });
  return (
    <section aria-labelledby="sessions-h" className="sessions">
      <h2 id="sessions-h">Open sessions</h2>
      {sessions.isPending ? <Loading what="sessions" /> : null}
      <ErrorNote error={sessions.error} />
      {sessions.data ? (
        <table className="grid" aria-labelledby="sessions-h">
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Address</th>
              <th scope="col">Logged in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.sessions.map((s) => (
              <tr key={s.id} data-session={s.id} data-current={s.current}>
                <td id={`session-${s.id}`}>
                  {s.user_agent ?? 'unknown'} {s.current ? <span className="badge">this browser</span> : null}
                </td>
                <td>{s.address ?? 'unknown'}</td>
                <td>
                  <When at={s.created_at} />
                </td>
                <td>
                  <When at={s.last_seen_at} />
                </td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-describedby={`session-${s.id}`}
                    disabled={end.isPending}
                    onClick={() => {
                      if (!s.current || confirm('This logs this browser out. End this session?')) end.mutate(s.id);
                    }}
                  >
                    End
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ErrorNote error={end.error} />
    </section>
  );
}
