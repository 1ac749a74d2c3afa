/**
 * What each of this area's agenda jobs decides when it fires (the scheduler wraps these in its
 * `fireCommand`, which also takes the job off the agenda unless the decision moves it on).
 * Audiences are resolved here, at firing time, from live data. A job found later than
 * `scheduler.catchUpMinutes` (`missed`) is recorded with every send suppressed, and the next
 * one is scheduled as usual.
 */
import { getEvent } from '../calendar/events.js';
import type { Audience, Channel, EventData, EventRecord } from '../calendar/types.js';
import { listPeople, type Person } from '../people/people.js';
import type {
  AgendaChange,
  CommandContext,
  Decision,
  FamilyState,
  LogEvent,
  RecordChange,
} from '../shared/state.js';
import { composeNotification, type NotificationInput } from './compose.js';
import { MISSED } from './delivery.js';
import { mark, markId } from './marks.js';
import { occurrenceOn, type Occurrence } from './occurrences.js';
import { nextRoutineJob } from './routines.js';
import { eventAgenda, needsCoverage, nextCheckRun, type AgendaPart } from './schedule.js';
import {
  checkText,
  coverageText,
  leaveByText,
  reminderText,
  routineText,
  type WeatherNote,
} from './texts.js';
import { readFields } from '../shared/record.js';
import {
  CHECK_FIELDS,
  CHECKS,
  KEEP_MS,
  MARKS,
  NOTIFICATIONS,
  ROUTINES,
  type CheckRecord,
  type JOB,
  type NotificationRecord,
  type RoutineRecord,
  type Transports,
} from './types.js';

export interface FireOptions {
  transports: Transports;
  missed: boolean;
  weather?: WeatherNote | null;
}

export type Fired = NotificationRecord | null;

/** Channels of the service's notifications that have no list of their own. */
export const SERVICE_CHANNELS: Channel[] = ['in_app', 'email', 'push'];

/** The people an audience names: household, responsible (and owner), going, or chosen people. */
export function audiencePeople(
  state: FamilyState,
  d: EventData,
  audience: Audience,
  recipients: readonly string[] = [],
): Person[] {
  const all = listPeople(state);
  switch (audience) {
    case 'household':
      return all;
    case 'responsible': {
      const ids = new Set([
        ...(d.responsiblePersonIds ?? []),
        ...(d.ownerPersonId ? [d.ownerPersonId] : []),
      ]);
      return all.filter((p) => ids.has(p.id));
    }
    case 'going':
      return all.filter((p) => {
        const a = d.attendance?.[p.id];
        return a === 'going' || (a === undefined && d.everyoneAttendance === 'going');
      });
    case 'people': {
      const ids = new Set(recipients);
      return all.filter((p) => ids.has(p.id));
    }
    default: {
      const never: never = audience;
      throw new Error(`unknown audience ${String(never)}`);
    }
  }
}

function result(
  notification: NotificationRecord | null,
  changes: RecordChange[],
  events: LogEvent[],
  agenda: AgendaChange[],
): Decision<Fired> {
  return { result: notification, changes, events, agenda };
}

/** Composes and adds the notification to the decision parts. */
function notify(
  state: FamilyState,
  ctx: CommandContext,
  opts: FireOptions,
  input: NotificationInput,
  changes: RecordChange[],
  events: LogEvent[],
  agenda: AgendaChange[],
): NotificationRecord {
  const c = composeNotification(
    state,
    ctx,
    opts.transports,
    opts.missed ? { ...input, skippedReason: MISSED } : input,
  );
  changes.push(...c.changes);
  events.push(...c.events);
  agenda.push(...c.agenda);
  return c.record;
}

/** State with the changes so far applied on top, for recomputing what comes next. */
function withMarks(state: FamilyState, marks: RecordChange[]): FamilyState {
  if (!marks.length) return state;
  const view = Object.create(state) as FamilyState;
  const extra = new Map(marks.map((m) => [m.id, m.value]));
  view.get = <T>(table: string, id: string): T | undefined =>
    table === MARKS && extra.has(id) ? (extra.get(id) as T) : state.get<T>(table, id);
  return view;
}

