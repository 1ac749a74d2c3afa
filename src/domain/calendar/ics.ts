/**
 * RFC 5545 writer for the public calendar share feed: text escaping, line folding, VEVENTs and
 * the VCALENDAR around them (docs/feeds.md). Pure: the caller passes the
 * selected events already mapped to IcsEvent, and `now`.
 *
 * Decisions:
 * - Timed events are written in their own zone — the event's `timeZone`, else the family's
 *   (`DTSTART;TZID=Europe/Berlin:20260329T093000`) — with a generated VTIMEZONE for each zone
 *   used, so a weekly 09:00 stays at 09:00 of its zone across DST in every client. A zone that
 *   is UTC in all but name gets `…Z` times and no VTIMEZONE.
 * - The VTIMEZONEs come from icsTimezone.ts, for the years each zone is used in (icsYears.ts:
 *   from the year before the first date in use to the last one or the current year); the
 *   calendar's own zone first, then the others by name, so the text is the same every time.
 * - The input types (IcsEvent, IcsCalendar, …) are in icsTypes.ts.
 * - DTSTAMP is the event's updatedAt: RFC 5545 §3.8.7.2 asks for the last revision when the
 *   object has no METHOD, and it keeps the body byte-identical while nothing changes (ETags).
 *   `now` only widens the VTIMEZONE's range to the current year.
 * - STATUS: active and done → CONFIRMED (done is a household to-do state; the event happened),
 *   archived → CANCELLED.
 * - A timed event ends at endDate/endTime; with an endDate after its date but no endTime, at the
 *   end of endDate; else after durationMinutes (default 60). All-day DTEND is exclusive.
 * - A weekly RRULE whose BYDAY misses the start's weekday gets an RDATE for the start, because
 *   the start always counts (recurrence.ts) and ical.js would otherwise drop it.
 * - A date-only UNTIL becomes the UTC end of that local day for timed series (RFC 5545 wants
 *   UNTIL in UTC when DTSTART has a TZID). Exdates and overrides use DTSTART's value type, are
 *   ignored on events without an rrule, and an override on an excluded date is left out.
 * - EXDATEs are one property each (ical-expander reads only the first value of each).
 * - A repeating event of an external feed keeps its own rule and zone (`own`): DTSTART, RRULE,
 *   RDATE, EXDATE and RECURRENCE-ID are written as the feed wrote them, in its zone (with a
 *   VTIMEZONE for it), since its rule may not mean the same in the family's zone. Its changed
 *   occurrences are written in the family's zone like any other.
 */
import {
  addDays,
  daysBetween,
  instantToLocal,
  isUtcZone,
  localToInstant,
  parseCalendarDate,
  parseLocalTime,
  weekday,
} from '../shared/time.js';
import { vtimezone } from './icsTimezone.js';
import { BYDAY } from './recurrence.js';
import {
  isAllDay,
  type IcsCalendar,
  type IcsEvent,
  type IcsFields,
  type IcsOverride,
  type IcsOwnSeries,
  type IcsStatus,
  type IcsTiming,
} from './icsTypes.js';
import { zonesInUse } from './icsYears.js';

/**
 * The UID of a stored event: its own id at its family's id. Calendar clients key subscribed
 * events by UID, so nothing configurable may go into it: a UID built from the public URL's host
 * made every event look new when an install set HOUSEHOLD_PUBLIC_URL. Ids never change, and an
 * event id is unique on its own; the family id keeps two installs' feeds apart in one client.
 */
export function eventUid(familyId: string, eventId: string): string {
  return `${eventId}@${familyId}.household-organizer`;
}

const DEFAULT_PRODID = '-//Household Organizer//Calendar Share//EN';
const STATUS: Record<IcsStatus, string> = {
  active: 'CONFIRMED',
  done: 'CONFIRMED',
  archived: 'CANCELLED',
};

