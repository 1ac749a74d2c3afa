/**
 * calendar-data `expand` (RFC 4791 §9.6.5): an event as its separate occurrences in a range,
 * in UTC, with no RRULE or EXDATE.
 */
import { escapeText, foldLine } from '../domain/calendar/ics.js';
import { isSeries } from '../domain/calendar/events.js';
import type { EventRecord } from '../domain/calendar/types.js';
import { addDays } from '../domain/shared/time.js';
import { PRODID } from './eventOut.js';
import { instant, type Occurrence } from './occurrences.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYYMMDDTHHMMSSZ`, by hand: this runs for every occurrence of an expanded answer. */
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/**
 * An event as separate occurrences in UTC (calendar-data `expand`), no RRULE or EXDATE, in
 * parts: the calendar's head, one VEVENT per occurrence, its tail. Parts rather than one text,
 * so the answer can count them against its limits and give the event loop back between them
 * (answer.ts). The occurrences are taken by the caller (occurrencesIn, within its budget).
 */
export function* expandedParts(
  tz: string,
  uid: string,
  ev: EventRecord,
  occurrences: Occurrence[],
): Generator<string> {
  const repeating = isSeries(ev);
  yield ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN', ''].join(
    '\r\n',
  );
  const updated = stamp(Date.parse(ev.updatedAt));
  const uidLine = `UID:${escapeText(uid)}`;
  // Every occurrence repeats the series' long lines (a note of 20,000 characters): escaped and
  // folded once each.
  const lines = new Map<string, string>();
  const line = (name: string, value: string) => {
    const raw = `${name}:${value}`;
    if (raw.length < 200) return fold(`${name}:${escapeText(value)}`);
    let done = lines.get(raw);
    if (done === undefined) lines.set(raw, (done = fold(`${name}:${escapeText(value)}`)));
    return done;
  };
  for (const o of occurrences) {
    const allDay = o.data.allDay === true || o.data.time === undefined;
    const out = ['BEGIN:VEVENT', uidLine, `DTSTAMP:${updated}`];
    if (repeating) {
      out.push(
        allDay || !ev.data.time
          ? `RECURRENCE-ID;VALUE=DATE:${o.date.replaceAll('-', '')}`
          : `RECURRENCE-ID:${stamp(instant(o.date, ev.data.time, tz))}`,
      );
    }
    if (allDay) {
      out.push(
        `DTSTART;VALUE=DATE:${o.data.date.replaceAll('-', '')}`,
        `DTEND;VALUE=DATE:${addDays(o.data.endDate ?? o.data.date, 1).replaceAll('-', '')}`,
      );
    } else out.push(`DTSTART:${stamp(o.start)}`, `DTEND:${stamp(o.end)}`);
    out.push(line('SUMMARY', o.title));
    const note = o.data.note ?? o.data.description;
    if (typeof note === 'string' && note) out.push(line('DESCRIPTION', note));
    if (o.data.where) out.push(line('LOCATION', o.data.where));
    out.push(`STATUS:${o.status === 'archived' ? 'CANCELLED' : 'CONFIRMED'}`, 'END:VEVENT', '');
    yield out.join('\r\n');
  }
  yield 'END:VCALENDAR\r\n';
}

/** Folds only what needs it (most lines are short). */
function fold(line: string): string {
  return line.length > 18 && Buffer.byteLength(line) > 75 ? foldLine(line) : line;
}
