/**
 * calendar-data `expand` (RFC 4791 §9.6.5): an event as its separate occurrences in a range,
 * in UTC, with no RRULE or EXDATE.
 */
import { escapeText, foldLine } from '../domain/calendar/ics.js';
import { isSeries } from '../domain/calendar/events.js';
import { zoneOf } from '../domain/calendar/series.js';
import type { EventRecord } from '../domain/calendar/types.js';
import type { FamilyState } from '../domain/shared/state.js';
import { addDays } from '../domain/shared/time.js';
import { PRODID, objectUid } from './eventOut.js';
import { instant, occurrencesIn, type Range } from './occurrences.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYYMMDDTHHMMSSZ`, by hand: this runs for every occurrence of an expanded answer. */
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/** Folds only what needs it (most lines are short). */
function fold(line: string): string {
  return line.length > 18 && Buffer.byteLength(line) > 75 ? foldLine(line) : line;
}

/** The event as separate occurrences in UTC (calendar-data `expand`), no RRULE or EXDATE. */
export function expandedIcs(state: FamilyState, ev: EventRecord, r: Range): string {
  const tz = state.family.timezone;
  const uid = escapeText(objectUid(state, ev));
  const repeating = isSeries(ev);
  const out = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN'];
  const updated = stamp(Date.parse(ev.updatedAt));
  for (const o of occurrencesIn(ev, r, tz)) {
    const allDay = o.data.allDay === true || o.data.time === undefined;
    out.push('BEGIN:VEVENT', `UID:${uid}`, `DTSTAMP:${updated}`);
    if (repeating) {
      out.push(
        allDay || !ev.data.time
          ? `RECURRENCE-ID;VALUE=DATE:${o.date.replaceAll('-', '')}`
          : `RECURRENCE-ID:${stamp(instant(o.date, ev.data.time, zoneOf(ev.data, tz)))}`,
      );
    }
    if (allDay) {
      out.push(
        `DTSTART;VALUE=DATE:${o.data.date.replaceAll('-', '')}`,
        `DTEND;VALUE=DATE:${addDays(o.data.endDate ?? o.data.date, 1).replaceAll('-', '')}`,
      );
    } else out.push(`DTSTART:${stamp(o.start)}`, `DTEND:${stamp(o.end)}`);
    out.push(`SUMMARY:${escapeText(o.title)}`);
    const note = o.data.note ?? o.data.description;
    if (typeof note === 'string' && note) out.push(`DESCRIPTION:${escapeText(note)}`);
    if (o.data.where) out.push(`LOCATION:${escapeText(o.data.where)}`);
    out.push(`STATUS:${o.status === 'archived' ? 'CANCELLED' : 'CONFIRMED'}`, 'END:VEVENT');
  }
  out.push('END:VCALENDAR');
  return out.map(fold).join('\r\n') + '\r\n';
}
