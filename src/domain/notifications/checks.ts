/**
 * Checks (docs/notifications.md): a task to be reminded of `leadHours` before a calendar event's
 * next start. The run time follows the event when it moves (schedule.ts recomputes it in the same
 * decision as the event's change); deleting the event removes the check. It fires once.
 */
import { requireEvent } from '../calendar/events.js';
import { Conflict } from '../shared/errors.js';
import {
  cleanSent,
  createFields,
  viewFields,
  type CreateOf,
  type Derived,
  type ViewOf,
} from '../shared/record.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { nextCheckRun } from './schedule.js';
import { CHECK_FIELDS, CHECKS, JOB, jobId, LEAD_HOURS_MAX, type CheckRecord } from './types.js';

export { LEAD_HOURS_MAX };

/** What a create sends (already through its struct). */
export type CheckInput = CreateOf<typeof CHECK_FIELDS>;

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
  const sent = cleanSent(CHECK_FIELDS, input);
  const ev = requireEvent(state, input.eventId);
  const run = nextCheckRun(state, ev, input.leadHours, ctx.now);
  if (!run)
    throw new Conflict(
      `Event ${ev.id} has no start still to come: there is nothing to check ahead of`,
      [{ path: ['eventId'], message: 'has no upcoming start' }],
    );
  const check = createFields(CHECK_FIELDS, sent, {
    id: ctx.newId('trg'),
    createdAt: ctx.now.toISOString(),
  });
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

/** The answer's `triggerId`: the check's id, as its notification carries it. */
export const CHECK_DERIVED: Record<string, Derived<CheckRecord>> = {
  triggerId: {
    after: 'id',
    schema: { type: 'string', description: "The check's id (trg_…); its notification carries it" },
    of: (c) => c.id,
  },
};

/** The check as the `calendar.check.created` record carries it. */
export function checkView(c: CheckRecord): ViewOf<typeof CHECK_FIELDS> & { triggerId: string } {
  return viewFields(CHECK_FIELDS, c, CHECK_DERIVED) as ViewOf<typeof CHECK_FIELDS> & {
    triggerId: string;
  };
}
