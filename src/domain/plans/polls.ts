/**
 * Date polls of a plan, and the states they move through:
 *
 *   open ──settle(optionId)──> settled ──reopen──> open
 *
 * The question, the options and the votes change only while the poll is open (409 otherwise).
 * Settling a dated option writes an event to the `calendar` collection and links it to the
 * plan in the same decision; reopening removes that event if it still exists. Votes stay.
 * Question and option edits are logged as `plan.updated`.
 */
import {
  decideCreateEvent,
  decideDeleteEvent,
  getEvent,
  type EventInput,
  type EventRecord,
} from '../calendar/events.js';
import { activePerson } from '../people/people.js';
import {
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  failOnIssues,
  type Issue,
  type Path,
} from '../shared/errors.js';
import type {
  AgendaChange,
  CommandContext,
  Decision,
  FamilyState,
  LogEvent,
  RecordChange,
} from '../shared/state.js';
import { minutesOfDay } from '../shared/time.js';
import { charCount } from '../shared/text.js';
import { linkedItemEvent, planUpdated, putPlan, requirePlan } from './plans.js';
import {
  LABEL_MAX,
  OPTIONS_MAX,
  OPTIONS_MIN,
  PLANS,
  POLLS_MAX,
  QUESTION_MAX,
  type EventLink,
  type OptionInput,
  type OptionRecord,
  type PlanRecord,
  type PollRecord,
} from './types.js';
import { eventItemOf, pollView } from './views.js';
import { noChange } from '../shared/decision.js';

// ---- checks ---------------------------------------------------------------------------------

function cleanQuestion(q: string): string {
  const t = q.trim();
  if (!t) throw Invalid.at(['question'], 'must not be blank');
  if (charCount(t) > QUESTION_MAX)
    throw Invalid.at(['question'], `must be at most ${QUESTION_MAX} characters long`);
  return t;
}

/**
 * An option from its request fields: a label or a date (or both); endDate, time and endTime
 * only with a date; endDate not before date; endTime only with a time and, on one day, after it.
 */
function makeOption(id: string, input: OptionInput, at: Path, issues: Issue[]): OptionRecord {
  const label = input.label?.trim() || null;
  if (label && charCount(label) > LABEL_MAX)
    issues.push({
      path: [...at, 'label'],
      message: `must be at most ${LABEL_MAX} characters long`,
    });
  const date = input.date ?? null;
  if (!label && !date)
    issues.push({ path: at.length ? at : ['label'], message: 'an option needs a label or a date' });
  if (!date) {
    for (const k of ['endDate', 'time', 'endTime'] as const) {
      if (input[k] !== undefined) issues.push({ path: [...at, k], message: 'needs a date' });
    }
  }
  const endDate = input.endDate ?? null;
  if (date && endDate && endDate < date)
    issues.push({ path: [...at, 'endDate'], message: `must not be before date ${date}` });
  const time = input.time ?? null;
  const endTime = input.endTime ?? null;
  if (date && endTime && !time)
    issues.push({ path: [...at, 'endTime'], message: 'needs a start time' });
  if (
    date &&
    time &&
    endTime &&
    (!endDate || endDate === date) &&
    minutesOfDay(endTime) <= minutesOfDay(time)
  ) {
    issues.push({ path: [...at, 'endTime'], message: 'must be after time on the same day' });
  }
  return {
    id,
    label,
    date,
    endDate: date && endDate !== date ? endDate : null,
    time: date ? time : null,
    endTime: date ? endTime : null,
  };
}

function requirePoll(plan: PlanRecord, pollId: string): PollRecord {
  const p = plan.polls.find((x) => x.id === pollId);
  if (!p) throw new NotFound(`No poll ${pollId} in plan ${plan.id}`);
  return p;
}

function requireOpen(poll: PollRecord, what: string): void {
  if (poll.status !== 'open')
    throw new Conflict(`The poll is settled: ${what} only while it is open (reopen it first)`);
}

function requireOption(poll: PollRecord, optionId: string): OptionRecord {
  const o = poll.options.find((x) => x.id === optionId);
  if (!o) throw new NotFound(`No option ${optionId} in poll ${poll.id}`);
  return o;
}

