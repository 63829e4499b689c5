import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { Field } from '../components/form.tsx';
import { ErrorNote } from '../components/ui.tsx';

function AuthFrame({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <main className="auth page" data-page={id} id="main">
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/**
 * First run: the owner account, made with the one-time token the service printed at start (the set-up
 * link carries it). Once the account exists the session it made is the app's: App shows the Shell,
 * which leaves /setup for the first page.
 */
export function SetupPage() {
  const queries = useQueryClient();
  const [fromLink] = useState(() => new URLSearchParams(location.search).get('token') ?? '');
  const [token, setToken] = useState(fromLink);
  const [username, setUsername] = useState('admin');
  const [password, setPassword] = useState('');
  const setup = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/setup', { body: { token, username, password } })),
    onSuccess: async () => {
      history.replaceState(null, '', location.pathname);
      await queries.invalidateQueries();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setup.mutate();
  };
  return (
    <AuthFrame id="setup" title="Set up media-organizer">
      <p>
        Create the owner account: it manages media-organizer from the browser.{' '}
        {fromLink ? 'The link you opened works once.' : 'The set-up token is in the link the service printed when it started.'}
      </p>
      <form onSubmit={submit}>
        <Field label="Set-up token" path="token" error={setup.error} value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" required />
        <Field
          label="Username"
          path="username"
          error={setup.error}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username"
          required
        />
        <Field
          label="Password"
          path="password"
          hint="At least 10 characters"
          error={setup.error}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          minLength={10}
          maxLength={1024}
          required
        />
        <ErrorNote error={setup.error} />
        <button type="submit" disabled={setup.isPending}>
          Create owner
        </button>
      </form>
    </AuthFrame>
  );
}

export function LoginPage() {
  const queries = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/login', { body: { username, password } })),
    onSuccess: () => queries.invalidateQueries(),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <AuthFrame id="login" title="Log in">
      {/* The set-up link opened again, once the owner exists: it made its account already. */}
      {/\/setup$/.test(location.pathname) ? <p role="note">The owner account exists already: log in with it.</p> : null}
      <form onSubmit={submit}>
        <Field
          label="Username"
          path="username"
          error={login.error}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username"
          required
        />
        <Field
          label="Password"
          path="password"
          error={login.error}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          required
        />
        <ErrorNote error={login.error} />
        <button type="submit" disabled={login.isPending}>
          Log in
        </button>
      </form>
    </AuthFrame>
  );
}