/** The event and the occurrence a job was scheduled for, if both still exist. */
function target(
  state: FamilyState,
  data: { eventId: string; occurrenceDate: string },
): { ev: EventRecord; o: Occurrence } | null {
  const ev = getEvent(state, data.eventId);
  if (!ev) return null;
  const o = occurrenceOn(ev, data.occurrenceDate, state.family.timezone);
  return o && o.status === 'active' ? { ev, o } : null;
}

/** After a firing: the event's jobs recomputed with the new mark (moves this job on). */
function reschedule(
  state: FamilyState,
  eventId: string,
  marks: RecordChange[],
  now: Date,
  part: AgendaPart,
): AgendaChange[] {
  return eventAgenda(withMarks(state, marks), eventId, getEvent(state, eventId) ?? null, now, part)
    .agenda;
}

/**
 * A firing for one occurrence of an event (a reminder, leave-by, coverage): when the occurrence
 * still exists and `what` gives a notification for it, it goes out and its mark is set; then the
 * event's jobs of that `part` are recomputed (which moves this job on).
 */
function fireOccurrence(
  state: FamilyState,
  ctx: CommandContext,
  data: { eventId: string; occurrenceDate: string },
  opts: FireOptions,
  part: AgendaPart,
  what: (t: {
    ev: EventRecord;
    o: Occurrence;
  }) => { input: NotificationInput; markId: string } | null,
): Decision<Fired> {
  const changes: RecordChange[] = [];
  const events: LogEvent[] = [];
  const agenda: AgendaChange[] = [];
  const t = target(state, data);
  const firing = t ? what(t) : null;
  let record: NotificationRecord | null = null;
  if (firing) {
    record = notify(state, ctx, opts, firing.input, changes, events, agenda);
    changes.push(mark(firing.markId, ctx.now));
  }
  agenda.push(
    ...reschedule(
      state,
      data.eventId,
      changes.filter((c) => c.table === MARKS),
      ctx.now,
      part,
    ),
  );
  return result(record, changes, events, agenda);
}

export function fireReminder(
  state: FamilyState,
  ctx: CommandContext,
  data: { eventId: string; index: number; occurrenceDate: string },
  opts: FireOptions,
): Decision<Fired> {
  return fireOccurrence(state, ctx, data, opts, { reminder: data.index }, (t) => {
    const reminder = t.o.data.reminders?.[data.index];
    if (!reminder) return null;
    const contextual = reminder.mode === 'contextual';
    return {
      input: {
        kind: 'reminder',
        text: reminderText(state, t.o, ctx.now, contextual, opts.weather),
        channels: reminder.channels,
        preferenceKind: 'reminder',
        people: audiencePeople(state, t.o.data, reminder.audience, reminder.recipientPersonIds),
        eventId: t.ev.id,
        occurrenceDate: t.o.date,
      },
      markId: markId.reminder(t.ev.id, t.o.date, data.index),
    };
  });
}

export function fireLeaveBy(
  state: FamilyState,
  ctx: CommandContext,
  data: { eventId: string; occurrenceDate: string },
  opts: FireOptions,
): Decision<Fired> {
  return fireOccurrence(state, ctx, data, opts, 'leaveBy', (t) => {
    if (!t.o.data.travelPlan) return null;
    const goingPeople = audiencePeople(state, t.o.data, 'going');
    return {
      input: {
        kind: 'leave_by',
        text: leaveByText(t.o),
        channels: SERVICE_CHANNELS,
        preferenceKind: 'reminder',
        people: goingPeople.length ? goingPeople : listPeople(state),
        eventId: t.ev.id,
        occurrenceDate: t.o.date,
      },
      markId: markId.leaveBy(t.ev.id, t.o.date),
    };
  });
}

export function fireCoverage(
  state: FamilyState,
  ctx: CommandContext,
  data: { eventId: string; occurrenceDate: string },
  opts: FireOptions,
): Decision<Fired> {
  return fireOccurrence(state, ctx, data, opts, 'coverage', (t) => {
    if (!needsCoverage(t.o.data, !!t.ev.sourceId)) return null;
    return {
      input: {
        kind: 'coverage_alert',
        text: coverageText(t.o, ctx.now),
        channels: SERVICE_CHANNELS,
        preferenceKind: 'coverage_alert',
        eventId: t.ev.id,
        occurrenceDate: t.o.date,
      },
      markId: markId.coverage(t.ev.id, t.o.date),
    };
  });
}

