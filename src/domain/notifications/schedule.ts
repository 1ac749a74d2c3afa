/**
 * What an event puts on the agenda (docs/notifications.md, "When the service notifies"): for each
 * of its reminders, its leave-by and its coverage alert, the job of the next occurrence still to
 * come — only the next one, one job per thing — and the run time of each check on it. Recomputed in
 * the same decision as every change of the event, and again when a job fires (which then moves
 * itself on to the next occurrence).
 *
 * - reminder: occurrence start − offsetMinutes; a time already past when the event is saved is
 *   not sent (the next occurrence's is scheduled instead).
 * - leave-by: `travelPlan.leaveAt` of a timed occurrence.
 * - coverage: 48 h before the start of an occurrence nobody is responsible for (an owner alone
 *   is not coverage), unless the household said nobody is needed (`responsibilityRequired:
 *   false`; a feed's event only when it is `true`); at once when the window has begun.
 * - check: the event's next start − leadHours, at once when that is past; a check whose event
 *   has no start to come any more is dropped.
 * Each fires once per occurrence (marks.ts).
 */
import { REMINDERS_MAX, type EventData, type EventRecord } from '../calendar/types.js';
import { AGENDA_TABLE } from '../shared/agenda.js';
import type { AgendaChange, AgendaJob, FamilyState, RecordChange } from '../shared/state.js';
import type { JobSpec } from '../shared/jobs.js';
import { startMs } from '../calendar/series.js';
import { isMarked, markId } from './marks.js';
import { isAllDay, nextOccurrence, type Occurrence } from './occurrences.js';
import { CHECKS, JOB, jobId, type CheckRecord } from './types.js';

export const COVERAGE_WINDOW_MS = 48 * 3600_000;

/** The instant to leave for a timed occurrence with a travel plan, else null (`tz`: the family's). */
export function leaveByOf(d: EventData, tz: string): number | null {
  if (!d.travelPlan || isAllDay(d)) return null;
  const start = startMs(d, tz);
  return start - (d.travelPlan.baseTravelMinutes + (d.travelPlan.arriveEarlyMinutes ?? 0)) * 60_000;
}

/** Whether an occurrence wants a coverage alert (nobody responsible, and someone is needed). */
export function needsCoverage(d: EventData, fromFeed: boolean): boolean {
  if ((d.responsiblePersonIds?.length ?? 0) > 0) return false;
  return fromFeed ? d.responsibilityRequired === true : d.responsibilityRequired !== false;
}

const active = (o: Occurrence) => o.status === 'active';

/** The next reminder `index` of the event: its occurrence and due time. */
export function nextReminder(state: FamilyState, ev: EventRecord, index: number, now: Date) {
  const tz = state.family.timezone;
  return nextOccurrence(ev, tz, now, (o) => {
    const r = o.data.reminders?.[index];
    if (!r || !active(o) || isMarked(state, markId.reminder(ev.id, o.date, index))) return null;
    const due = o.start - r.offsetMinutes * 60_000;
    return due >= now.getTime() ? due : null;
  });
}

export function nextLeaveBy(state: FamilyState, ev: EventRecord, now: Date) {
  // Without a travel plan no occurrence has a leave-by time: answered without walking the
  // series (a daily one is 2,000 steps, each a zone conversion: tens of ms on every write).
  if (!ev.data.travelPlan && !Object.values(ev.exceptions ?? {}).some((x) => x.data?.travelPlan))
    return null;
  const tz = state.family.timezone;
  return nextOccurrence(ev, tz, now, (o) => {
    if (!active(o) || isMarked(state, markId.leaveBy(ev.id, o.date))) return null;
    const due = leaveByOf(o.data, tz);
    return due !== null && due >= now.getTime() ? due : null;
  });
}

export function nextCoverage(state: FamilyState, ev: EventRecord, now: Date) {
  const tz = state.family.timezone;
  return nextOccurrence(ev, tz, now, (o) => {
    if (
      !active(o) ||
      !needsCoverage(o.data, !!ev.sourceId) ||
      isMarked(state, markId.coverage(ev.id, o.date))
    )
      return null;
    return Math.max(now.getTime(), o.start - COVERAGE_WINDOW_MS);
  });
}

