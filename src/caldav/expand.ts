/**
 * calendar-data `expand` (RFC 4791 §9.6.5): an event as its separate occurrences in a range,
 * in UTC, with no RRULE or EXDATE.
 */
import { escapeText, foldLine } from '../domain/calendar/ics.js';
import { isSeries } from '../domain/calendar/events.js';
import { zoneOf } from '../domain/calendar/series.js';
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
 * parts: the calendar's head, then per occurrence its own lines and the series' long lines (a
 * note of 20,000 characters is escaped and folded once and the same string given again for
 * every occurrence), then the tail. Parts rather than one text, so the answer can count them
 * against its limits and give the event loop back between them (answer.ts); `onOccurrence` is
 * told of each occurrence before its parts, to count it.
 */
export function* expandedParts(
  tz: string,
  uid: string,
  ev: EventRecord,
  occurrences: Iterable<Occurrence>,
  onOccurrence: () => void,
): Generator<string> {
  const repeating = isSeries(ev);
  yield ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN', ''].join(
    '\r\n',
  );
  const head = `BEGIN:VEVENT\r\n${fold(`UID:${escapeText(uid)}`)}\r\nDTSTAMP:${stamp(Date.parse(ev.updatedAt))}\r\n`;
  // Keyed by the value itself (the record's own string, whose hash V8 keeps), per property.
  const written = new Map<string, Map<string, string>>();
  const line = (name: string, value: string) => {
    let byValue = written.get(name);
    if (!byValue) written.set(name, (byValue = new Map<string, string>()));
    let done = byValue.get(value);
    if (done === undefined) {
      done = `${fold(`${name}:${escapeText(value)}`)}\r\n`;
      if (byValue.size < 1000) byValue.set(value, done);
    }
    return done;
  };
  for (const o of occurrences) {
    onOccurrence();
    const allDay = o.data.allDay === true || o.data.time === undefined;
    const own = [];
    if (repeating) {
      own.push(
        allDay || !ev.data.time
          ? `RECURRENCE-ID;VALUE=DATE:${o.date.replaceAll('-', '')}`
          : `RECURRENCE-ID:${stamp(instant(o.date, ev.data.time, zoneOf(ev.data, tz)))}`,
      );
    }
    if (allDay) {
      own.push(
        `DTSTART;VALUE=DATE:${o.data.date.replaceAll('-', '')}`,
        `DTEND;VALUE=DATE:${addDays(o.data.endDate ?? o.data.date, 1).replaceAll('-', '')}`,
      );
    } else own.push(`DTSTART:${stamp(o.start)}`, `DTEND:${stamp(o.end)}`);
    yield head + own.join('\r\n') + '\r\n' + line('SUMMARY', o.title);
    const note = o.data.note ?? o.data.description;
    if (typeof note === 'string' && note) yield line('DESCRIPTION', note);
    if (o.data.where) yield line('LOCATION', o.data.where);
    yield `STATUS:${o.status === 'archived' ? 'CANCELLED' : 'CONFIRMED'}\r\nEND:VEVENT\r\n`;
  }
  yield 'END:VCALENDAR\r\n';
}

/** Folds only what needs it (most lines are short). */
function fold(line: string): string {
  return line.length > 18 && Buffer.byteLength(line) > 75 ? foldLine(line) : line;
}