/** A check fires once: its notification goes out and the check is done (removed). */
export function fireCheck(
  state: FamilyState,
  ctx: CommandContext,
  data: { checkId: string },
  opts: FireOptions,
): Decision<Fired> {
  const changes: RecordChange[] = [];
  const events: LogEvent[] = [];
  const agenda: AgendaChange[] = [];
  const stored = state.get<CheckRecord>(CHECKS, data.checkId);
  if (!stored) return result(null, changes, events, agenda);
  const check = readFields(CHECK_FIELDS, stored);
  const ev = getEvent(state, check.eventId);
  const o = ev
    ? (nextCheckRun(state, ev, 0, new Date(ctx.now.getTime() - 1))?.occurrence ?? null)
    : null;
  const record = notify(
    state,
    ctx,
    opts,
    {
      kind: 'check',
      text: checkText(check.task, o, ev?.title ?? null, ctx.now),
      channels: check.channels,
      preferenceKind: 'follow_up_nudge',
      triggerId: check.id,
      eventId: check.eventId,
      ...(o ? { occurrenceDate: o.date } : {}),
    },
    changes,
    events,
    agenda,
  );
  changes.push({ table: CHECKS, id: check.id, value: null });
  return result(record, changes, events, agenda);
}

/**
 * A routine's cron time: its notification, `lastRunAt`, and the job moved to the next cron time.
 */
export function fireRoutine(
  state: FamilyState,
  ctx: CommandContext,
  data: { routineId: string; dueAt: number },
  opts: FireOptions,
): Decision<Fired> {
  const changes: RecordChange[] = [];
  const events: LogEvent[] = [];
  const agenda: AgendaChange[] = [];
  const r = state.get<RoutineRecord>(ROUTINES, data.routineId);
  if (!r || !r.isEnabled) return result(null, changes, events, agenda);
  const record = notify(
    state,
    ctx,
    opts,
    {
      kind: 'routine',
      text: routineText(state, r, ctx.now, opts.weather),
      channels: r.channels,
      preferenceKind: r.intent === 'reminder' ? 'reminder' : 'digest',
      triggerId: r.id,
    },
    changes,
    events,
    agenda,
  );
  const next: RoutineRecord = { ...r, lastRunAt: ctx.now.toISOString() };
  changes.push({ table: ROUTINES, id: r.id, value: next });
  // The next cron time after this one (and after now: a late firing does not repeat the ones it
  // missed).
  agenda.push(...nextRoutineJob(state, next, new Date(Math.max(data.dueAt, ctx.now.getTime()))));
  return result(record, changes, events, agenda);
}

/** How many old records one pruning pass removes at most. */
export const PRUNE_BATCH = 500;

/**
 * Removes notifications and marks older than 30 days, at most PRUNE_BATCH per pass; the job
 * comes back at once while there is more, else when the oldest record left turns 30 days old.
 */
export function prune(
  state: FamilyState,
  ctx: CommandContext,
  jobIdValue: string,
  kind: typeof JOB.prune,
): Decision<number> {
  const cutoff = ctx.now.getTime() - KEEP_MS;
  const changes: RecordChange[] = [];
  let oldestLeft = Infinity;
  for (const table of [NOTIFICATIONS, MARKS]) {
    for (const [id, r] of state.table<{ createdAt?: string; at?: string }>(table)) {
      const at = Date.parse(r.createdAt ?? r.at ?? '');
      if (at <= cutoff && changes.length < PRUNE_BATCH) changes.push({ table, id, value: null });
      else if (at > cutoff) {
        oldestLeft = Math.min(oldestLeft, at);
        if (table === NOTIFICATIONS) break;
      } else {
        oldestLeft = ctx.now.getTime();
        break;
      }
    }
  }
  const agenda: AgendaChange[] =
    changes.length >= PRUNE_BATCH
      ? [{ put: { id: jobIdValue, kind, dueAt: ctx.now.getTime() + 1_000 } }]
      : Number.isFinite(oldestLeft)
        ? [{ put: { id: jobIdValue, kind, dueAt: oldestLeft + KEEP_MS } }]
        : [];
  return { result: changes.length, changes, events: [], agenda };
}
