/**
 * Times on a shared plan, in the family's convention: the page is read by guests, who should
 * see the clock the household itself uses. Families have no 12/24-hour setting, so the family's
 * time zone decides: 12-hour (`3:30 PM`) for the zones of the United States and its territories,
 * 24-hour (`15:30`) everywhere else. The page names the zone beside the times.
 */
import { formatTime12 } from '../shared/time.js';
import { whenText } from './timing.js';

export type Clock = '12h' | '24h';

/** The United States' IANA zones (tz database zone1970.tab) and their common aliases. */
const US_ZONES = new Set([
  'America/New_York',
  'America/Detroit',
  'America/Chicago',
  'America/Menominee',
  'America/Denver',
  'America/Boise',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'America/Juneau',
  'America/Sitka',
  'America/Metlakatla',
  'America/Yakutat',
  'America/Nome',
  'America/Adak',
  'Pacific/Honolulu',
  'America/Puerto_Rico',
  'America/St_Thomas',
  'Pacific/Guam',
  'Pacific/Saipan',
  'Pacific/Pago_Pago',
  'America/Indianapolis',
  'America/Fort_Wayne',
  'America/Louisville',
  'America/Knox_IN',
  'America/Shiprock',
  'Navajo',
]);
const US_PREFIXES = ['US/', 'America/Indiana/', 'America/Kentucky/', 'America/North_Dakota/'];

export function clockOf(timezone: string): Clock {
  return US_ZONES.has(timezone) || US_PREFIXES.some((p) => timezone.startsWith(p)) ? '12h' : '24h';
}

export function formatTime(hhmm: string, clock: Clock): string {
  return clock === '12h' ? formatTime12(hhmm) : hhmm;
}

/**
 * A timed or all-day item as text, like itemWhenText but in the given clock:
 * "Sat, Jun 13, 2026, 12:30 – 15:00" or "Sat, Jun 13, 2026, 12:30 PM – 3:00 PM".
 */
export function itemWhen(
  t: { date: string; endDate: string | null; time: string | null; endTime: string | null },
  clock: Clock,
): string {
  const end = t.endDate && t.endDate > t.date ? t.endDate : t.date;
  if (!t.time) return whenText({ start: t.date, end });
  const from = `${whenText({ start: t.date, end: t.date })}, ${formatTime(t.time, clock)}`;
  if (end !== t.date)
    return `${from} – ${whenText({ start: end, end })}${t.endTime ? `, ${formatTime(t.endTime, clock)}` : ''}`;
  return t.endTime ? `${from} – ${formatTime(t.endTime, clock)}` : from;
}
