/**
 * Plan polls: question, options, votes, settle and reopen (the states are drawn in
 * src/domain/plans/polls.ts). Question, options and votes change only while a poll is open (409
 * otherwise); settling a dated option writes the calendar, reopening removes that event again. Each
 * answer carries the poll as the caller sees it (`votes` per option, the caller's
 * `myVoteOptionId`).
 */
import { route, defineRoutes } from '../route.js';
import type { Caller, FamilyState } from '../../domain/shared/state.js';
import {
  decideAddOption,
  decideClearVote,
  decideCreatePoll,
  decideDeleteOption,
  decideDeletePoll,
  decideReplaceOption,
  decideUpdatePoll,
  decideVote,
} from '../../domain/plans/polls.js';
import { decideReopenPoll, decideSettlePoll } from '../../domain/plans/pollSettle.js';
import { requirePlan } from '../../domain/plans/plans.js';
import { pollView, type PollView } from '../../domain/plans/views.js';
import {
  CLEAR_VOTE_RESPONSE,
  ChooseOptionBody,
  CreatePollBody,
  OPTION_RESPONSE,
  OptionBody,
  POLL_DELETE_RESPONSE,
  POLL_RESPONSE,
  REOPEN_RESPONSE,
  SETTLE_RESPONSE,
  UpdatePollBody,
  VOTE_RESPONSE,
  optionInput,
} from './plans.schema.js';
import { PLAN_TAGS as tags } from './plans.js';

const base = '/plans/:planId/polls';
const OPEN_ONLY = 'Only while the poll is open (409 when settled).';

/** The poll as it stands in `s`, for the calling key. */
function currentPoll(
  s: FamilyState,
  planId: string,
  pollId: string,
  caller: Caller,
): PollView | undefined {
  const p = requirePlan(s, planId).polls.find((x) => x.id === pollId);
  return p ? pollView(p, caller.personId) : undefined;
}