function withPoll(plan: PlanRecord, poll: PollRecord, at: string): PlanRecord {
  return { ...plan, polls: plan.polls.map((p) => (p.id === poll.id ? poll : p)), updatedAt: at };
}

function pollEvent(
  type: LogEvent['type'],
  planId: string,
  poll: PollRecord,
  ctx: CommandContext,
  before?: PollRecord,
): LogEvent {
  const pid = ctx.caller.personId;
  return {
    type,
    object: { planId, ...pollView(poll, pid) },
    ...(before ? { previous: { planId, ...pollView(before, pid) } } : {}),
  };
}

// ---- polls ----------------------------------------------------------------------------------

export interface CreatePollInput {
  question: string;
  options: OptionInput[];
}

export function decideCreatePoll(
  state: FamilyState,
  planId: string,
  input: CreatePollInput,
  ctx: CommandContext,
): Decision<PollRecord> {
  const plan = requirePlan(state, planId);
  const question = cleanQuestion(input.question);
  if (input.options.length < OPTIONS_MIN || input.options.length > OPTIONS_MAX) {
    throw Invalid.at(['options'], `must have ${OPTIONS_MIN} to ${OPTIONS_MAX} items`);
  }
  if (plan.polls.length >= POLLS_MAX) throw new Conflict(`A plan holds at most ${POLLS_MAX} polls`);
  const issues: Issue[] = [];
  const options = input.options.map((o, i) =>
    makeOption(ctx.newId('option'), o, ['options', i], issues),
  );
  failOnIssues(issues);
  const at = ctx.now.toISOString();
  const poll: PollRecord = {
    id: ctx.newId('poll'),
    question,
    status: 'open',
    options,
    votes: {},
    settledOptionId: null,
    settledEventId: null,
    settledAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const next: PlanRecord = { ...plan, polls: [...plan.polls, poll], updatedAt: at };
  return {
    result: poll,
    changes: [putPlan(next)],
    events: [pollEvent('plan.poll.created', plan.id, poll, ctx)],
  };
}

/**
 * Edits of an open poll's question and options: one plan record change, logged as `plan.updated`.
 */
function pollEdit(
  state: FamilyState,
  plan: PlanRecord,
  poll: PollRecord,
  ctx: CommandContext,
): Decision<PollRecord> {
  const next = withPoll(plan, poll, ctx.now.toISOString());
  return { result: poll, changes: [putPlan(next)], events: [planUpdated(state, plan, next, ctx)] };
}

export function decideUpdatePoll(
  state: FamilyState,
  planId: string,
  pollId: string,
  input: { question: string },
  ctx: CommandContext,
): Decision<PollRecord> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  requireOpen(poll, 'the question changes');
  const question = cleanQuestion(input.question);
  if (question === poll.question) return noChange(poll);
  return pollEdit(state, plan, { ...poll, question, updatedAt: ctx.now.toISOString() }, ctx);
}

/**
 * Deletes a poll with its votes (open or settled; an event settling made stays on the calendar).
 */
export function decideDeletePoll(
  state: FamilyState,
  planId: string,
  pollId: string,
  ctx: CommandContext,
): Decision<PollRecord> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  const next: PlanRecord = {
    ...plan,
    polls: plan.polls.filter((p) => p !== poll),
    updatedAt: ctx.now.toISOString(),
  };
  return {
    result: poll,
    changes: [putPlan(next)],
    events: [pollEvent('plan.poll.deleted', plan.id, poll, ctx)],
  };
}

// ---- options --------------------------------------------------------------------------------

export function decideAddOption(
  state: FamilyState,
  planId: string,
  pollId: string,
  input: OptionInput,
  ctx: CommandContext,
): Decision<OptionRecord> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  requireOpen(poll, 'options change');
  if (poll.options.length >= OPTIONS_MAX)
    throw new Conflict(`A poll has at most ${OPTIONS_MAX} options`);
  const issues: Issue[] = [];
  const option = makeOption(ctx.newId('option'), input, [], issues);
  failOnIssues(issues);
  const d = pollEdit(
    state,
    plan,
    { ...poll, options: [...poll.options, option], updatedAt: ctx.now.toISOString() },
    ctx,
  );
  return { ...d, result: option };
}

