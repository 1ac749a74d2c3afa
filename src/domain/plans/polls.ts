/**
 * Date polls of a plan, and the states they move through:
 *
 *   open ──settle(optionId)──> settled ──reopen──> open
 *
 * This file holds creating, editing and deleting polls, their options and the votes; settling
 * and reopening are in pollSettle.ts, the shared checks in pollChecks.ts. The question, the
 * options and the votes change only while the poll is open (409 otherwise). Question and option
 * edits are logged as `plan.updated`.
 */
import { activePerson } from '../people/people.js';
import { Conflict, Forbidden, Invalid, failOnIssues, type Issue } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import {
  cleanQuestion,
  makeOption,
  pollEvent,
  requireOpen,
  requireOption,
  requirePoll,
  withPoll,
} from './pollChecks.js';
import { planUpdated, putPlan, requirePlan } from './plans.js';
import { applyPatch, createFields, type CreateOf, type PatchOf } from '../shared/record.js';
import {
  OPTIONS_MAX,
  OPTIONS_MIN,
  POLL_FIELDS,
  POLLS_MAX,
  type OptionInput,
  type OptionRecord,
  type PlanRecord,
  type PollRecord,
} from './types.js';
import { noChange } from '../shared/decision.js';

// ---- polls ----------------------------------------------------------------------------------

export type CreatePollInput = Omit<CreateOf<typeof POLL_FIELDS>, 'options'> & {
  options: OptionInput[];
};

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
  const poll = createFields(
    POLL_FIELDS,
    { question, options },
    { id: ctx.newId('poll'), createdAt: at, updatedAt: at },
  );
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
  input: PatchOf<typeof POLL_FIELDS>,
  ctx: CommandContext,
): Decision<PollRecord> {
  const plan = requirePlan(state, planId);
  const poll = requirePoll(plan, pollId);
  requireOpen(poll, 'the question changes');
  const { next, changed } = applyPatch(POLL_FIELDS, poll, input);
  if (!changed) return noChange(poll);
  return pollEdit(state, plan, { ...next, updatedAt: ctx.now.toISOString() }, ctx);
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
