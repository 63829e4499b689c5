import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { codecName, containerName, fileName, formatBytes, formatDuration, languageName } from '../components/format.ts';
import { PathText } from '../components/path-text.tsx';
import { DryRunBadge, ErrorNote, Loading, Page, useConfig } from '../components/ui.tsx';
import { folderHref, libraryFolderOf } from './library-folder.ts';

type Action = 'set_default' | 'remove';

/** A stream's language in words, its tag beside it: "English (eng)". */
function Language({ code }: { code: string | null }) {
  const name = languageName(code);
  if (!name) return <span className="muted">–</span>;
  return (
    <>
      {name}
      {name !== code ? <span className="muted"> ({code})</span> : null}
    </>
  );
}

/** The movie or series the file belongs to, as the library index lists it, linked to its folder. */
function PartOf({ path }: { path: string }) {
  const library = useQuery({
    queryKey: queryKeys.library.holding(path),
    // The one title holding the file, not the whole library: a large library's answer is megabytes.
    queryFn: () => unwrap(api.GET('/api/library', { params: { query: { holding: path, limit: 1 } } })),
  });
  const folder = library.data ? libraryFolderOf(path, library.data) : null;
  if (!folder) return null;
  return (
    <p className="part-of">
      {folder.kind === 'movie' ? 'Movie: ' : 'Series: '}
      <Link href={folderHref(folder.folder)}>{folder.title}</Link>
    </p>
  );
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

export function FilePage() {
  const path = new URLSearchParams(useSearch()).get('path') ?? '';
  const queries = useQueryClient();
  const probe = useQuery({
    queryKey: queryKeys.probe.file(path),
    queryFn: () => unwrap(api.GET('/api/media/probe', { params: { query: { path } } })),
    enabled: path !== '',
  });
  const edit = useMutation({
    mutationFn: (v: { action: Action; stream: number }) =>
      unwrap(api.POST('/api/media/tracks', { params: { query: { wait: 300 } }, body: { path, action: v.action, stream: v.stream } })),
    onSuccess: (data) => {
      if ('streams' in data && !data.dry_run) void queries.invalidateQueries({ queryKey: queryKeys.probe.file(path) });
    },
  });
  // A remove rewrites the file without the stream, for good: asked first unless dry run is known to be on.
  const dryRun = useConfig().data?.app.dry_run === true;
  const name = fileName(path);
  const result = edit.data;
  return (
    <Page id="file" title={name || 'File'} actions={<DryRunBadge />}>
      {path ? <PartOf path={path} /> : null}
      <p>
        <PathText path={path} />
      </p>
      {probe.isPending && path ? <Loading what="streams" /> : null}
      <ErrorNote error={probe.error} />
      {probe.data ? (
        <>
          <p className="muted">
            <span data-testid="container">{containerName(probe.data.container) ?? 'unknown container'}</span> · {formatDuration(probe.data.duration_seconds)} ·{' '}
            {formatBytes(probe.data.size_bytes)}
          </p>
          <table className="grid streams">
            <caption>Streams</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Type</th>
                <th scope="col">Codec</th>
                <th scope="col">Language</th>
                <th scope="col">Title</th>
                <th scope="col">Flags</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {probe.data.streams.map((s) => (
                <tr key={s.index} data-stream={s.index}>
                  <td>{s.index}</td>
                  <td>{s.type}</td>
                  <td>
                    {codecName(s.codec) ?? '–'}
                    {s.width ? ` ${s.width}×${s.height}` : ''}
                    {s.channels ? ` ${s.channels} ch` : ''}
                  </td>
                  <td>
                    <Language code={s.language} />
                  </td>
                  <td>{s.title ?? ''}</td>
                  <td>{[s.default ? 'default' : '', s.forced ? 'forced' : ''].filter(Boolean).join(', ')}</td>
                  <td>
                    {s.type !== 'video' ? (
                      <span className="row-actions">
                        <button type="button" disabled={edit.isPending || s.default} onClick={() => edit.mutate({ action: 'set_default', stream: s.index })}>
                          Set default <span className="sr-only">stream {s.index}</span>
                        </button>
                        <button
                          type="button"
                          className="danger"
                          disabled={edit.isPending}
                          onClick={() => {
                            const what = `${s.type} stream ${s.index}${s.language ? ` (${languageName(s.language)})` : ''}`;
                            if (dryRun || confirm(`Remove ${what} from ${name}? The file is rewritten without it; this cannot be undone.`)) {
                              edit.mutate({ action: 'remove', stream: s.index });
                            }
                          }}
                        >
                          Remove <span className="sr-only">stream {s.index}</span>
                        </button>
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {edit.isPending ? <p role="status">Remuxing…</p> : null}
      <ErrorNote error={edit.error} />
      {result && 'command' in result ? (
        <section aria-labelledby="cmd-h" className="command">
          <h2 id="cmd-h">{result.dry_run ? 'Dry run: the command that would run' : 'Done: the command that ran'}</h2>
          <pre>
            <code>{result.command.map(shellQuote).join(' ')}</code>
          </pre>
        </section>
      ) : result && 'job' in result ? (
        <p role="status">The remux of {name} is queued; Activity shows it.</p>
      ) : null}
    </Page>
  );
}