/** Replaces an option (a PUT: fields left out are cleared, docs/api.md). Its votes stay. */
export function decideReplaceOption(
  state: FamilyState,
  planId: string,
  pollId: string,
  optionId: string,
  input: OptionInput,
  ctx: CommandContext,
): Decision<OptionRecord> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  requireOpen(poll, 'options change');
  requireOption(poll, optionId);
  const issues: Issue[] = [];
  const option = makeOption(optionId, input, [], issues);
  failOnIssues(issues);
  const before = poll.options.find((o) => o.id === optionId)!;
  if (JSON.stringify(before) === JSON.stringify(option)) return noChange(before);
  const d = pollEdit(
    state,
    plan,
    {
      ...poll,
      options: poll.options.map((o) => (o.id === optionId ? option : o)),
      updatedAt: ctx.now.toISOString(),
    },
    ctx,
  );
  return { ...d, result: option };
}

/** Deletes an option and its votes; a poll keeps at least two options (409). */
export function decideDeleteOption(
  state: FamilyState,
  planId: string,
  pollId: string,
  optionId: string,
  ctx: CommandContext,
): Decision<OptionRecord> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  requireOpen(poll, 'options change');
  const option = requireOption(poll, optionId);
  if (poll.options.length <= OPTIONS_MIN)
    throw new Conflict(`A poll keeps at least ${OPTIONS_MIN} options; delete the poll instead`);
  const votes = Object.fromEntries(Object.entries(poll.votes).filter(([, v]) => v !== optionId));
  const d = pollEdit(
    state,
    plan,
    {
      ...poll,
      options: poll.options.filter((o) => o !== option),
      votes,
      updatedAt: ctx.now.toISOString(),
    },
    ctx,
  );
  return { ...d, result: option };
}

// ---- votes ----------------------------------------------------------------------------------

/** The person a vote belongs to: the key's own, active person (403 without one). */
function voter(state: FamilyState, ctx: CommandContext): string {
  const id = ctx.caller.personId;
  if (!id)
    throw new Forbidden('Only a key that acts for a person can vote: create one with --person');
  if (!activePerson(state, id))
    throw new Forbidden(`The person this key acts for (${id}) has been deleted`);
  return id;
}

/**
 * Casts or moves the caller's vote. Logged as `plan.poll.vote.cast` with the poll as the voter
 * sees it (`myVoteOptionId`); voting for the option already chosen changes nothing.
 */
export function decideVote(
  state: FamilyState,
  planId: string,
  pollId: string,
  optionId: string,
  ctx: CommandContext,
): Decision<PollRecord> {
  const personId = voter(state, ctx);
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  requireOpen(poll, 'votes change');
  requireOption(poll, optionId);
  if (poll.votes[personId] === optionId) return noChange(poll);
  const next: PollRecord = {
    ...poll,
    votes: { ...poll.votes, [personId]: optionId },
    updatedAt: ctx.now.toISOString(),
  };
  return {
    result: next,
    changes: [putPlan(withPoll(plan, next, next.updatedAt))],
    events: [pollEvent('plan.poll.vote.cast', plan.id, next, ctx, poll)],
  };
}

/**
 * Clears the caller's vote. There is no event type of its own for this (subscribers filter on
 * a fixed list; docs/decisions.md, "Clearing a vote"): it is logged as `plan.poll.vote.cast`
 * with `myVoteOptionId: null` (the vote withdrawn).
 */
export function decideClearVote(
  state: FamilyState,
  planId: string,
  pollId: string,
  ctx: CommandContext,
): Decision<PollRecord> {
  const personId = voter(state, ctx);
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  requireOpen(poll, 'votes change');
  if (poll.votes[personId] === undefined) return noChange(poll);
  const { [personId]: _gone, ...votes } = poll.votes;
  const next: PollRecord = { ...poll, votes, updatedAt: ctx.now.toISOString() };
  return {
    result: next,
    changes: [putPlan(withPoll(plan, next, next.updatedAt))],
    events: [pollEvent('plan.poll.vote.cast', plan.id, next, ctx, poll)],
  };
}

// ---- settle and reopen ------------------------------------------------------------------------

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
    events.push(linkedItemEvent('plan.event.linked', plan.id, eventItemOf(event, link)));
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
