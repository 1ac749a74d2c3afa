/**
 * calendar-data `expand` (RFC 4791 §9.6.5): an event as its separate occurrences in a range,
 * in UTC, with no RRULE or EXDATE.
 *
 * Each occurrence's VEVENT is written once, already escaped for the XML answer, and kept with
 * the occurrence itself: the occurrences of the family's occurrence index live until their event
 * changes (or the family's zone does, or their month leaves the index), so a query over a window
 * never asked before writes an expanded answer by joining strings it has written before. A long
 * line (a note of 20,000 characters) is escaped once per event and the same string given for
 * every occurrence.
 */
import { escapeText, foldLine } from '../domain/calendar/ics.js';
import { isSeries } from '../domain/calendar/events.js';
import { zoneOf } from '../domain/calendar/series.js';
import type { OccurrenceRun } from '../domain/calendar/occurrenceIndex.js';
import type { EventRecord } from '../domain/calendar/types.js';
import { addDays } from '../domain/shared/time.js';
import { PRODID } from './eventOut.js';
import { instant, type Occurrence } from './occurrences.js';
import { escapeXml } from './xml.js';

/** Text written into an answer: its parts escaped for XML, and its size before and after. */
export interface Written {
  readonly parts: readonly string[];
  /** Bytes of the iCalendar text (what getcontentlength counts). */
  readonly length: number;
  /** Bytes of the escaped parts. */
  readonly bytes: number;
}

/** Lines longer than this are kept per event and shared by its occurrences. */
const LONG = 200;

function written(raw: string[]): Written {
  const parts = raw.map(escapeXml);
  return {
    parts,
    length: raw.reduce((n, p) => n + Buffer.byteLength(p), 0),
    bytes: parts.reduce((n, p) => n + Buffer.byteLength(p), 0),
  };
}

const EXPANDED_HEAD_TEXT = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  `PRODID:${PRODID}`,
  'CALSCALE:GREGORIAN',
  '',
].join('\r\n');
const EXPANDED_TAIL_TEXT = 'END:VCALENDAR\r\n';

