/**
 * Dates, times and numbers as the family display writes them, through `Intl` on the family's
 * zone and the display's locale (docs/i18n.md): the daemon's page (its first clock) and the
 * browser's script (the clock, the days, "due Thu 26 Nov", "5:00 PM") use the same functions.
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

/**
 * How a locale writes (the page's `DisplayText` carries these): the tag `Intl` is given, whether
 * what it writes is accented (the pseudo-locale, docs/i18n.md) and the locale's clock.
 */
export interface Writing {
  intl: string;
  pseudo: boolean;
  hour12: boolean;
}

/** The pseudo-locale's letters for a…z and A…Z (àƀç…, ÀƁÇ…), as code points. */
const LOWER = [
  0xe0, 0x180, 0xe7, 0x10f, 0xe9, 0x192, 0x11d, 0x125, 0xee, 0x135, 0x137, 0x13c, 0x271, 0xf1, 0xf4,
  0xfe, 0x1eb, 0x155, 0x161, 0x163, 0xfb, 0x1e7d, 0x175, 0x1e8b, 0xfd, 0x17e,
];
const UPPER = [
  0xc0, 0x181, 0xc7, 0x10e, 0xc9, 0x191, 0x11c, 0x124, 0xce, 0x134, 0x136, 0x13b, 0x1e40, 0xd1,
  0xd4, 0xde, 0x1ea, 0x154, 0x160, 0x164, 0xdb, 0x1e7c, 0x174, 0x1e8a, 0xdd, 0x17d,
];

/** What `Intl` wrote, accented for the pseudo-locale (the same letters as the daemon's). */
function out(text: string, w: Writing): string {
  if (!w.pseudo) return text;
  return text.replace(/[a-z]/gi, (c) => {
    const code = c.charCodeAt(0);
    return String.fromCharCode(code >= 97 ? LOWER[code - 97] : UPPER[code - 65]);
  });
}

/** A space no line breaks at. */
const NO_BREAK = String.fromCharCode(0xa0);

/** A calendar date (`YYYY-MM-DD`) written by `options`; its zone does not move the day. */
function dateText(date: string, w: Writing, options: Intl.DateTimeFormatOptions): string {
  const f = formatOf(w.intl, { ...options, timeZone: 'UTC' });
  return out(f.format(new Date(`${date}T12:00:00Z`)), w);
}

/** "Thursday". */
export function weekdayName(date: string, w: Writing): string {
  return dateText(date, w, { weekday: 'long' });
}

/**
 * A text that starts a heading, its first letter a capital as the locale writes one: French,
 * Spanish, Portuguese and Dutch write weekday names in lower case ("vendredi"), which a
 * heading does not.
 */
export function headingCase(text: string, w: Writing): string {
  return text.charAt(0).toLocaleUpperCase(w.intl) + text.slice(1);
}

/** "26 November". */
export function dayAndMonth(date: string, w: Writing): string {
  return dateText(date, w, { day: 'numeric', month: 'long' });
}

/** "Thursday 26 November". */
export function fullDate(date: string, w: Writing): string {
  return dateText(date, w, { weekday: 'long', day: 'numeric', month: 'long' });
}

/** "Thu 26 Nov". */
export function shortDate(date: string, w: Writing): string {
  return dateText(date, w, { weekday: 'short', day: 'numeric', month: 'short' });
}

/**
 * A wall-clock time (`HH:mm`) on the locale's clock: "5:00 PM" (en-US), "17:00" (de-DE), with
 * the locale's digits (Arabic-Indic for ar-EG). As the daemon writes it (src/domain/i18n).
 */
export function clockTime(hhmm: string, w: Writing): string {
  const f = formatOf(w.intl, {
    hour: w.hour12 ? 'numeric' : '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  });
  // One piece on a line: "5:00 PM" never leaves its "PM" on the next.
  return out(f.format(new Date(`1970-01-01T${hhmm}:00Z`)), w).replace(/ /g, NO_BREAK);
}

const numbers = new Map<string, Intl.NumberFormat>();

/** A whole number as the locale writes it (its digits, its grouping). */
export function numberText(n: number, w: Writing): string {
  let f = numbers.get(w.intl);
  if (!f) {
    f = new Intl.NumberFormat(w.intl, { maximumFractionDigits: 0 });
    numbers.set(w.intl, f);
  }
  return f.format(n);
}

/** The calendar date after `date` (`YYYY-MM-DD`). */
export function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
