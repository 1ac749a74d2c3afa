/**
 * How often the daemon writes a backup (`backup.every`): a duration such as `6h` or `1d` — a
 * backup that often, counted from the newest one — or a cron pattern such as `0 3 * * *` (five
 * or six fields, or a nickname like `@daily`) in the machine's time zone. A duration suits a
 * machine that sleeps or restarts (the next backup is due from the last one, whenever that
 * was); a cron pattern suits "every night at three", away from the household's busy hours.
 */
import { Cron } from 'croner';
import type { BackupEvery } from '../backupEvery.js';

// The grammar lives beside the configuration, which checks it when it loads.
export { parseEvery, type BackupEvery } from '../backupEvery.js';

/**
 * When the next backup is due: one `every` after the newest backup (none yet: now). A due time
 * that passed while the daemon was down is due now — once, not once per missed time.
 */
export function nextBackupAt(
  every: BackupEvery,
  newest: Date | null,
  now: Date,
  timezone?: string,
): Date {
  if (!newest) return now;
  const next =
    every.kind === 'interval'
      ? new Date(newest.getTime() + every.ms)
      : (new Cron(every.pattern, { paused: true, ...(timezone ? { timezone } : {}) }).nextRun(
          newest,
        ) ?? new Date(8.64e15));
  return next < now ? now : next;
}
