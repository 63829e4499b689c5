import { useEffect, useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { JobEvent } from '@mo/shared';
import { serviceOrigin, servicePrefix } from './base.ts';
import { STALE_BY_EVENT, queryKeys, staleAfterJob } from './query-keys.ts';

export interface LiveJob {
  queue: string;
  id: string;
  name: string;
  state: JobEvent['state'];
  progress?: unknown;
  error?: string | null;
  at: number;
}

type Listener = () => void;

/** Jobs the event stream has told of in this tab, newest first; the API stays the source of truth. */
class LiveJobs {
  private jobs = new Map<string, LiveJob>();
  private snapshot: LiveJob[] = [];
  private listeners = new Set<Listener>();
  connected = false;

  subscribe = (l: Listener) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  list = () => this.snapshot;

  replace(jobs: LiveJob[]) {
    this.jobs = new Map(jobs.map((j) => [`${j.queue}:${j.id}`, j]));
    this.publish();
  }

  upsert(job: LiveJob) {
    const key = `${job.queue}:${job.id}`;
    const before = this.jobs.get(key);
    this.jobs.set(key, { ...before, ...job, name: job.name || before?.name || '', progress: job.progress ?? before?.progress });
    // A tab left open for days keeps the last hundred finished jobs, not all of them.
    const finished = [...this.jobs.values()].filter((j) => j.state === 'completed' || j.state === 'failed').sort((a, b) => b.at - a.at);
    for (const old of finished.slice(100)) this.jobs.delete(`${old.queue}:${old.id}`);
    this.publish();
  }

  setConnected(connected: boolean) {
    this.connected = connected;
    this.publish();
  }

  private publish() {
    this.snapshot = [...this.jobs.values()].sort((a, b) => b.at - a.at);
    for (const l of this.listeners) l();
  }
}

export const liveJobs = new LiveJobs();

export function useLiveJobs(): LiveJob[] {
  return useSyncExternalStore(liveJobs.subscribe, liveJobs.list);
}

export function useConnected(): boolean {
  return useSyncExternalStore(liveJobs.subscribe, () => liveJobs.connected);
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

function asJob(v: unknown): LiveJob | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.queue !== 'string' || typeof o.id !== 'string') return null;
  const state = o.state === 'progress' ? 'active' : o.state;
  return {
    queue: o.queue,
    id: o.id,
    name: typeof o.name === 'string' ? o.name : '',
    state: (typeof state === 'string' ? state : 'active') as LiveJob['state'],
    progress: o.progress,
    error: typeof o.error === 'string' ? o.error : null,
    at: Date.now(),
  };
}

/**
 * One EventSource a tab. Events only say that something changed: the UI re-fetches what they make
 * stale, and after a reconnect re-fetches everything rather than trust what it may have missed.
 */
export function useEventStream(queries: QueryClient, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource(`${serviceOrigin()}${servicePrefix()}/api/events`, { withCredentials: true });
    let lostOnce = false;
    source.onopen = () => {
      liveJobs.setConnected(true);
      if (lostOnce) void queries.invalidateQueries();
    };
    source.onerror = () => {
      lostOnce = true;
      liveJobs.setConnected(false);
    };
    source.addEventListener('snapshot', (e) => {
      const data = parse((e as MessageEvent<string>).data) as { jobs?: unknown[] } | undefined;
      const jobs = (data?.jobs ?? []).map(asJob).filter((j): j is LiveJob => j !== null);
      liveJobs.replace(jobs);
    });
    source.addEventListener('job', (e) => {
      const data = parse((e as MessageEvent<string>).data);
      const job = asJob(data);
      if (!job) return;
      liveJobs.upsert(job);
      // A start or an end changes the list of jobs (their times); progress, about once a second, does not.
      if ((data as { state?: unknown }).state !== 'progress') void queries.invalidateQueries({ queryKey: queryKeys.jobs.all() });
      if (job.state === 'completed' || job.state === 'failed') {
        for (const key of staleAfterJob(job.queue)) void queries.invalidateQueries({ queryKey: key });
      }
    });
    for (const [name, keys] of Object.entries(STALE_BY_EVENT)) {
      source.addEventListener(name, () => {
        for (const key of keys) void queries.invalidateQueries({ queryKey: key });
      });
    }
    return () => {
      source.close();
      liveJobs.setConnected(false);
    };
  }, [queries, enabled]);
}
