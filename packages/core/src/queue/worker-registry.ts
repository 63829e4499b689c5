import type { Redis } from 'ioredis';
import { workerRecordSchema, type WorkerRecord } from '@mo/shared';
import type { StoredWorker } from './worker-health.ts';

/** The set of worker ids readers start from: a listing without SCAN over a Redis others share. */
export function workerIndexKey(prefix: string): string {
  return `${prefix}:workers`;
}

export function workerRecordKey(prefix: string, id: string): string {
  return `${prefix}:worker:${id}`;
}

async function execAll(multi: ReturnType<Redis['multi']>, what: string): Promise<void> {
  const replies = await multi.exec();
  const failed = replies?.find(([err]) => err);
  if (!replies || failed) throw failed?.[0] ?? new Error(`${what} was not applied`);
}

/** Writes or renews a worker's record with its lifetime, and lists its id (again, after an expiry). */
export function saveWorkerRecord(client: Redis, prefix: string, record: WorkerRecord): Promise<void> {
  return execAll(
    client.multi().set(workerRecordKey(prefix, record.id), JSON.stringify(record), 'PX', record.ttl_ms).sadd(workerIndexKey(prefix), record.id),
    'the worker record',
  );
}

export function deleteWorkerRecord(client: Redis, prefix: string, id: string): Promise<void> {
  return execAll(client.multi().del(workerRecordKey(prefix, id)).srem(workerIndexKey(prefix), id), 'removing the worker record');
}

function parseRecord(text: string): WorkerRecord | null {
  try {
    const parsed = workerRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Every listed worker whose record has not expired, with what is left of its lifetime. Ids whose
 * record expired leave the list here, since their worker is not there to do it. A record that does
 * not read as one is skipped and left to expire.
 */
export async function readWorkerRecords(client: Redis, prefix: string): Promise<StoredWorker[]> {
  const ids = await client.smembers(workerIndexKey(prefix));
  if (ids.length === 0) return [];
  const pipeline = client.pipeline();
  for (const id of ids) pipeline.get(workerRecordKey(prefix, id)).pttl(workerRecordKey(prefix, id));
  const replies = (await pipeline.exec()) ?? [];
  const stored: StoredWorker[] = [];
  const expired: string[] = [];
  ids.forEach((id, i) => {
    const [[getErr, text], [ttlErr, pttl]] = [replies[2 * i] ?? [null, null], replies[2 * i + 1] ?? [null, -2]];
    if (getErr || ttlErr) throw getErr ?? ttlErr;
    if (text === null) return void expired.push(id);
    const record = parseRecord(String(text));
    if (record) stored.push({ record, pttlMs: Number(pttl) });
  });
  if (expired.length > 0) await client.srem(workerIndexKey(prefix), ...expired);
  return stored;
}
