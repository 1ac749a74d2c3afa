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
import { checkCron, checkTimeZone, nextCronRun } from './cron.js';
import { putOrRemove } from './schedule.js';
import {
  JOB,
  jobId,
  ROUTINES,
  type Channel,
  type RoutineIntent,
  type RoutineMode,
  type RoutineRecord,
} from './types.js';
import { noChange } from '../shared/decision.js';

export interface RoutineInput {
  channels?: Channel[];
  cron?: string;
  intent?: RoutineIntent;
  isEnabled?: boolean;
  mode?: RoutineMode;
  /** null (on a change): follow the family's zone again. */
  timezone?: string | null;
  title?: string | null;
  message?: string | null;
}

export const ROUTINE_DEFAULTS = {
  cron: '0 7 * * *',
  intent: 'briefing',
  mode: 'plain',
  channels: ['in_app'],
} as const;

export interface RoutineView extends Omit<RoutineRecord, 'timezone'> {
  /** The zone it runs in (the family's when it follows it). */
  timezone: string;
  followsFamilyZone: boolean;
  nextRunAt: string | null;
}

/** The zone a routine runs in: its own, else the family's. */
export function routineZone(state: FamilyState, r: RoutineRecord): string {
  return r.timezone ?? state.family.timezone;
}

export function routineView(state: FamilyState, r: RoutineRecord): RoutineView {
  const job = state.get<AgendaJob>(AGENDA_TABLE, jobId.routine(r.id));
  return { ...viewOf(state, r), nextRunAt: job ? new Date(job.dueAt).toISOString() : null };
}

function viewOf(state: FamilyState, r: RoutineRecord): Omit<RoutineView, 'nextRunAt'> {
  const { timezone: _own, ...rest } = r;
  return { ...rest, timezone: routineZone(state, r), followsFamilyZone: r.timezone === null };
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

function cleanText(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v;
  const t = v.trim();
  return t ? t : null;
}

export function decideCreateRoutine(
  state: FamilyState,
  input: RoutineInput,
  ctx: CommandContext,
): Decision<RoutineRecord> {
  const cron = input.cron ?? ROUTINE_DEFAULTS.cron;
  checkCron(cron);
  // Without a zone it follows the family's, also when that changes.
  const timezone = typeof input.timezone === 'string' ? checkTimeZone(input.timezone) : null;
  const at = ctx.now.toISOString();
  const r: RoutineRecord = {
    id: ctx.newId('trg'),
    cron,
    timezone,
    intent: input.intent ?? ROUTINE_DEFAULTS.intent,
    mode: input.mode ?? ROUTINE_DEFAULTS.mode,
    channels: [...new Set(input.channels ?? ROUTINE_DEFAULTS.channels)],
    isEnabled: input.isEnabled ?? true,
    title: cleanText(input.title) ?? null,
    message: cleanText(input.message) ?? null,
    lastRunAt: null,
    createdAt: at,
    updatedAt: at,
  };
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
  if (put && 'put' in put)
    return { ...viewOf(state, r), nextRunAt: new Date(put.put.dueAt).toISOString() };
  if (agenda.some((a) => 'remove' in a && a.remove === jobId.routine(r.id)))
    return { ...viewOf(state, r), nextRunAt: null };
  return routineView(state, r);
}

export function decideUpdateRoutine(
  state: FamilyState,
  id: string,
  input: RoutineInput,
  ctx: CommandContext,
): Decision<RoutineRecord> {
  const before = requireRoutine(state, id);
  const next: RoutineRecord = { ...before };
  if (input.cron !== undefined) {
    checkCron(input.cron);
    next.cron = input.cron;
  }
  if (input.timezone !== undefined)
    next.timezone = input.timezone === null ? null : checkTimeZone(input.timezone);
  if (input.intent !== undefined) next.intent = input.intent;
  if (input.mode !== undefined) next.mode = input.mode;
  if (input.channels !== undefined) next.channels = [...new Set(input.channels)];
  if (input.isEnabled !== undefined) next.isEnabled = input.isEnabled;
  if (input.title !== undefined) next.title = cleanText(input.title) ?? null;
  if (input.message !== undefined) next.message = cleanText(input.message) ?? null;
  if (JSON.stringify(next) === JSON.stringify(before)) return noChange(before);
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
