import { randomBytes } from 'node:crypto';
import type { State } from '@mo/shared';
import { AppError } from '../errors.ts';
import type { StateStore } from '../state/state-store.ts';
import { nextEntry, type EntryEvent, type TranscodeRecord } from './transcode-entries.ts';
import { claimable, type TranscodeEntry } from './transcoder-queue.ts';

export interface Claimed {
  entry: TranscodeEntry;
  job_id: string;
  priority: number;
}

/** The thin store around transcode-entries.ts: each change is one locked update of state.json. */
export interface TranscodeStore {
  /** Applies one event to one entry; throws the refusal as an AppError and then changes nothing. */
  apply(path: string, event: EntryEvent): Promise<TranscodeRecord | null>;
  /**
   * Applies events of jobs (cancel, settle) to every entry each event's job holds, all in one
   * write however many; returns the paths changed.
   */
  applyToJobs(events: readonly Extract<EntryEvent, { type: 'cancel' | 'settle' }>[]): Promise<string[]>;
  /** Claims up to `limit` entries in run order for new jobs, each with a new job id. */
  claim(queue: readonly TranscodeEntry[], limit: number): Promise<Claimed[]>;
  /** Gives back claimed entries whose jobs could not be queued, in one write however many. */
  unclaim(claimed: readonly Claimed[]): Promise<void>;
  setPaused(paused: boolean): Promise<void>;
}

/** Job ids are chosen before the job is queued, so an entry names its job from the moment it is claimed. */
export function newTranscodeJobId(): string {
  return `tr-${randomBytes(8).toString('hex')}`;
}

const record = (s: State, path: string) => (Object.hasOwn(s.transcodes, path) ? s.transcodes[path] : undefined);

function withRecord(s: State, path: string, next: TranscodeRecord | null): State {
  const { [path]: _, ...rest } = s.transcodes;
  return { ...s, transcodes: next ? { ...rest, [path]: next } : rest };
}

export function transcodeStore(state: StateStore<State>, now: () => string = () => new Date().toISOString()): TranscodeStore {
  return {
    async apply(path, event) {
      let after: TranscodeRecord | null = null;
      await state.update((s) => {
        const t = nextEntry(path, record(s, path), event, now());
        if (!t.ok) throw new AppError(t.refusal.code, t.refusal.message);
        after = t.entry;
        return withRecord(s, path, t.entry);
      });
      return after;
    },

    async applyToJobs(events) {
      const changed: string[] = [];
      const byJob = new Map(events.map((e) => [e.job_id, e]));
      await state.update((s) => {
        changed.length = 0;
        const transcodes = { ...s.transcodes };
        for (const [path, e] of Object.entries(s.transcodes)) {
          const event = e.job_id === null ? undefined : byJob.get(e.job_id);
          if (!event) continue;
          const t = nextEntry(path, e, event, now());
          if (!t.ok || t.entry === e) continue;
          if (t.entry) transcodes[path] = t.entry;
          else delete transcodes[path];
          changed.push(path);
        }
        return changed.length > 0 ? { ...s, transcodes } : s;
      });
      return changed;
    },

    async claim(queue, limit) {
      const claimed: Claimed[] = [];
      await state.update((s) => {
        claimed.length = 0;
        // One copy for the whole batch: run-all may claim tens of thousands of entries.
        const transcodes = { ...s.transcodes };
        for (const entry of claimable(queue, s.transcodes).slice(0, limit)) {
          const job_id = newTranscodeJobId();
          const t = nextEntry(entry.path, record(s, entry.path), { type: 'claim', job_id }, now());
          if (!t.ok || !t.entry) continue;
          transcodes[entry.path] = t.entry;
          claimed.push({ entry, job_id, priority: t.entry.priority });
        }
        return claimed.length > 0 ? { ...s, transcodes } : s;
      });
      return claimed;
    },

    async unclaim(claimed) {
      if (claimed.length === 0) return;
      await state.update((s) => {
        const transcodes = { ...s.transcodes };
        for (const c of claimed) {
          const t = nextEntry(c.entry.path, record(s, c.entry.path), { type: 'unclaim', job_id: c.job_id }, now());
          if (!t.ok) continue;
          if (t.entry) transcodes[c.entry.path] = t.entry;
          else delete transcodes[c.entry.path];
        }
        return { ...s, transcodes };
      });
    },

    async setPaused(paused) {
      await state.update((s) => (s.transcoder_paused === paused ? s : { ...s, transcoder_paused: paused }));
    },
  };
}