/** The whole VCALENDAR, CRLF-terminated and folded. */
export function renderCalendar(cal: IcsCalendar): string {
  const lines: string[] = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(cal.prodId ?? DEFAULT_PRODID)}`,
    'CALSCALE:GREGORIAN',
  ];
  if (!cal.object) {
    lines.push(
      `NAME:${escapeText(cal.name)}`,
      `X-WR-CALNAME:${escapeText(cal.name)}`,
      `X-WR-TIMEZONE:${escapeText(cal.timezone)}`,
      'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
      'X-PUBLISHED-TTL:PT1H',
    );
  }
  const zones = [...zonesInUse(cal.events, cal.timezone)].sort(([a], [b]) =>
    a === cal.timezone ? -1 : b === cal.timezone ? 1 : a < b ? -1 : 1,
  );
  for (const [tz, y] of zones) {
    if (utcLike(tz)) continue;
    lines.push(...vtimezone(tz, y.first - 1, Math.max(y.last, cal.now.getUTCFullYear())));
  }
  for (const ev of cal.events) {
    const tz = ev.timeZone ?? cal.timezone;
    lines.push(...vevents(ev, { tz, utc: utcLike(tz) }));
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** TEXT escaping (RFC 5545 §3.3.11); other control characters, invalid in TEXT, are dropped. */
export function escapeText(s: string): string {
  return (
    s
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '')
  );
}

/**
 * Folds a content line into physical lines of at most 75 octets (UTF-8), CRLF + one space
 * between them, never inside a character (RFC 5545 §3.1).
 */
export function foldLine(line: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of line) {
    const cp = ch.codePointAt(0)!;
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + n > 75) {
      out += '\r\n ';
      bytes = 1;
    }
    out += ch;
    bytes += n;
  }
  return out;
}

// ---- events ---------------------------------------------------------------------------------

interface Zone {
  tz: string;
  utc: boolean;
}

const utcZones = new Map<string, boolean>();

/** isUtcZone, remembered (it scans the zone's history). */
function utcLike(tz: string): boolean {
  let utc = utcZones.get(tz);
  if (utc === undefined) utcZones.set(tz, (utc = isUtcZone(tz)));
  return utc;
}

function vevents(ev: IcsEvent, zone: Zone): string[] {
  if (ev.own) return ownVevents(ev, ev.own, zone);
  const allDay = isAllDay(ev);
  const out = ['BEGIN:VEVENT', `UID:${escapeText(ev.uid)}`, `DTSTAMP:${utcStamp(ev.updatedAt)}`];
  out.push(...timingLines(ev, zone));
  if (ev.rrule) {
    out.push(`RRULE:${untilForStart(ev.rrule, allDay, zone)}`);
    if (startOutsideRule(ev.rrule, ev.date)) out.push(startValue('RDATE', ev.date, ev, zone));
    for (const d of ev.exdates ?? []) out.push(startValue('EXDATE', d, ev, zone));
  }
  out.push(...fieldLines(ev));
  if (ev.createdAt) out.push(`CREATED:${utcStamp(ev.createdAt)}`);
  out.push(`LAST-MODIFIED:${utcStamp(ev.updatedAt)}`, ...(ev.extra ?? []), 'END:VEVENT');
  if (!ev.rrule) return out;
  const excluded = new Set(ev.exdates ?? []);
  for (const o of ev.overrides ?? []) {
    if (excluded.has(o.recurrenceDate)) continue; // removed wins over changed
    out.push(
      ...overrideVevent(ev, o, startValue('RECURRENCE-ID', o.recurrenceDate, ev, zone), zone),
    );
  }
  return out;
}

/** A value of an own-zone series: a date, a UTC time for UTC-like zones, else TZID + wall clock. */
function ownValue(name: string, value: string, own: IcsOwnSeries): string {
  if (own.tz === null) return `${name};VALUE=DATE:${compactDate(value)}`;
  const wall = `${compactDate(value.slice(0, 10))}T${value.slice(11).replaceAll(':', '')}`;
  // A zone that is UTC in all but name: its wall clock is UTC.
  if (utcLike(own.tz)) return `${name}:${wall}Z`;
  return `${name};TZID=${paramValue(own.tz)}:${wall}`;
}

function ownVevents(ev: IcsEvent, own: IcsOwnSeries, zone: Zone): string[] {
  const out = ['BEGIN:VEVENT', `UID:${escapeText(ev.uid)}`, `DTSTAMP:${utcStamp(ev.updatedAt)}`];
  out.push(ownValue('DTSTART', own.start, own), ownValue('DTEND', own.end, own));
  if (own.rrule) out.push(`RRULE:${own.rrule}`);
  for (const d of own.rdates) out.push(ownValue('RDATE', d, own));
  for (const d of own.exdates) out.push(ownValue('EXDATE', d, own));
  out.push(...fieldLines(ev));
  if (ev.createdAt) out.push(`CREATED:${utcStamp(ev.createdAt)}`);
  out.push(`LAST-MODIFIED:${utcStamp(ev.updatedAt)}`, ...(ev.extra ?? []), 'END:VEVENT');
  for (const o of ev.overrides ?? []) {
    const rid = own.recurrenceIds[o.recurrenceDate];
    if (rid === undefined) continue;
    out.push(...overrideVevent(ev, o, ownValue('RECURRENCE-ID', rid, own), zone));
  }
  return out;
}

/** The VEVENT of one changed occurrence, named by its RECURRENCE-ID line. */
function overrideVevent(ev: IcsEvent, o: IcsOverride, recurrenceId: string, zone: Zone): string[] {
  const stamp = o.updatedAt ?? ev.updatedAt;
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(ev.uid)}`,
    `DTSTAMP:${utcStamp(stamp)}`,
    recurrenceId,
    ...timingLines(overrideTiming(ev, o), zone),
    ...fieldLines({ ...pickFields(ev), ...pickFields(o) }),
    `LAST-MODIFIED:${utcStamp(stamp)}`,
    ...(o.extra ?? []),
    'END:VEVENT',
  ];
}

