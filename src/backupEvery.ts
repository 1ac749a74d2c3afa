/**
 * The grammar of `backup.every`, read where the configuration is loaded (src/config.ts): a
 * duration such as `6h` or `1d` — a backup that often, counted from the newest one — or a cron
 * pattern such as `0 3 * * *` (five or six fields, or a nickname like `@daily`) in the
 * machine's time zone. It sits beside the configuration, below every other floor, because
 * config.ts checks the value when it loads; when a backup is next due is src/backup/every.ts.
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
