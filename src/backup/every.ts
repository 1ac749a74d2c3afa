/**
 * How often the daemon writes a backup (`backup.every`): a duration such as `6h` or `1d` — a
 * backup that often, counted from the newest one — or a cron pattern such as `0 3 * * *` (five
 * or six fields, or a nickname like `@daily`) in the machine's time zone. A duration suits a
 * machine that sleeps or restarts (the next backup is due from the last one, whenever that
 * was); a cron pattern suits "every night at three", away from the household's busy hours.
 */
import { Cron } from 'croner';

export type BackupEvery = { kind: 'interval'; ms: number } | { kind: 'cron'; pattern: string };

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const DURATION = /^(\d{1,6})(m|h|d|w)$/;
/** More often than this is a mistake: each backup is a full copy of the store. */
const SHORTEST_MS = 5 * 60_000;

/** The schedule `text` names, or a sentence saying what is wrong with it. */
export function parseEvery(text: string): BackupEvery | string {
  const t = text.trim();
  const d = DURATION.exec(t);
  if (d) {
    const ms = Number(d[1]) * UNIT_MS[d[2] as keyof typeof UNIT_MS];
    if (ms < SHORTEST_MS)
      return `must be at least 5m (each backup copies the whole store), got "${text}"`;
    return { kind: 'interval', ms };
  }
  if (/^\d+\s*[a-z]*$/i.test(t))
    return `must be a duration such as 30m, 6h, 1d or 1w (minutes, hours, days, weeks) or a cron pattern, got "${text}"`;
  try {
    new Cron(t, { paused: true });
  } catch (err) {
    return `must be a duration such as 6h or 1d, or a cron pattern such as "0 3 * * *" (${(err as Error).message.replace(/^CronPattern: /, '')}), got "${text}"`;
  }
  return { kind: 'cron', pattern: t };
}

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