/** The run time of a check: the event's next start − leadHours, at once when that is past. */
export function nextCheckRun(state: FamilyState, ev: EventRecord, leadHours: number, now: Date) {
  return nextOccurrence(ev, state.family.timezone, now, (o) =>
    active(o) ? Math.max(now.getTime(), o.start - leadHours * 3_600_000) : null,
  );
}

/** A put when the job differs from what is on the agenda, a remove when there is one to remove. */
export function putOrRemove(state: FamilyState, id: string, job: JobSpec | null): AgendaChange[] {
  const live = state.get<AgendaJob>(AGENDA_TABLE, id);
  if (!job) return live ? [{ remove: id }] : [];
  if (
    live &&
    live.dueAt === job.dueAt &&
    live.kind === job.kind &&
    JSON.stringify(live.data) === JSON.stringify(job.data)
  )
    return [];
  return [{ put: { id, ...job } }];
}

/** The checks set on an event. */
export function checksOf(state: FamilyState, eventId: string): CheckRecord[] {
  const out: CheckRecord[] = [];
  for (const c of state.table<CheckRecord>(CHECKS).values()) if (c.eventId === eventId) out.push(c);
  return out;
}

/** The largest reminder index any occurrence of the event has (series or exception). */
function reminderCount(ev: EventRecord): number {
  let n = ev.data.reminders?.length ?? 0;
  for (const x of Object.values(ev.exceptions ?? {})) {
    const r = x.data?.reminders;
    if (Array.isArray(r)) n = Math.max(n, r.length);
  }
  return Math.min(n, REMINDERS_MAX);
}

/**
 * Every agenda change (and check record change) the event `ev` (null: deleted) implies now:
 * one job per reminder, one leave-by, one coverage alert, one per check — each at the next
 * occurrence, or removed when there is none.
 */
/** Which of the event's jobs to recompute: all of them (an edit), or the one that just fired. */
export type AgendaPart = { reminder: number } | 'leaveBy' | 'coverage';

export function eventAgenda(
  state: FamilyState,
  eventId: string,
  ev: EventRecord | null,
  now: Date,
  only?: AgendaPart,
): { agenda: AgendaChange[]; changes: RecordChange[] } {
  const agenda: AgendaChange[] = [];
  const changes: RecordChange[] = [];
  const live = ev && ev.status !== 'archived' ? ev : null;
  const count = live ? reminderCount(live) : 0;
  const want = (part: 'reminder' | 'leaveBy' | 'coverage' | 'checks', index?: number) =>
    only === undefined ||
    (typeof only === 'object' ? part === 'reminder' && index === only.reminder : part === only);
  for (let i = 0; i < REMINDERS_MAX; i++) {
    if (!want('reminder', i)) continue;
    const next = i < count ? nextReminder(state, live!, i, now) : null;
    agenda.push(
      ...putOrRemove(
        state,
        jobId.reminder(eventId, i),
        next
          ? {
              kind: JOB.reminder,
              dueAt: next.dueAt,
              data: { eventId, index: i, occurrenceDate: next.occurrence.date },
            }
          : null,
      ),
    );
  }
  if (want('leaveBy')) {
    const leave = live ? nextLeaveBy(state, live, now) : null;
    agenda.push(
      ...putOrRemove(
        state,
        jobId.leaveBy(eventId),
        leave
          ? {
              kind: JOB.leaveBy,
              dueAt: leave.dueAt,
              data: { eventId, occurrenceDate: leave.occurrence.date },
            }
          : null,
      ),
    );
  }
  if (want('coverage')) {
    const cover = live ? nextCoverage(state, live, now) : null;
    agenda.push(
      ...putOrRemove(
        state,
        jobId.coverage(eventId),
        cover
          ? {
              kind: JOB.coverage,
              dueAt: cover.dueAt,
              data: { eventId, occurrenceDate: cover.occurrence.date },
            }
          : null,
      ),
    );
  }
  for (const check of want('checks') ? checksOf(state, eventId) : []) {
    const run = ev ? nextCheckRun(state, ev, check.leadHours, now) : null;
    if (run) {
      agenda.push(
        ...putOrRemove(state, jobId.check(check.id), {
          kind: JOB.check,
          dueAt: run.dueAt,
          data: { checkId: check.id },
        }),
      );
    } else {
      agenda.push(...putOrRemove(state, jobId.check(check.id), null));
      changes.push({ table: CHECKS, id: check.id, value: null });
    }
  }
  return { agenda, changes };
}
