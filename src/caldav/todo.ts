/**
 * To-do lists: an entry of any collection that is not a calendar ↔ a VTODO (docs/caldav.md,
 * "To-dos"). title ↔ SUMMARY; status ↔ STATUS/COMPLETED (done ↔ COMPLETED; archived entries
 * are not served); the collection's first date field ↔ DUE; its first long-text field ↔
 * DESCRIPTION; every other field ↔ X-HOUSEHOLD-<FIELD KEY>. A property the object leaves out
 * clears DUE and DESCRIPTION (the client sent the whole to-do) but keeps X-HOUSEHOLD-* fields
 * as they were, since most clients drop properties they do not know. Anything else a client
 * sends (priorities, categories, alarms, a repeat rule, DTSTART) is kept and served back as
 * sent, and so are the object's other components: its VTIMEZONEs and the changed occurrences of a
 * repeating to-do (python-caldav and others complete one occurrence so), which no entry holds.
 * A custom VTIMEZONE is resolved on the PUT and stored with its zone's name in X-LIC-LOCATION
 * (locatedZone), so a REPORT's time range never matches its rules again.
 * A DUE written with a time is served as written while the entry's date is still the one it
 * was read as (clients compute with DUE − DTSTART, which a bare date would break).
 */
import { escapeText, foldLine, utcStamp } from '../domain/calendar/ics.js';
import type { TodoPut } from '../domain/caldav/objects.js';
import type {
  Collection,
  DavMeta,
  Entry,
  EntryStatus,
  FieldDef,
} from '../domain/collections/types.js';
import type { FamilyState } from '../domain/shared/state.js';
import { badCalendarData, unsupportedObject } from './errors.js';
import { locatedZone, localOf, prop, rawLines, text, written, type CalObject } from './icalRead.js';
import { PRODID, objectUid } from './eventOut.js';

interface TodoShape {
  due?: FieldDef;
  description?: FieldDef;
  others: FieldDef[];
}

function shapeOf(c: Collection): TodoShape {
  const due = c.fields.find((f) => f.type === 'date');
  const description = c.fields.find((f) => f.type === 'textarea');
  return {
    ...(due ? { due } : {}),
    ...(description ? { description } : {}),
    others: c.fields.filter((f) => f !== due && f !== description),
  };
}

const xName = (f: FieldDef) => `X-HOUSEHOLD-${f.key.toUpperCase()}`;

const stamp = (iso: string) => utcStamp(new Date(iso));

export function renderTodo(state: FamilyState, c: Collection, e: Entry): string {
  const shape = shapeOf(c);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'CALSCALE:GREGORIAN',
    'BEGIN:VTODO',
    `UID:${escapeText(objectUid(state, e))}`,
    `DTSTAMP:${stamp(e.updatedAt)}`,
    `CREATED:${stamp(e.createdAt)}`,
    `LAST-MODIFIED:${stamp(e.updatedAt)}`,
    `SUMMARY:${escapeText(e.title)}`,
    `STATUS:${e.status === 'done' ? 'COMPLETED' : e.status === 'archived' ? 'CANCELLED' : 'NEEDS-ACTION'}`,
  ];
  if (e.status === 'done') lines.push(`COMPLETED:${stamp(e.updatedAt)}`);
  const due = shape.due && e.data[shape.due.key];
  if (typeof due === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(due))
    lines.push(
      e.dav?.due?.date === due ? e.dav.due.line : `DUE;VALUE=DATE:${due.replaceAll('-', '')}`,
    );
  const description = shape.description && e.data[shape.description.key];
  if (typeof description === 'string' && description)
    lines.push(`DESCRIPTION:${escapeText(description)}`);
  lines.push(`X-HOUSEHOLD-ID:${e.id}`);
  for (const f of shape.others) {
    const v = e.data[f.key];
    if (v === undefined || v === null || v === '') continue;
    lines.push(`${xName(f)}:${escapeText(typeof v === 'string' ? v : JSON.stringify(v))}`);
  }
  lines.push(...(e.dav?.keep ?? []), 'END:VTODO');
  const others = e.dav?.components ?? [];
  const zones = others.filter((c) => c[0] === 'BEGIN:VTIMEZONE');
  lines.splice(4, 0, ...zones.flat());
  lines.push(...others.filter((c) => c[0] !== 'BEGIN:VTIMEZONE').flat(), 'END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

const READ = new Set([
  'uid',
  'dtstamp',
  'summary',
  'status',
  'completed',
  'created',
  'last-modified',
  'x-household-id',
]);

/** A parsed VTODO object → a TodoPut for the entries' deciders. */
export function todoPut(
  state: FamilyState,
  c: Collection,
  obj: CalObject,
  name: string,
  before: Entry | undefined,
): TodoPut {
  const master = obj.master;
  if (!master)
    throw unsupportedObject(
      'The object holds only changed occurrences (RECURRENCE-ID) of a to-do and no to-do',
    );
  const p = master[1];
  const shape = shapeOf(c);
  const data: Record<string, unknown> = {};
  const keep: string[] = [];
  const read = new Set(READ);
  let dueAsWritten: DavMeta['due'];
  if (shape.due) {
    read.add('due');
    const due = prop(p, 'due');
    const w = due ? written(due, obj)[0] : undefined;
    const date = w ? localOf(w, state.family.timezone).date : null;
    data[shape.due.key] = date;
    if (w?.time !== undefined && date) dueAsWritten = { line: rawLines(due!, false)[0], date };
  }
  if (shape.description) {
    read.add('description');
    data[shape.description.key] = text(prop(p, 'description'))?.trim() || null;
  }
  for (const f of shape.others) {
    const name = xName(f).toLowerCase();
    read.add(name);
    const v = text(prop(p, name));
    if (v === null) continue;
    const t = v.trim();
    if (!t) {
      data[f.key] = null;
      continue;
    }
    if (f.type === 'number') {
      const n = Number(t);
      if (!Number.isFinite(n)) throw badCalendarData(`${xName(f)} must be a number`);
      data[f.key] = n;
    } else data[f.key] = t;
  }
  for (const q of p) if (!read.has(q[0])) keep.push(...rawLines(q, false));
  for (const sub of master[2]) keep.push(...rawLines(sub, true));
  const statusText = text(prop(p, 'status'))?.toUpperCase();
  let status: EntryStatus = 'active';
  if (statusText === 'COMPLETED' || (!statusText && prop(p, 'completed'))) status = 'done';
  else if (statusText === 'CANCELLED') status = 'archived';
  // Each VTIMEZONE's zone is found now, once, and stored with it (locatedZone).
  const zones = obj.zones.map((z) => locatedZone(z, obj));
  const components = [...zones, ...obj.overrides].map((x) => rawLines(x, true));
  return {
    collectionKey: c.key,
    ...(before ? { id: before.id } : {}),
    title: text(prop(p, 'summary'))?.trim() || 'Untitled',
    status,
    data,
    dav: {
      name,
      uid: obj.uid,
      ...(keep.length ? { keep } : {}),
      ...(dueAsWritten ? { due: dueAsWritten } : {}),
      ...(components.length ? { components } : {}),
    },
  };
}