export default defineRoutes([
  route({
    method: 'post',
    path: base,
    tags,
    status: 201,
    body: CreatePollBody,
    summary: 'Add a date poll to a plan',
    description:
      '2 to 12 options, each a label or a date (or both); a dated option may carry endDate, time and endTime. Times are taken as HH:mm or 3:30 PM and shown as 3:30 PM.',
    response: POLL_RESPONSE,
    handler: ({ params, body, family, caller }) => {
      const input = { question: body.question, options: body.options.map(optionInput) };
      return family.execute(
        (s, ctx) => decideCreatePoll(s, params.planId, input, ctx),
        (p) => ({ ok: true, pollId: p.id, poll: pollView(p, caller.personId) }),
      );
    },
  }),
  route({
    method: 'patch',
    path: `${base}/:pollId`,
    tags,
    body: UpdatePollBody,
    summary: "Change a poll's question",
    description: OPEN_ONLY,
    response: POLL_RESPONSE,
    handler: ({ params, body, family, caller }) =>
      family.execute(
        (s, ctx) => decideUpdatePoll(s, params.planId, params.pollId, body, ctx),
        (p) => ({ ok: true, pollId: p.id, poll: pollView(p, caller.personId) }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:pollId`,
    tags,
    summary: 'Delete a poll and its votes',
    description:
      'Open or settled; an event settling created stays on the calendar and in the plan.',
    response: POLL_DELETE_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (s, ctx) => decideDeletePoll(s, params.planId, params.pollId, ctx),
        (p) => ({ ok: true, pollId: p.id }),
      ),
  }),
  route({
    method: 'post',
    path: `${base}/:pollId/options`,
    tags,
    status: 201,
    body: OptionBody,
    summary: 'Add an option to a poll',
    description: `${OPEN_ONLY} A poll has at most 12 options (a 13th → 409).`,
    response: OPTION_RESPONSE,
    handler: ({ params, body, family, caller }) =>
      family.execute(
        (s, ctx) => decideAddOption(s, params.planId, params.pollId, optionInput(body), ctx),
        (o, s) => ({
          ok: true,
          optionId: o.id,
          poll: currentPoll(s, params.planId, params.pollId, caller),
        }),
      ),
  }),
  route({
    method: 'patch',
    path: `${base}/:pollId/options/:optionId`,
    tags,
    body: OptionBody,
    summary: 'Replace a poll option',
    description: `${OPEN_ONLY} Send the whole option: fields left out are cleared. Its votes stay.`,
    response: OPTION_RESPONSE,
    handler: ({ params, body, family, caller }) =>
      family.execute(
        (s, ctx) =>
          decideReplaceOption(
            s,
            params.planId,
            params.pollId,
            params.optionId,
            optionInput(body),
            ctx,
          ),
        (o, s) => ({
          ok: true,
          optionId: o.id,
          poll: currentPoll(s, params.planId, params.pollId, caller),
        }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:pollId/options/:optionId`,
    tags,
    summary: 'Delete a poll option and its votes',
    description: `${OPEN_ONLY} A poll keeps at least 2 options (409).`,
    response: OPTION_RESPONSE,
    handler: ({ params, family, caller }) =>
      family.execute(
        (s, ctx) => decideDeleteOption(s, params.planId, params.pollId, params.optionId, ctx),
        (o, s) => ({
          ok: true,
          optionId: o.id,
          poll: currentPoll(s, params.planId, params.pollId, caller),
        }),
      ),
  }),
  route({
    method: 'post',
    path: `${base}/:pollId/vote`,
    tags,
    body: ChooseOptionBody,
    summary: "Vote (the calling key's person)",
    description: `${OPEN_ONLY} One vote per person and poll; voting again moves it. A key that acts for no person → 403.`,
    response: VOTE_RESPONSE,
    handler: ({ params, body, family, caller }) =>
      family.execute(
        (s, ctx) => decideVote(s, params.planId, params.pollId, body.optionId, ctx),
        (p) => ({
          ok: true,
          pollId: p.id,
          optionId: body.optionId,
          poll: pollView(p, caller.personId),
        }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:pollId/vote`,
    tags,
    summary: "Clear the calling key's person's vote",
    description: `${OPEN_ONLY} A key that acts for no person → 403.`,
    response: CLEAR_VOTE_RESPONSE,
    handler: ({ params, family, caller }) =>
      family.execute(
        (s, ctx) => decideClearVote(s, params.planId, params.pollId, ctx),
        (p) => ({ ok: true, pollId: p.id, poll: pollView(p, caller.personId) }),
      ),
  }),
  route({
    method: 'post',
    path: `${base}/:pollId/settle`,
    tags,
    body: ChooseOptionBody,
    summary: 'Settle a poll on one option',
    description:
      "Open polls only (409 when already settled). A dated option becomes an event in the `calendar` collection, titled after the plan with the option's label as its note, and is linked to the plan (`addedToCalendar: true, eventId`); an undated one writes nothing to the calendar.",
    response: SETTLE_RESPONSE,
    handler: ({ params, body, family, caller }) =>
      family.execute(
        (s, ctx) => decideSettlePoll(s, params.planId, params.pollId, body.optionId, ctx),
        (r) => ({
          ok: true,
          addedToCalendar: r.addedToCalendar,
          eventId: r.eventId,
          pollId: r.poll.id,
          settledOptionId: body.optionId,
          poll: pollView(r.poll, caller.personId),
        }),
      ),
  }),
  route({
    method: 'post',
    path: `${base}/:pollId/reopen`,
    tags,
    summary: 'Reopen a settled poll',
    description:
      'Settled polls only (409 when open). The event settling created is deleted if it still exists (and leaves every plan); votes stay.',
    response: REOPEN_RESPONSE,
    handler: ({ params, family, caller }) =>
      family.execute(
        (s, ctx) => decideReopenPoll(s, params.planId, params.pollId, ctx),
        (r) => ({
          ok: true,
          removedFromCalendar: r.removedFromCalendar,
          removedEventId: r.removedEventId,
          pollId: r.poll.id,
          poll: pollView(r.poll, caller.personId),
        }),
      ),
  }),
]);