function fieldLines(f: IcsFields): string[] {
  const out: string[] = [];
  if (f.summary !== undefined) out.push(`SUMMARY:${escapeText(f.summary)}`);
  if (f.description) out.push(`DESCRIPTION:${escapeText(f.description)}`);
  if (f.location) out.push(`LOCATION:${escapeText(f.location)}`);
  out.push(`STATUS:${STATUS[f.status ?? 'active']}`);
  return out;
}

function pickFields(f: IcsFields): IcsFields {
  const out: IcsFields = {};
  if (f.summary !== undefined) out.summary = f.summary;
  if (f.description !== undefined) out.description = f.description;
  if (f.location !== undefined) out.location = f.location;
  if (f.status !== undefined) out.status = f.status;
  return out;
}

/** The series' timing moved to the occurrence's date, then the override's own fields on top. */
function overrideTiming(ev: IcsEvent, o: IcsOverride): IcsTiming {
  const span = ev.endDate ? daysBetween(ev.date, ev.endDate) : 0;
  const date = o.date ?? o.recurrenceDate;
  return {
    date,
    endDate: o.endDate ?? (span > 0 ? addDays(date, span) : undefined),
    // A key present on the override wins even when it is undefined: an occurrence may drop
    // the series' end time or duration.
    time: 'time' in o ? o.time : ev.time,
    endTime: 'endTime' in o ? o.endTime : ev.endTime,
    allDay: 'allDay' in o ? o.allDay : ev.allDay,
    durationMinutes: 'durationMinutes' in o ? o.durationMinutes : ev.durationMinutes,
  };
}

function timingLines(t: IcsTiming, zone: Zone): string[] {
  if (isAllDay(t)) {
    // DTEND of an all-day event is exclusive: the day after the inclusive endDate.
    return [
      `DTSTART;VALUE=DATE:${compactDate(t.date)}`,
      `DTEND;VALUE=DATE:${compactDate(addDays(t.endDate ?? t.date, 1))}`,
    ];
  }
  const time = requireTime(t.time!);
  let end: { date: string; time: string };
  if (t.endTime) {
    end = { date: t.endDate ?? t.date, time: requireTime(t.endTime) };
  } else if (t.endDate && t.endDate > t.date) {
    end = { date: addDays(t.endDate, 1), time: '00:00' };
  } else {
    const startMs = localToInstant(t.date, time, zone.tz).getTime();
    end = instantToLocal(new Date(startMs + (t.durationMinutes ?? 60) * 60_000), zone.tz);
  }
  return [dateTime('DTSTART', t.date, time, zone), dateTime('DTEND', end.date, end.time, zone)];
}

/** A property holding an occurrence start on `date`, typed like the series' DTSTART. */
function startValue(name: string, date: string, ev: IcsEvent, zone: Zone): string {
  return isAllDay(ev)
    ? `${name};VALUE=DATE:${compactDate(date)}`
    : dateTime(name, date, requireTime(ev.time!), zone);
}

function dateTime(name: string, date: string, time: string, zone: Zone): string {
  if (zone.utc) return `${name}:${utcStamp(localToInstant(date, time, zone.tz))}`;
  return `${name};TZID=${paramValue(zone.tz)}:${compactDate(date)}T${time.replace(':', '')}00`;
}

function untilForStart(rrule: string, allDay: boolean, zone: Zone): string {
  if (allDay) return rrule;
  return rrule.replace(
    /(^|;)UNTIL=(\d{4})(\d{2})(\d{2})(?=;|$)/,
    (_m, sep: string, y: string, mo: string, d: string) => {
      // The last instant of the local until-day, in UTC.
      const nextDay = addDays(`${y}-${mo}-${d}`, 1);
      return `${sep}UNTIL=${utcStamp(new Date(localToInstant(nextDay, '00:00', zone.tz).getTime() - 1000))}`;
    },
  );
}

function startOutsideRule(rrule: string, date: string): boolean {
  const parts = new Map(rrule.split(';').map((p) => p.split('=') as [string, string]));
  const byday = parts.get('BYDAY');
  if (parts.get('FREQ') !== 'WEEKLY' || !byday) return false;
  return !byday.split(',').includes(BYDAY[weekday(date)]);
}

function requireTime(s: string): string {
  const t = parseLocalTime(s);
  if (t === null) throw new RangeError(`not a local time: ${JSON.stringify(s)}`);
  return t;
}

function compactDate(date: string): string {
  if (!parseCalendarDate(date))
    throw new RangeError(`not a calendar date: ${JSON.stringify(date)}`);
  return date.replaceAll('-', '');
}

/** An instant as iCalendar's UTC form, `YYYYMMDDTHHMMSSZ` (RFC 5545 §3.3.5, form #2). */
export function utcStamp(d: Date | number): string {
  return new Date(d)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** Parameter values with `:`, `;` or `,` must be quoted (RFC 5545 §3.2); IANA names have none. */
function paramValue(v: string): string {
  return /[:;,]/.test(v) ? `"${v.replace(/"/g, '')}"` : v;
}
