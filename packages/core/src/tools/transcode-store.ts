import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { TranscodeChange, TranscodeRecords, TranscodeRecordsView } from '../state/transcode-records.ts';
import { nextEntry, type EntryEvent, type TranscodeRecord } from './transcode-entries.ts';
import { claimable, type TranscodeEntry } from './transcoder-queue.ts';

export interface Claimed {
  entry: TranscodeEntry;
  job_id: string;
  priority: number;
}

/** The thin store around transcode-entries.ts: each change is one locked append of the changed entries to the transcode log. */
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

const record = (r: TranscodeRecordsView, path: string) => (Object.hasOwn(r.transcodes, path) ? r.transcodes[path] : undefined);

export function transcodeStore(records: TranscodeRecords, now: () => string = () => new Date().toISOString()): TranscodeStore {
  return {
    async apply(path, event) {
      let after: TranscodeRecord | null = null;
      await records.update((r) => {
        const t = nextEntry(path, record(r, path), event, now());
        if (!t.ok) throw new AppError(t.refusal.code, t.refusal.message);
        after = t.entry;
        return t.entry === record(r, path) ? [] : [{ path, entry: t.entry }];
      });
      return after;
    },

    async applyToJobs(events) {
      const byJob = new Map(events.map((e) => [e.job_id, e]));
      let changes: { path: string; entry: TranscodeRecord | null }[] = [];
      await records.update((r) => {
        changes = [];
        for (const [path, e] of Object.entries(r.transcodes)) {
          const event = e.job_id === null ? undefined : byJob.get(e.job_id);
          if (!event) continue;
          const t = nextEntry(path, e, event, now());
          if (t.ok && t.entry !== e) changes.push({ path, entry: t.entry });
        }
        return changes;
      });
      return changes.map((c) => c.path);
    },

    async claim(queue, limit) {
      const claimed: Claimed[] = [];
      await records.update((r) => {
        claimed.length = 0;
        const changes: TranscodeChange[] = [];
        for (const entry of claimable(queue, r.transcodes).slice(0, limit)) {
          const job_id = newTranscodeJobId();
          const t = nextEntry(entry.path, record(r, entry.path), { type: 'claim', job_id }, now());
          if (!t.ok || !t.entry) continue;
          changes.push({ path: entry.path, entry: t.entry });
          claimed.push({ entry, job_id, priority: t.entry.priority });
        }
        return changes;
      });
      return claimed;
    },

    async unclaim(claimed) {
      if (claimed.length === 0) return;
      await records.update((r) => {
        const changes: TranscodeChange[] = [];
        for (const c of claimed) {
          const t = nextEntry(c.entry.path, record(r, c.entry.path), { type: 'unclaim', job_id: c.job_id }, now());
          if (t.ok && t.entry !== record(r, c.entry.path)) changes.push({ path: c.entry.path, entry: t.entry });
        }
        return changes;
      });
    },

    async setPaused(paused) {
      await records.update((r) => (r.paused === paused ? [] : [{ paused }]));
    },
  };
}
