/**
 * calendar-data `expand` for to-dos (RFC 4791 §9.6.5): a repeating to-do as its separate
 * instances in the range (todoTimes.ts), each a VTODO with its RECURRENCE-ID, DTSTART and DUE
 * in UTC and no RRULE, RDATE or EXDATE; a to-do that does not repeat comes back with its times in
 * UTC. No VTIMEZONE is written, since nothing refers to one.
 */
import { foldLine, utcStamp } from '../domain/calendar/ics.js';
import { instantToLocal } from '../domain/shared/time.js';
import { PRODID } from './eventOut.js';
import { componentLines, param, type IcalComp, type IcalProp } from './icalTree.js';
import type { Range } from './occurrences.js';
import { todoInstances, type TodoInstance } from './todoTimes.js';

/** A time property of an instance: UTC, or a date (on the family's clock) when written as one. */
function timeLine(name: string, ms: number, asDate: boolean, tz: string): string {
  return asDate
    ? `${name};VALUE=DATE:${instantToLocal(new Date(ms), tz).date.replaceAll('-', '')}`
    : `${name}:${utcStamp(ms)}`;
}

const REPLACED = new Set(['RRULE', 'RDATE', 'EXDATE', 'EXRULE', 'RECURRENCE-ID', 'DTSTART', 'DUE']);

const isDate = (p: IcalProp | undefined) =>
  p !== undefined && (param(p, 'VALUE')?.toUpperCase() === 'DATE' || /^\d{8}$/.test(p.value));

function instanceLines(i: TodoInstance, repeating: boolean, tz: string): string[] {
  const c = i.comp;
  const dtstart = c.props.find((p) => p.name === 'DTSTART');
  const due = c.props.find((p) => p.name === 'DUE');
  const own: string[] = [];
  if (repeating && i.recurrence)
    own.push(timeLine('RECURRENCE-ID', i.recurrence.ms, i.recurrence.date, tz));
  if (i.start !== undefined) own.push(timeLine('DTSTART', i.start, isDate(dtstart), tz));
  // A date DUE is held as the end of its day: the day is the one before that instant.
  if (i.due !== undefined)
    own.push(timeLine('DUE', isDate(due) ? i.due - 1 : i.due, isDate(due), tz));
  const kept: IcalComp = {
    name: 'VTODO',
    props: c.props.filter((p) => !REPLACED.has(p.name)),
    comps: c.comps,
  };
  const lines = componentLines(kept);
  lines.splice(1, 0, ...own);
  return lines;
}

/**
 * The to-do's instances overlapping `r` as one VCALENDAR text; `onInstance` is told of each, to
 * count it against the answer's limits.
 */
export function expandedTodo(
  root: IcalComp,
  tz: string,
  now: Date,
  r: Range,
  onInstance: () => void,
): string {
  const todos = root.comps.flatMap((cal) => cal.comps.filter((c) => c.name === 'VTODO'));
  const repeating = todos.some((c) =>
    c.props.some((p) => p.name === 'RRULE' || p.name === 'RDATE' || p.name === 'RECURRENCE-ID'),
  );
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN'];
  for (const i of todoInstances(root, tz, now, r)) {
    onInstance();
    lines.push(...instanceLines(i, repeating, tz));
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
