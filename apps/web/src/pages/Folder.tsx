import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { api, unwrap } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { fileName } from '../components/format.ts';
import { PathText } from '../components/path-text.tsx';
import { ErrorNote, Loading, Page } from '../components/ui.tsx';
import { FolderFiles } from './Library.tsx';
import { libraryFolderAt } from './library-folder.ts';

/** One movie's or series' folder of the library, with its files: where a file's page leads back to. */
export function FolderPage() {
  const folder = new URLSearchParams(useSearch()).get('path') ?? '';
  const library = useQuery({
    queryKey: queryKeys.library.holding(folder),
    queryFn: () => unwrap(api.GET('/api/library', { params: { query: { holding: folder, limit: 1 } } })),
    enabled: folder !== '',
  });
  const found = library.data ? libraryFolderAt(folder, library.data) : null;
  return (
    <Page id="folder" title={found?.title ?? (fileName(folder) || 'Folder')}>
      <p>
        <Link href="/library">Back to the library</Link>
      </p>
      <p>
        <PathText path={folder} />
      </p>
      {library.isPending ? <Loading what="the library" /> : null}
      <ErrorNote error={library.error} />
      {library.data && !found ? <p className="muted">The library index lists no movie or series in this folder.</p> : null}
      {found ? (
        <section aria-labelledby="files-h">
          <h2 id="files-h">{found.kind === 'movie' ? 'Files of this movie' : 'Files of this series'}</h2>
          <FolderFiles folder={folder} />
        </section>
      ) : null}
    </Page>
  );
}
