import type { Logger } from '@mo/core';
import { checkHardlinks, hardlinkWarning } from '@mo/core/fs';
import type { Config } from '@mo/shared';

/**
 * Once at start, by the worker that imports (the scan queue's): each drive that a hard link from the
 * downloads folder cannot reach, with both mounts named. That worker's own mounts are the ones its
 * link and rename calls meet; the API's `/api/ready` answers for the API's.
 */
export async function warnUnlinkableDrives(cfg: Pick<Config, 'paths' | 'drives'>, logger: Logger, check = checkHardlinks): Promise<void> {
  for (const d of await check(cfg)) {
    const message = hardlinkWarning(d);
    if (message) logger.warn({ drive: d.drive, downloads_mount: d.downloadsMount, drive_mount: d.driveMount, reason: d.problem }, message);
  }
}
