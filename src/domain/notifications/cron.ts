/**
 * Cron times of routines, with croner (pure: it computes from the instant it is given). In the
 * routine's time zone a time that a DST change skips fires once at the next valid minute
 * (02:30 on a spring-forward night → 03:00), and a fixed time in a repeated hour fires once.
 */
import { Cron } from 'croner';
import { Invalid } from '../shared/errors.js';
import { normalizeTimeZone } from '../shared/time.js';

/** Checks the pattern (croner's five- or six-field syntax and nicknames such as @daily). */
export function checkCron(pattern: string, path: (string | number)[] = ['cron']): void {
  try {
    new Cron(pattern, { paused: true });
  } catch (err) {
    throw Invalid.at(
      path,
      `is not a valid cron pattern: ${(err as Error).message.replace(/^CronPattern: /, '')}`,
    );
  }
}

/** The zone's IANA name, or 400 naming the field. */
export function checkTimeZone(tz: string, path: (string | number)[] = ['timezone']): string {
  const zone = normalizeTimeZone(tz);
  if (!zone) throw Invalid.at(path, `is not an IANA time zone: ${tz}`);
  return zone;
}

/** The first cron time strictly after `after`, or null when the pattern never fires again. */
export function nextCronRun(pattern: string, timezone: string, after: Date): Date | null {
  return new Cron(pattern, { paused: true, timezone }).nextRun(after);
}
