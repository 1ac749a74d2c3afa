/**
 * Updating events and removing single occurrences.
 *
 * `editScope=series` (the default) changes the event itself. `editScope=occurrence` with
 * `occurrenceDate` changes one occurrence: what differs from the series is stored as an
 * exception on the series, keyed by the occurrence's original start date, so a later series
 * edit flows through to every field the occurrence did not change itself. Removing one
 * occurrence stores `{removed: true}` (an EXDATE in the ICS feed).
 *
 * Exceptions survive series edits, except when the edit changes which dates the series occurs
 * on (date or repeat rule): exceptions on dates that are no longer occurrences are dropped.
 */
import { ENTRIES, type EntryStatus } from '../collections/types.js';
import { Conflict, Invalid, NotFound, failOnIssues, type Issue } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { canonicalJson } from '../shared/text.js';
import {
  cleanTitle,
  decideDeleteEvent,
  eventView,
  isSeries,
  occurrenceData,
  requireEvent,
  withEventReactions,
  writableCalendar,
} from './events.js';
import { applyFields, checkEvent } from './fields.js';
import { isOccurrenceStart } from './recurrence.js';
import { isSeriesStart } from './series.js';
import {
  FEED_OWNED,
  REPEAT_KEYS,
  type EventData,
  type EventPatch,
  type EventRecord,
  type OccurrenceException,
} from './types.js';
import { noChange } from '../shared/decision.js';

export type EditScope = 'occurrence' | 'series';

export interface EventChange {
  event: EventRecord;
  /** Set when one occurrence was changed or removed. */
  occurrenceDate?: string;
}

const META = new Set([
  'editScope',
  'occurrenceDate',
  'status',
  'title',
  'calendarKey',
  'clearAttendance',
  'clearTravelPlan',
]);

const canon = canonicalJson;

/** The timing checks of one occurrence: its repeat rule is the series', not its own. */
export function checkOccurrence(d: EventData, issues: Issue[]): void {
  const {
    repeatFrequency: _f,
    repeatInterval: _i,
    repeatDays: _d,
    repeatNthWeekday: _n,
    repeatUntil: _u,
    ...timing
  } = d;
  checkEvent(timing, issues);
}

function same(a: unknown, b: unknown): boolean {
  return canon(a) === canon(b);
}

function fieldsOf(p: EventPatch): EventPatch {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p))
    if (!META.has(k) || k === 'clearAttendance' || k === 'clearTravelPlan') out[k] = v;
  return out;
}

/** 409 when a feed event's feed-owned fields would change. */
function refuseFeedFields(ev: EventRecord, p: EventPatch): void {
  if (!ev.sourceId) return;
  const owned = Object.keys(p).filter(
    (k) => FEED_OWNED.has(k) && p[k as keyof EventPatch] !== undefined,
  );
  if (owned.length) {
    throw new Conflict(
      `Event ${ev.id} comes from an external calendar feed: ${owned.join(', ')} cannot be changed`,
      owned.map((k) => ({ path: [k], message: 'is owned by the feed' })),
    );
  }
}

/** Checks the scope parameters; answers the occurrence date for scope occurrence. */
function scopeOf(
  editScope: EditScope | undefined,
  occurrenceDate: string | undefined,
  inQuery: boolean,
): string | undefined {
  const at = (k: string) => (inQuery ? ['query', k] : [k]);
  if ((editScope ?? 'series') === 'series') {
    if (occurrenceDate !== undefined)
      throw Invalid.at(at('occurrenceDate'), 'is only used with editScope occurrence');
    return undefined;
  }
  if (occurrenceDate === undefined)
    throw Invalid.at(at('occurrenceDate'), 'is required when editScope is occurrence');
  return occurrenceDate;
}

/** 404 unless `date` starts a (not removed) occurrence of the series. */
function requireOccurrence(ev: EventRecord, date: string): void {
  if (!isSeriesStart(ev, date) || ev.exceptions?.[date]?.removed) {
    throw new NotFound(`${date} is not an occurrence of event ${ev.id}`, [
      { path: ['occurrenceDate'], message: `is not an occurrence of this event: ${date}` },
    ]);
  }
}

export function decideUpdateEvent(
  state: FamilyState,
  id: string,
  patch: EventPatch,
  ctx: CommandContext,
): Decision<EventChange> {
  const ev = requireEvent(state, id);
  const occurrenceDate = scopeOf(patch.editScope, patch.occurrenceDate, false);
  refuseFeedFields(ev, patch);
  if (occurrenceDate !== undefined) {
    // A one-off event's only occurrence is the event itself.
    if (!isSeries(ev)) {
      if (occurrenceDate !== ev.data.date)
        throw new NotFound(`${occurrenceDate} is not an occurrence of event ${ev.id}`, [
          {
            path: ['occurrenceDate'],
            message: `is not an occurrence of this event: ${occurrenceDate}`,
          },
        ]);
    } else {
      return updateOccurrence(state, ev, occurrenceDate, patch, ctx);
    }
  }
  return updateSeries(state, ev, patch, ctx);
}

