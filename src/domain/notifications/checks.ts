/**
 * Checks (docs/notifications.md): a task to be reminded of `leadHours` before a calendar event's
 * next start. The run time follows the event when it moves (schedule.ts recomputes it in the same
 * decision as the event's change); deleting the event removes the check. It fires once.
 */
import { requireEvent } from '../calendar/events.js';
import { Conflict, Invalid } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { nextCheckRun } from './schedule.js';
import { CHECKS, JOB, jobId, type Channel, type CheckRecord } from './types.js';

/** Upper bound of `leadHours` (a decision: 30 days ahead is as far as a check looks). */
export const LEAD_HOURS_MAX = 720;

export interface CheckInput {
  eventId: string;
  leadHours: number;
  task: string;
  channels?: Channel[];
}

export interface CreatedCheck {
  check: CheckRecord;
  runAt: string;
  occurrenceDate: string;
}

export function decideCreateCheck(
  state: FamilyState,
  input: CheckInput,
  ctx: CommandContext,
): Decision<CreatedCheck> {
  const task = input.task.trim();
  if (!task) throw Invalid.at(['task'], 'must not be blank');
  const ev = requireEvent(state, input.eventId);
  const run = nextCheckRun(state, ev, input.leadHours, ctx.now);
  if (!run)
    throw new Conflict(
      `Event ${ev.id} has no start still to come: there is nothing to check ahead of`,
      [{ path: ['eventId'], message: 'has no upcoming start' }],
    );
  const check: CheckRecord = {
    id: ctx.newId('trg'),
    eventId: ev.id,
    leadHours: input.leadHours,
    task,
    channels: [...new Set<Channel>(input.channels ?? ['in_app'])],
    createdAt: ctx.now.toISOString(),
  };
  const runAt = new Date(run.dueAt).toISOString();
  return {
    result: { check, runAt, occurrenceDate: run.occurrence.date },
    changes: [{ table: CHECKS, id: check.id, value: check }],
    events: [
      {
        type: 'calendar.check.created',
        object: { ...checkView(check), runAt, occurrenceDate: run.occurrence.date },
      },
    ],
    agenda: [
      {
        put: {
          id: jobId.check(check.id),
          kind: JOB.check,
          dueAt: run.dueAt,
          data: { checkId: check.id },
        },
      },
    ],
  };
}

export function checkView(c: CheckRecord) {
  return {
    id: c.id,
    triggerId: c.id,
    eventId: c.eventId,
    leadHours: c.leadHours,
    task: c.task,
    channels: c.channels,
    createdAt: c.createdAt,
  };
}
