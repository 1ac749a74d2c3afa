/**
 * CalDAV writes as domain decisions: a client PUTs a whole object, which becomes the same
 * records, change-log events and reactions (reminders, checks, plan links) as the REST API's
 * create and update of an event or an entry, plus the object's CalDAV name and what the client
 * sent that no field holds (`dav`, see DavMeta). The door in src/caldav/ reads the iCalendar
 * text; these deciders see only fields. Pure.
 */
import { applyFields, checkEvent } from '../calendar/fields.js';
import {
  cleanTitle,
  eventView,
  occurrenceData,
  requireEvent,
  withEventReactions,
  writableCalendar,
} from '../calendar/events.js';
import { checkOccurrence } from '../calendar/occurrences.js';
import { isSeriesStart } from '../calendar/series.js';
import type { EventData, EventPatch, EventRecord, OccurrenceException } from '../calendar/types.js';
import { SINGLE, decideCreateEntries, decideUpdateEntries } from '../collections/entries.js';
import { entryView } from '../collections/listing.js';
import { requireCollection } from '../collections/collections.js';
import { ENTRIES, type DavMeta, type Entry, type EntryStatus } from '../collections/types.js';
import { Invalid, failOnIssues, type Issue } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { canonicalJson } from '../shared/text.js';

/** One changed occurrence as a client sent it (RECURRENCE-ID → its original start date). */
export interface OccurrencePut {
  date: string;
  title: string;
  status: EntryStatus;
  fields: EventPatch;
}

export interface EventPut {
  collectionKey: string;
  /** The entry the object's name (or UID) already names; absent for a new object. */
  id?: string;
  title: string;
  status: EntryStatus;
  /** Every mapped field: a value, or null where the object has none. */
  fields: EventPatch;
  overrides: OccurrencePut[];
  /** Original start dates of removed occurrences (EXDATE). */
  removed: string[];
  dav: DavMeta;
}

export interface PutResult<E extends Entry = Entry> {
  entry: E;
  created: boolean;
}

const canon = canonicalJson;

/**
 * Creates or replaces an event from a whole CalDAV object: the series' fields, then its removed
 * and changed occurrences, which replace the ones it had (the client sent them all). An
 * occurrence that is unchanged keeps its stored time of change, so its ETag stays.
 */
