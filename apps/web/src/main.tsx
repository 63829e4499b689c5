import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Router } from 'wouter';
import './styles/app.css';
import { App } from './App.tsx';
import { servicePrefix } from './api/base.ts';
import { ApiError } from './api/client.ts';
import { queryKeys } from './api/query-keys.ts';
import { installOwnerStylesheet } from './theme.ts';

installOwnerStylesheet();

/** A 401 anywhere means the session ended (logout elsewhere, password changed): ask who we are again. */
function onError(err: unknown) {
  if (err instanceof ApiError && err.status === 401) void queries.invalidateQueries({ queryKey: queryKeys.auth() });
}

const queries: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again; a 503 (Redis down) may.
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <Router base={servicePrefix()}>
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
