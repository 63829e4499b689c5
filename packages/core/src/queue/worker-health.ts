import { QUEUE_NAMES, type WorkerRecord, type WorkersReport, type WorkerView } from '@mo/shared';

export const HEARTBEAT_MS = 10_000;
/** A worker that died without closing stays listed, as not alive, this long; then Redis drops it. */
export const WORKER_RECORD_TTL_MS = 5 * 60_000;
/** Beats a worker may miss and still count: one late beat is a busy event loop or a Redis blip, three are not. */
export const MISSED_BEATS = 3;

/** A record as read from Redis, with what is left of its lifetime (PTTL). */
export interface StoredWorker {
  record: WorkerRecord;
  pttlMs: number;
}

/**
 * How long ago the record was written, from what is left of its lifetime: measured on Redis's
 * clock alone, so a worker box whose clock is off is judged right. null for a key without a
 * lifetime (-1) or gone (-2): not something a heartbeat wrote.
 */
export function heartbeatAgeMs(ttlMs: number, pttlMs: number): number | null {
  if (pttlMs < 0) return null;
  return Math.max(0, ttlMs - pttlMs);
}

export function isAlive(ageMs: number, heartbeatMs: number): boolean {
  return ageMs <= MISSED_BEATS * heartbeatMs;
}

export function workerView({ record, pttlMs }: StoredWorker, nowMs: number): WorkerView | null {
  const age = heartbeatAgeMs(record.ttl_ms, pttlMs);
  if (age === null) return null;
  const { heartbeat_ms: beat, ttl_ms: _ttl, ...fields } = record;
  return { ...fields, last_seen: new Date(nowMs - age).toISOString(), alive: isAlive(age, beat) };
}

/** Every queue of the service, with the live workers consuming it: 0 means its jobs wait for ever. */
export function liveWorkersPerQueue(workers: readonly Pick<WorkerView, 'queues' | 'alive'>[]): WorkersReport['queues'] {
  const counts = Object.fromEntries(QUEUE_NAMES.map((q) => [q, { workers: 0 }])) as WorkersReport['queues'];
  for (const w of workers) {
    if (!w.alive) continue;
    for (const q of new Set(w.queues)) if (Object.hasOwn(counts, q)) counts[q as keyof typeof counts].workers++;
  }
  return counts;
}

export function workersReport(stored: readonly StoredWorker[], nowMs: number): WorkersReport {
  const workers = stored
    .map((s) => workerView(s, nowMs))
    .filter((w): w is WorkerView => w !== null)
    .sort((a, b) => a.host.localeCompare(b.host) || a.started_at.localeCompare(b.started_at) || a.id.localeCompare(b.id));
  return { workers, queues: liveWorkersPerQueue(workers) };
}
