/**
 * Dates and times as the family display writes them, through `Intl.DateTimeFormat` on the
 * family's zone and the page's locale: the daemon's page (its first clock) and the browser's
 * script (the clock, the days, "due Thu 26 Nov") use the same functions.
 *
 * Pure and shared: compiled by the daemon's project and the browser's (ES2017 with `Intl` as
 * Safari 12 has it: `DateTimeFormat` with `timeZone` and `formatToParts`; no
 * `RelativeTimeFormat`, `ListFormat` or `PluralRules`, which it lacks).
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

/** The family's local date and time at `ms`: `{date: 'YYYY-MM-DD', time: 'HH:mm'}`. */
export function localParts(ms: number, timeZone: string): { date: string; time: string } {
  // Numbers only, so the locale that writes them does not matter: en-GB gives them two digits.
  const f = formatOf('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(new Date(ms))) p[x.type] = x.value;
  // Some engines write midnight as 24:00.
  const hour = p.hour === '24' ? '00' : p.hour;
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${hour}:${p.minute}` };
}

/** A calendar date (`YYYY-MM-DD`) written by `options`; its zone does not move the day. */
function dateText(date: string, locale: string, options: Intl.DateTimeFormatOptions): string {
  return formatOf(locale, { ...options, timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
}

/** "Thursday". */
export function weekdayName(date: string, locale: string): string {
  return dateText(date, locale, { weekday: 'long' });
}

/** "26 November". */
export function dayAndMonth(date: string, locale: string): string {
  return dateText(date, locale, { day: 'numeric', month: 'long' });
}

/** "Thursday 26 November". */
export function fullDate(date: string, locale: string): string {
  return dateText(date, locale, { weekday: 'long', day: 'numeric', month: 'long' });
}

/** "Thu 26 Nov". */
export function shortDate(date: string, locale: string): string {
  return dateText(date, locale, { weekday: 'short', day: 'numeric', month: 'short' });
}

/** The calendar date after `date` (`YYYY-MM-DD`). */
export function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