/** What an expanded object starts and ends with, around its occurrences. */
export const EXPANDED_HEAD: Written = written([EXPANDED_HEAD_TEXT]);
export const EXPANDED_TAIL: Written = written([EXPANDED_TAIL_TEXT]);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYYMMDDTHHMMSSZ`, by hand: this runs for every occurrence of an expanded answer. */
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/** What every occurrence of one event shares: its head lines and its long lines, escaped. */
interface EventLines {
  uid: string;
  head: string;
  /**
   * Long property lines as folded text, by property, then by the value itself (the record's own
   * string, whose hash V8 keeps).
   */
  folded: Map<string, Map<string, string>>;
  /** Long lines escaped, by their text. */
  long: Map<string, { text: string; length: number; bytes: number }>;
}

const eventLines = new WeakMap<EventRecord, EventLines>();

function linesOf(ev: EventRecord, uid: string): EventLines {
  let l = eventLines.get(ev);
  if (!l || l.uid !== uid) {
    const head = `BEGIN:VEVENT\r\n${fold(`UID:${escapeText(uid)}`)}\r\nDTSTAMP:${stamp(Date.parse(ev.updatedAt))}\r\n`;
    l = { uid, head, folded: new Map(), long: new Map() };
    eventLines.set(ev, l);
  }
  return l;
}

/** Occurrences as written, by the occurrence (the index's own objects while they live). */
const writtenOccurrences = new WeakMap<Occurrence, { tz: string; uid: string; w: Written }>();

/**
 * One occurrence of `ev` as a VEVENT of an expanded answer (its RECURRENCE-ID, start and end in
 * UTC, its own title, note, place and status), escaped, written once per occurrence.
 */
export function expandedOccurrence(
  tz: string,
  uid: string,
  ev: EventRecord,
  o: Occurrence,
): Written {
  const kept = writtenOccurrences.get(o);
  if (kept && kept.tz === tz && kept.uid === uid) return kept.w;
  const w = writeOccurrence(tz, linesOf(ev, uid), ev, o);
  writtenOccurrences.set(o, { tz, uid, w });
  return w;
}

/**
 * One list of the occurrence index (an event's occurrences in one month) written as one text,
 * with where each occurrence starts in it and the sizes before each: a run of the list is then
 * a slice. `text` is null when an occurrence carries a long line, which is shared, not copied
 * into every occurrence (those are written occurrence by occurrence).
 */
interface JoinedList {
  tz: string;
  uid: string;
  text: string | null;
  offsets: number[];
  lengths: number[];
  bytes: number[];
}

const joinedLists = new WeakMap<readonly Occurrence[], JoinedList>();

function joinList(
  tz: string,
  uid: string,
  ev: EventRecord,
  list: readonly Occurrence[],
): JoinedList {
  const lines = linesOf(ev, uid);
  const j: JoinedList = { tz, uid, text: null, offsets: [0], lengths: [0], bytes: [0] };
  const texts: string[] = [];
  for (const o of list) {
    const w = writeOccurrence(tz, lines, ev, o);
    if (w.parts.length !== 1) return { ...j, offsets: [], lengths: [], bytes: [] };
    texts.push(w.parts[0]);
    j.offsets.push(j.offsets[j.offsets.length - 1] + w.parts[0].length);
    j.lengths.push(j.lengths[j.lengths.length - 1] + w.length);
    j.bytes.push(j.bytes[j.bytes.length - 1] + w.bytes);
  }
  j.text = texts.join('');
  return j;
}

/**
 * A run of the occurrence index's list as written text: a slice of the list's text, written once
 * for the list; null when its occurrences are written one by one (expandedOccurrence).
 */
export function expandedRun(
  tz: string,
  uid: string,
  ev: EventRecord,
  run: OccurrenceRun,
): Written | null {
  let j = joinedLists.get(run.list);
  if (!j || j.tz !== tz || j.uid !== uid) {
    j = joinList(tz, uid, ev, run.list);
    joinedLists.set(run.list, j);
  }
  if (j.text === null) return null;
  return {
    parts: [j.text.slice(j.offsets[run.from], j.offsets[run.to])],
    length: j.lengths[run.to] - j.lengths[run.from],
    bytes: j.bytes[run.to] - j.bytes[run.from],
  };
}

/** One occurrence's VEVENT as iCalendar text in parts (a long line as the event's shared string). */
function occurrenceText(tz: string, lines: EventLines, ev: EventRecord, o: Occurrence): string[] {
  const allDay = o.data.allDay === true || o.data.time === undefined;
  const own = [];
  if (isSeries(ev)) {
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
  const note = o.data.note ?? o.data.description;
  return [
    lines.head + own.join('\r\n') + '\r\n',
    line(lines, 'SUMMARY', o.title),
    typeof note === 'string' && note ? line(lines, 'DESCRIPTION', note) : '',
    o.data.where ? line(lines, 'LOCATION', o.data.where) : '',
    `STATUS:${o.status === 'archived' ? 'CANCELLED' : 'CONFIRMED'}\r\nEND:VEVENT\r\n`,
  ];
}

/**
 * An event as separate occurrences in UTC, no RRULE or EXDATE, as iCalendar text (not escaped)
 * in parts: the calendar's head, each occurrence's lines, the tail — for an answer that narrows
 * the expanded text further (a calendar-data selection, calendarData.ts). `onOccurrence` is told
 * of each occurrence before its parts, to count it.
 */
export function* expandedParts(
  tz: string,
  uid: string,
  ev: EventRecord,
  occurrences: Iterable<Occurrence>,
  onOccurrence: () => void,
): Generator<string> {
  yield EXPANDED_HEAD_TEXT;
  const lines = linesOf(ev, uid);
  for (const o of occurrences) {
    onOccurrence();
    yield occurrenceText(tz, lines, ev, o).join('');
  }
  yield EXPANDED_TAIL_TEXT;
}

function writeOccurrence(tz: string, lines: EventLines, ev: EventRecord, o: Occurrence): Written {
  const raw = occurrenceText(tz, lines, ev, o);
  // Short text joined and escaped together; a long line given as the event's shared string.
  const parts: string[] = [];
  let length = 0;
  let bytes = 0;
  let short = '';
  const flush = () => {
    if (!short) return;
    const x = escapeXml(short);
    parts.push(x);
    length += Buffer.byteLength(short);
    bytes += Buffer.byteLength(x);
    short = '';
  };
  for (const text of raw) {
    if (text.length <= LONG) {
      short += text;
      continue;
    }
    flush();
    let shared = lines.long.get(text);
    if (!shared) {
      const x = escapeXml(text);
      shared = { text: x, length: Buffer.byteLength(text), bytes: Buffer.byteLength(x) };
      if (lines.long.size < 100) lines.long.set(text, shared);
    }
    parts.push(shared.text);
    length += shared.length;
    bytes += shared.bytes;
  }
  flush();
  return { parts, length, bytes };
}

/** A property line, folded; a long one is folded once per event. */
function line(lines: EventLines, name: string, value: string): string {
  if (value.length <= LONG) return `${fold(`${name}:${escapeText(value)}`)}\r\n`;
  let byValue = lines.folded.get(name);
  if (!byValue) lines.folded.set(name, (byValue = new Map<string, string>()));
  let text = byValue.get(value);
  if (text === undefined) {
    text = `${fold(`${name}:${escapeText(value)}`)}\r\n`;
    if (byValue.size < 100) byValue.set(value, text);
  }
  return text;
}

/** Folds only what needs it (most lines are short). */
function fold(line: string): string {
  return line.length > 18 && Buffer.byteLength(line) > 75 ? foldLine(line) : line;
}
