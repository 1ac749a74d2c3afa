/**
 * Settling and reopening a date poll (the rest of the poll decisions are in polls.ts). Settling a
 * dated option writes an event to the `calendar` collection and links it to the plan in the same
 * decision; reopening removes that event if it still exists. Votes stay.
 */
import {
  decideCreateEvent,
  decideDeleteEvent,
  getEvent,
  type EventInput,
  type EventRecord,
} from '../calendar/events.js';
import { Conflict } from '../shared/errors.js';
import type {
  AgendaChange,
  CommandContext,
  Decision,
  FamilyState,
  LogEvent,
  RecordChange,
} from '../shared/state.js';
import { pollEvent, requireOption, requirePoll, withPoll } from './pollChecks.js';
import { linkedItemEvent, putPlan, requirePlan } from './plans.js';
import { PLANS, type EventLink, type PlanRecord, type PollRecord } from './types.js';
import { eventItemOf } from './views.js';

export interface SettleResult {
  poll: PollRecord;
  addedToCalendar: boolean;
  eventId: string | null;
}

/**
 * Settles an open poll on one option. A dated option becomes an event in the `calendar`
 * collection titled after the plan (the option's label in its note), linked to the plan:
 * `calendar.event.created`, `plan.event.linked`, `plan.poll.settled` in one decision.
 */
export function decideSettlePoll(
  state: FamilyState,
  planId: string,
  pollId: string,
  optionId: string,
  ctx: CommandContext,
): Decision<SettleResult> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  if (poll.status !== 'open') throw new Conflict('The poll is already settled (reopen it first)');
  const option = requireOption(poll, optionId);
  const at = ctx.now.toISOString();
  const changes: RecordChange[] = [];
  const events: LogEvent[] = [];
  // The new event's reminders and coverage alert (notifications) come with it.
  const agenda: AgendaChange[] = [];
  let event: EventRecord | null = null;
  let link: EventLink | null = null;
  if (option.date) {
    const input: EventInput = {
      title: plan.title,
      date: option.date,
      ...(option.endDate ? { endDate: option.endDate } : {}),
      ...(option.time ? { time: option.time } : {}),
      ...(option.endTime ? { endTime: option.endTime } : {}),
      ...(option.label ? { note: option.label } : {}),
    };
    const created = decideCreateEvent(state, input, ctx);
    event = created.result;
    link = {
      eventId: event.id,
      showDetailsOnShare: true,
      showLocationOnShare: false,
      linkedAt: at,
    };
    changes.push(...created.changes);
    events.push(...created.events);
    agenda.push(...(created.agenda ?? []));
    events.push(
      linkedItemEvent(
        'plan.event.linked',
        plan.id,
        eventItemOf(event, link, state.family.timezone),
      ),
    );
  }
  const settled: PollRecord = {
    ...poll,
    status: 'settled',
    settledOptionId: option.id,
    settledEventId: event?.id ?? null,
    settledAt: at,
    updatedAt: at,
  };
  const next: PlanRecord = {
    ...withPoll(plan, settled, at),
    events: link ? [...plan.events, link] : plan.events,
  };
  changes.push(putPlan(next));
  events.push(pollEvent('plan.poll.settled', plan.id, settled, ctx, poll));
  return {
    result: { poll: settled, addedToCalendar: event !== null, eventId: event?.id ?? null },
    changes,
    events,
    agenda,
  };
}

export interface ReopenResult {
  poll: PollRecord;
  removedFromCalendar: boolean;
  removedEventId: string | null;
}

/**
 * Reopens a settled poll, keeping its votes. The event settling created is deleted if it still
 * exists (every plan's link to it goes with it: `calendar.event.deleted`, `plan.event.unlinked`),
 * then `plan.poll.reopened`.
 */
export function decideReopenPoll(
  state: FamilyState,
  planId: string,
  pollId: string,
  ctx: CommandContext,
): Decision<ReopenResult> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  if (poll.status !== 'settled')
    throw new Conflict('The poll is open: only a settled poll can be reopened');
  const at = ctx.now.toISOString();
  const changes: RecordChange[] = [];
  const events: LogEvent[] = [];
  const agenda: AgendaChange[] = [];
  const eventId =
    poll.settledEventId && getEvent(state, poll.settledEventId) ? poll.settledEventId : null;
  if (eventId) {
    const removed = decideDeleteEvent(state, eventId, ctx);
    // The calendar's reaction already rewrote this plan (link gone); this decision writes the
    // plan once, below, with the same link removed.
    changes.push(...removed.changes.filter((c) => !(c.table === PLANS && c.id === plan.id)));
    events.push(...removed.events);
    agenda.push(...(removed.agenda ?? []));
  }
  const reopened: PollRecord = {
    ...poll,
    status: 'open',
    settledOptionId: null,
    settledEventId: null,
    settledAt: null,
    updatedAt: at,
  };
  const next: PlanRecord = {
    ...withPoll(plan, reopened, at),
    events: eventId ? plan.events.filter((l) => l.eventId !== eventId) : plan.events,
  };
  changes.push(putPlan(next));
  events.push(pollEvent('plan.poll.reopened', plan.id, reopened, ctx, poll));
  return {
    result: { poll: reopened, removedFromCalendar: eventId !== null, removedEventId: eventId },
    changes,
    events,
    agenda,
  };
}
