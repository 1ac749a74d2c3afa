/**
 * Notification routines (docs/notifications.md): a cron pattern in a time zone that sends a
 * briefing, a reminder or a digest. Defaults: `0 7 * * *`, intent briefing, mode plain, channels
 * [in_app], enabled, the family's time zone. Only the next cron time is on the agenda; it is
 * put, moved or removed in the same decision as the routine's change, and moved on when it fires.
 */
import { AGENDA_TABLE } from '../shared/agenda.js';
import { NotFound } from '../shared/errors.js';
import type {
  AgendaChange,
  AgendaJob,
  CommandContext,
  Decision,
  FamilyState,
} from '../shared/state.js';
import { nextCronRun } from './cron.js';
import {
  applyPatch,
  createFields,
  viewFields,
  type CreateOf,
  type Derived,
  type PatchOf,
} from '../shared/record.js';
import { putOrRemove } from './schedule.js';
import { JOB, jobId, ROUTINE_FIELDS, ROUTINES, type RoutineRecord } from './types.js';
import { noChange } from '../shared/decision.js';

export type RoutineInput = CreateOf<typeof ROUTINE_FIELDS>;
export type RoutinePatch = PatchOf<typeof ROUTINE_FIELDS>;

export interface RoutineView extends Omit<RoutineRecord, 'timezone'> {
  /** The zone it runs in (the family's when it follows it). */
  timezone: string;
  followsFamilyZone: boolean;
  nextRunAt: string | null;
}

/** What the view of a routine shows besides its fields, given the family's state. */
export const ROUTINE_DERIVED = {
  followsFamilyZone: {
    after: 'timezone',
    schema: {
      type: 'boolean',
      description:
        "Extension: made (or changed) without a zone, it runs in the family's zone and follows it when the family's zone changes",
    },
    of: (r: RoutineRecord) => r.timezone === null,
  },
  nextRunAt: {
    after: 'message',
    schema: { type: ['string', 'null'], format: 'date-time', description: 'Null when disabled' },
    of: (_r: RoutineRecord, next: string | null) => next,
  },
} satisfies Record<string, Derived<RoutineRecord, string | null>>;

/** The zone a routine runs in: its own, else the family's. */
export function routineZone(state: FamilyState, r: RoutineRecord): string {
  return r.timezone ?? state.family.timezone;
}

export function routineView(state: FamilyState, r: RoutineRecord): RoutineView {
  const job = state.get<AgendaJob>(AGENDA_TABLE, jobId.routine(r.id));
  return viewOf(state, r, job ? new Date(job.dueAt).toISOString() : null);
}

/** The view, with the next run as given; `timezone` shows the zone it runs in. */
function viewOf(state: FamilyState, r: RoutineRecord, nextRunAt: string | null): RoutineView {
  const view = viewFields(ROUTINE_FIELDS, r, ROUTINE_DERIVED, nextRunAt);
  return { ...view, timezone: routineZone(state, r) } as RoutineView;
}

export function listRoutines(state: FamilyState): RoutineRecord[] {
  return Array.from(state.table<RoutineRecord>(ROUTINES).values());
}

/** The routine's job at its next cron time after `after` (none when disabled or never again). */
export function nextRoutineJob(state: FamilyState, r: RoutineRecord, after: Date): AgendaChange[] {
  const next = r.isEnabled ? nextCronRun(r.cron, routineZone(state, r), after) : null;
  return putOrRemove(
    state,
    jobId.routine(r.id),
    next ? { kind: JOB.routine, dueAt: next.getTime(), data: { routineId: r.id } } : null,
  );
}

function requireRoutine(state: FamilyState, id: string): RoutineRecord {
  const r = state.get<RoutineRecord>(ROUTINES, id);
  if (!r) throw new NotFound(`No notification routine ${id} in this family`);
  return r;
}

export function decideCreateRoutine(
  state: FamilyState,
  input: RoutineInput,
  ctx: CommandContext,
): Decision<RoutineRecord> {
  const at = ctx.now.toISOString();
  const r = createFields(ROUTINE_FIELDS, input, {
    id: ctx.newId('trg'),
    createdAt: at,
    updatedAt: at,
  });
  const agenda = nextRoutineJob(state, r, ctx.now);
  return {
    result: r,
    changes: [{ table: ROUTINES, id: r.id, value: r }],
    events: [{ type: 'notification_routine.created', object: viewAfter(state, r, agenda) }],
    agenda,
  };
}

/** The view with the agenda as this decision leaves it. */
function viewAfter(state: FamilyState, r: RoutineRecord, agenda: AgendaChange[]): RoutineView {
  const put = agenda.find((a) => 'put' in a && a.put.id === jobId.routine(r.id));
  if (put && 'put' in put) return viewOf(state, r, new Date(put.put.dueAt).toISOString());
  if (agenda.some((a) => 'remove' in a && a.remove === jobId.routine(r.id)))
    return viewOf(state, r, null);
  return routineView(state, r);
}

export function decideUpdateRoutine(
  state: FamilyState,
  id: string,
  input: RoutinePatch,
  ctx: CommandContext,
): Decision<RoutineRecord> {
  const before = requireRoutine(state, id);
  const { next, changed } = applyPatch(ROUTINE_FIELDS, before, input);
  if (!changed) return noChange(before);
  next.updatedAt = ctx.now.toISOString();
  const timing =
    next.cron !== before.cron ||
    next.timezone !== before.timezone ||
    next.isEnabled !== before.isEnabled;
  const agenda = timing ? nextRoutineJob(state, next, ctx.now) : [];
  return {
    result: next,
    changes: [{ table: ROUTINES, id, value: next }],
    events: [
      {
        type: 'notification_routine.updated',
        object: viewAfter(state, next, agenda),
        previous: routineView(state, before),
      },
    ],
    agenda,
  };
}

export function decideDeleteRoutine(
  state: FamilyState,
  id: string,
  _ctx: CommandContext,
): Decision<RoutineRecord> {
  const r = requireRoutine(state, id);
  return {
    result: r,
    changes: [{ table: ROUTINES, id, value: null }],
    events: [{ type: 'notification_routine.deleted', object: routineView(state, r) }],
    agenda: putOrRemove(state, jobId.routine(id), null),
  };
}