export function decidePutEvent(
  state: FamilyState,
  put: EventPut,
  ctx: CommandContext,
): Decision<PutResult<EventRecord>> {
  const before = put.id ? requireEvent(state, put.id) : undefined;
  const calendar = writableCalendar(state, put.collectionKey);
  const issues: Issue[] = [];
  const title = cleanTitle(put.title, issues);
  const data = applyFields(state, before?.data ?? {}, put.fields, issues) as EventData;
  if (!issues.length) checkEvent(data, issues);
  failOnIssues(issues);
  const at = ctx.now.toISOString();
  const next: EventRecord = {
    ...(before ?? { id: ctx.newId('ent'), createdAt: at }),
    collectionKey: calendar.key,
    title,
    status: put.status,
    data,
    updatedAt: at,
    dav: put.dav,
  };
  delete next.exceptions;

  const exceptions: Record<string, OccurrenceException> = {};
  for (const date of put.removed) {
    // A removed date that is no occurrence changes nothing; clients keep stale EXDATEs.
    if (!isSeriesStart(next, date)) continue;
    const was = before?.exceptions?.[date];
    exceptions[date] = { removed: true, updatedAt: was?.removed ? was.updatedAt : at };
  }
  for (const o of put.overrides) {
    if (exceptions[o.date]?.removed) continue;
    if (!isSeriesStart(next, o.date)) {
      throw Invalid.at(['RECURRENCE-ID'], `${o.date} is not an occurrence of this event's rule`);
    }
    const series = occurrenceData(next, o.date, undefined);
    const occurrenceIssues: Issue[] = [];
    const nd = applyFields(state, series, o.fields, occurrenceIssues) as EventData;
    if (!occurrenceIssues.length) checkOccurrence(nd, occurrenceIssues);
    failOnIssues(
      occurrenceIssues.map((i) => ({ ...i, path: ['RECURRENCE-ID', o.date, ...i.path] })),
    );
    const diff: Record<string, unknown> = {};
    for (const k of new Set([...Object.keys(series), ...Object.keys(nd)])) {
      if (series[k] !== nd[k] && canon(series[k]) !== canon(nd[k])) diff[k] = nd[k] ?? null;
    }
    const x: OccurrenceException = { updatedAt: at };
    const t = o.title.trim();
    if (t && t !== title) x.title = t;
    if (o.status !== put.status) x.status = o.status;
    if (Object.keys(diff).length) x.data = diff;
    if (Object.keys(x).length === 1) continue; // the same as the series on that date
    const was = before?.exceptions?.[o.date];
    const { updatedAt: _a, ...wasContent } = was ?? { updatedAt: '' };
    const { updatedAt: _b, ...content } = x;
    if (was && canon(wasContent) === canon(content)) x.updatedAt = was.updatedAt;
    exceptions[o.date] = x;
  }
  if (Object.keys(exceptions).length) next.exceptions = exceptions;

  if (before) {
    const { updatedAt: _x, ...a } = before;
    const { updatedAt: _y, ...b } = next;
    if (canon(a) === canon(b))
      return { result: { entry: before, created: false }, changes: [], events: [] };
  }
  return withEventReactions(state, next, ctx, {
    result: { entry: next, created: !before },
    changes: [{ table: ENTRIES, id: next.id, value: next }],
    events: before
      ? [
          {
            type: 'calendar.event.updated',
            object: eventView(state, next),
            previous: eventView(state, before),
          },
        ]
      : [{ type: 'calendar.event.created', object: eventView(state, next) }],
  });
}

export interface TodoPut {
  collectionKey: string;
  id?: string;
  title: string;
  status: EntryStatus;
  /** Data keys to set (null removes one); keys not named stay as they were. */
  data: Record<string, unknown>;
  dav: DavMeta;
}

/**
 * Creates or replaces an entry of a to-do list through the entries' own deciders (so their
 * validation of the collection's fields holds), then records the object's CalDAV name and kept
 * properties on the entry in the same decision.
 */
export function decidePutTodo(
  state: FamilyState,
  put: TodoPut,
  ctx: CommandContext,
): Decision<PutResult> {
  const collection = requireCollection(state, put.collectionKey);
  if (put.id) {
    const before = state.get<Entry>(ENTRIES, put.id)!;
    const base = decideUpdateEntries(
      state,
      put.collectionKey,
      [
        {
          entryId: put.id,
          title: put.title,
          status: put.status,
          data: put.data,
        },
      ],
      ctx,
      SINGLE,
    );
    const updated = base.result[0];
    if (!base.changes.length && canon(before.dav) === canon(put.dav)) {
      return { result: { entry: before, created: false }, changes: [], events: [] };
    }
    const next: Entry = { ...updated, dav: put.dav, updatedAt: ctx.now.toISOString() };
    return {
      result: { entry: next, created: false },
      changes: [{ table: ENTRIES, id: next.id, value: next }],
      events: base.events.length
        ? base.events
        : [
            {
              type: 'tracker.entry.updated',
              object: entryView(collection, next),
              previous: entryView(collection, before),
            },
          ],
    };
  }
  const data = Object.fromEntries(Object.entries(put.data).filter(([, v]) => v !== null));
  const base = decideCreateEntries(
    state,
    put.collectionKey,
    [{ title: put.title, data }],
    ctx,
    SINGLE,
  );
  const next: Entry = { ...base.result[0], status: put.status, dav: put.dav };
  return {
    result: { entry: next, created: true },
    changes: [{ table: ENTRIES, id: next.id, value: next }],
    events: [{ type: 'tracker.entry.created', object: entryView(collection, next) }],
  };
}
