import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient, useMutation } from '@tanstack/react-query';
import { Link, Redirect, Route, Switch, useLocation, useRoute } from 'wouter';
import { api, unwrap } from './api/client.ts';
import { useConnected, useEventStream } from './api/live.ts';
import { queryKeys } from './api/query-keys.ts';
import { useCellLabels } from './components/cell-labels.ts';
import { ErrorNote, Loading } from './components/ui.tsx';
import { LoginPage, SetupPage } from './pages/Auth.tsx';
import { ActivityPage } from './pages/Activity.tsx';
import { DownloadsPage } from './pages/Downloads.tsx';
import { LibraryPage } from './pages/Library.tsx';
import { FilePage } from './pages/File.tsx';
import { FolderPage } from './pages/Folder.tsx';
import { OrganizePage } from './pages/Organize.tsx';
import { RecyclePage } from './pages/Recycle.tsx';
import { WantedPage } from './pages/Wanted.tsx';
import { SubtitlesPage } from './pages/Subtitles.tsx';
import { TranscodesPage } from './pages/Transcodes.tsx';
import { DuplicatesPage } from './pages/Duplicates.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { SystemPage } from './pages/System.tsx';

export const PAGES = [
  { path: '/activity', title: 'Activity', component: ActivityPage },
  { path: '/downloads', title: 'Downloads', component: DownloadsPage },
  { path: '/library', title: 'Library', component: LibraryPage },
  { path: '/wanted', title: 'Wanted', component: WantedPage },
  { path: '/subtitles', title: 'Subtitles', component: SubtitlesPage },
  { path: '/transcodes', title: 'Transcodes', component: TranscodesPage },
  { path: '/duplicates', title: 'Duplicates', component: DuplicatesPage },
  { path: '/settings', title: 'Settings', component: SettingsPage },
  { path: '/system', title: 'System', component: SystemPage },
] as const;

function NavLink({ path, title, onChoose }: { path: string; title: string; onChoose: () => void }) {
  const [here] = useRoute(`${path}/*?`);
  return (
    <Link href={path} aria-current={here ? 'page' : undefined} className={here ? 'active' : undefined} onClick={onChoose}>
      {title}
    </Link>
  );
}

/**
 * The page links; below 720 px they fold behind a Menu button (the stylesheet hides the button and
 * shows the links at wider screens, whatever the state). Escape closes the menu and returns focus to
 * the button; choosing a page closes it and puts focus on that page's content, so the next Tab goes on
 * from there rather than from a link that is no longer shown. A tap outside closes it too.
 */
function PagesNav() {
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  const button = useRef<HTMLButtonElement>(null);
  const chosen = useRef(false);
  const nav = useRef<HTMLElement>(null);
  // Back and forward close it too.
  useEffect(() => setOpen(false), [location]);
  // So does a tap anywhere outside it, as with any drop-down.
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!nav.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  useEffect(() => {
    if (open || !chosen.current) return;
    chosen.current = false;
    const main = document.getElementById('main');
    if (main) {
      main.tabIndex = -1;
      main.focus();
    }
  }, [open, location]);
  // Only while folded: at desktop width a link moves focus no more than any link does.
  const choose = () => {
    if (!open) return;
    chosen.current = true;
    setOpen(false);
  };
  return (
    <nav
      ref={nav}
      aria-label="Pages"
      className={open ? 'pages open' : 'pages'}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button ref={button} type="button" className="menu-button" aria-expanded={open} aria-controls="page-links" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <div id="page-links" className="page-links">
        {PAGES.map((p) => (
          <NavLink key={p.path} path={p.path} title={p.title} onChoose={choose} />
        ))}
      </div>
    </nav>
  );
}

function Shell({ username, localOpen }: { username: string | null; localOpen: boolean }) {
  const queries = useQueryClient();
  useEventStream(queries, true);
  useCellLabels();
  const connected = useConnected();
  const logout = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout')),
    onSuccess: () => queries.invalidateQueries(),
  });
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">media-organizer</span>
        <PagesNav />
        <span className="who">
          <span
            className={`live-dot ${connected ? 'on' : 'off'}`}
            title={connected ? 'Live updates connected' : 'Live updates reconnecting'}
            aria-hidden="true"
          />
          {username ? <span>{username}</span> : null}
          {username ? (
            <button type="button" className="link" onClick={() => logout.mutate()}>
              Log out
            </button>
          ) : null}
        </span>
      </header>
      {localOpen ? (
        <p className="warning banner" role="note">
          app.auth is "local_open": anyone on this computer can use the service without logging in.
        </p>
      ) : null}
      <Switch>
        <Route path="/">
          <Redirect to="/activity" replace />
        </Route>
        {/* The set-up link, once the owner exists (just made here, or opened again): the app. */}
        <Route path="/setup">
          <Redirect to="/activity" replace />
        </Route>
        <Route path="/library/file" component={FilePage} />
        <Route path="/library/folder" component={FolderPage} />
        <Route path="/library/recycle" component={RecyclePage} />
        <Route path="/library/organize" component={OrganizePage} />
        {PAGES.map((p) => (
          <Route key={p.path} path={p.path} component={p.component} />
        ))}
        <Route>
          <main className="page" id="main" data-page="not-found">
            <h1>Not found</h1>
            <p>
              There is no page here. <Link href="/activity">Go to Activity</Link>.
            </p>
          </main>
        </Route>
      </Switch>
    </div>
  );
}

export function App() {
  const status = useQuery({ queryKey: queryKeys.auth(), queryFn: () => unwrap(api.GET('/api/auth/status')) });
  if (status.isPending) return <Loading what="media-organizer" />;
  if (status.isError) return <ErrorNote error={status.error} />;
  const s = status.data;
  if (!s.authenticated) return s.owner ? <LoginPage /> : <SetupPage />;
  return <Shell username={s.username} localOpen={s.auth === 'local_open'} />;
}