function updateSeries(
  state: FamilyState,
  ev: EventRecord,
  patch: EventPatch,
  ctx: CommandContext,
): Decision<EventChange> {
  const issues: Issue[] = [];
  const next: EventRecord = { ...ev };
  if (patch.title !== undefined) next.title = cleanTitle(patch.title, issues);
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.calendarKey !== undefined && patch.calendarKey !== ev.collectionKey) {
    next.collectionKey = writableCalendar(state, patch.calendarKey).key;
  }
  next.data = applyFields(state, ev.data, fieldsOf(patch), issues) as EventData;
  // A feed event's timing is the feed's (it may be zero-length or odd); only overlays change here.
  if (!issues.length && !ev.sourceId) checkEvent(next.data, issues);
  failOnIssues(issues);

  // Exceptions stay unless the dates the series occurs on changed under them.
  if (ev.exceptions) {
    const rule = (d: EventData) =>
      canon([
        d.date,
        d.repeatFrequency,
        d.repeatInterval,
        d.repeatDays,
        d.repeatNthWeekday,
        d.repeatUntil,
      ]);
    if (!isSeries(next)) delete next.exceptions;
    else if (rule(ev.data) !== rule(next.data)) {
      const kept = Object.entries(ev.exceptions).filter(([date]) =>
        isOccurrenceStart(next.data, date),
      );
      if (kept.length) next.exceptions = Object.fromEntries(kept);
      else delete next.exceptions;
    }
  }

  if (
    next.title === ev.title &&
    next.status === ev.status &&
    next.collectionKey === ev.collectionKey &&
    same(next.data, ev.data) &&
    same(next.exceptions, ev.exceptions)
  ) {
    return noChange({ event: ev });
  }
  next.updatedAt = ctx.now.toISOString();
  return withEventReactions(state, next, ctx, {
    result: { event: next },
    changes: [{ table: ENTRIES, id: ev.id, value: next }],
    events: [
      {
        type: 'calendar.event.updated',
        object: eventView(state, next),
        previous: eventView(state, ev),
      },
    ],
  });
}

function updateOccurrence(
  state: FamilyState,
  ev: EventRecord,
  date: string,
  patch: EventPatch,
  ctx: CommandContext,
): Decision<EventChange> {
  // The zone is the series': its occurrences are keyed by their dates in it.
  const refused = [...REPEAT_KEYS, 'calendarKey', 'timeZone'].filter(
    (k) => patch[k as keyof EventPatch] !== undefined,
  );
  if (refused.length) {
    throw new Invalid(
      `${refused.join(', ')} cannot be changed for one occurrence: use editScope series`,
      refused.map((k) => ({ path: [k], message: 'applies to the whole series' })),
    );
  }
  requireOccurrence(ev, date);
  const issues: Issue[] = [];
  const before = ev.exceptions?.[date];
  const series = occurrenceData(ev, date, undefined);
  const current = occurrenceData(ev, date, before);
  const nextData = applyFields(state, current, fieldsOf(patch), issues) as EventData;
  const title =
    patch.title !== undefined ? cleanTitle(patch.title, issues) : (before?.title ?? ev.title);
  const status: EntryStatus = patch.status ?? before?.status ?? ev.status;
  if (!issues.length && !ev.sourceId) {
    checkOccurrence(nextData, issues);
  }
  failOnIssues(issues);

  // Store only what differs from the series on that date.
  const diff: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(series), ...Object.keys(nextData)])) {
    if (!same(series[k], nextData[k])) diff[k] = nextData[k] ?? null;
  }
  const x: OccurrenceException = { updatedAt: ctx.now.toISOString() };
  if (title !== ev.title) x.title = title;
  if (status !== ev.status) x.status = status;
  if (Object.keys(diff).length) x.data = diff;

  const { updatedAt: _a, ...was } = before ?? { updatedAt: '' };
  const { updatedAt: _b, ...now } = x;
  if (same(was, now)) return noChange({ event: ev, occurrenceDate: date });

  const exceptions = { ...(ev.exceptions ?? {}) };
  if (Object.keys(now).length) exceptions[date] = x;
  else delete exceptions[date];
  const next: EventRecord = { ...ev, updatedAt: x.updatedAt };
  if (Object.keys(exceptions).length) next.exceptions = exceptions;
  else delete next.exceptions;
  return withEventReactions(state, next, ctx, {
    result: { event: next, occurrenceDate: date },
    changes: [{ table: ENTRIES, id: ev.id, value: next }],
    events: [
      {
        type: 'calendar.event.updated',
        object: { ...eventView(state, next), occurrenceDate: date },
        previous: eventView(state, ev),
      },
    ],
  });
}

/**
 * DELETE with a scope: the whole event (series, the default) or one occurrence, which is then
 * left out of listings and written as an EXDATE.
 */
export function decideDeleteEventScoped(
  state: FamilyState,
  id: string,
  scope: { editScope?: EditScope; occurrenceDate?: string },
  ctx: CommandContext,
): Decision<EventChange> {
  const ev = requireEvent(state, id);
  const date = scopeOf(scope.editScope, scope.occurrenceDate, true);
  if (date === undefined || !isSeries(ev)) {
    if (date !== undefined && date !== ev.data.date) {
      throw new NotFound(`${date} is not an occurrence of event ${ev.id}`, [
        {
          path: ['query', 'occurrenceDate'],
          message: `is not an occurrence of this event: ${date}`,
        },
      ]);
    }
    const d = decideDeleteEvent(state, id, ctx);
    return { ...d, result: { event: d.result } };
  }
  if (ev.sourceId)
    throw new Conflict(`Event ${id} comes from an external calendar feed and cannot be deleted`);
  requireOccurrence(ev, date);
  const at = ctx.now.toISOString();
  const next: EventRecord = {
    ...ev,
    exceptions: { ...(ev.exceptions ?? {}), [date]: { removed: true, updatedAt: at } },
    updatedAt: at,
  };
  return withEventReactions(state, next, ctx, {
    result: { event: ev, occurrenceDate: date },
    changes: [{ table: ENTRIES, id, value: next }],
    events: [
      {
        type: 'calendar.event.updated',
        object: { ...eventView(state, next), occurrenceDate: date },
        previous: eventView(state, ev),
      },
    ],
  });
}
