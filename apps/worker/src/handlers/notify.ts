import type { JobHandler } from '@mo/core';
import { recordNotice } from '@mo/core/history';
import { notifyTarget } from '@mo/core/notify';
import { JOBS, notifyProgressSchema } from '@mo/shared';
import type { WorkerDeps } from '../deps.ts';

/**
 * Tells every enabled target of the config of the moment. A target that fails fails the attempt,
 * naming it, so that BullMQ retries with back-off; the retry tells only the targets not yet told,
 * so that a webhook is not sent twice because a media server was restarting. The error carries the
 * target's name and what it answered, never its URL or token. Once every target is told, or on the
 * last attempt, the outcome goes into the import history; failing to write it fails nothing.
 */
export function notifyHandler({ config }: WorkerDeps, timeoutMs?: number): JobHandler<'notify'> {
  return async (payload, ctx) => {
    const before = notifyProgressSchema.safeParse(ctx.progressSoFar);
    const told = new Set(before.success ? before.data.told : []);
    const failed: Record<string, string> = {};
    for (const target of config.current().notifications.targets) {
      if (!target.enabled || told.has(target.name)) continue;
      try {
        await notifyTarget(target, payload, timeoutMs);
        told.add(target.name);
        ctx.log.info({ target: target.name, kind: target.kind, files: payload.imports.length }, 'media server told');
      } catch (err) {
        failed[target.name] = (err as Error).message;
        ctx.log.warn({ target: target.name, kind: target.kind, err: (err as Error).message }, 'could not tell a media server');
      }
    }
    await ctx.progress({ told: [...told], failed });
    const names = Object.keys(failed);
    if (names.length === 0 || ctx.attempt >= JOBS.notify.defaults.attempts) {
      const at = new Date().toISOString();
      await recordNotice(config.current().paths.data, payload, { at, told: [...told], failed }).catch((err: Error) =>
        ctx.log.warn({ err: err.message }, 'could not record in the history what the media servers were told'),
      );
    }
    if (names.length > 0) throw new Error(`not told: ${names.map((n) => `${n} (${failed[n]})`).join('; ')}`);
    return { told: [...told] };
  };
}
