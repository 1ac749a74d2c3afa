/**
 * Checks and small helpers shared by the poll decisions (polls.ts, pollSettle.ts): the question
 * and option rules, finding a poll or option (404), the open-only rule (409), writing a poll back
 * into its plan and the poll's log event.
 */
import { Conflict, NotFound, type Issue, type Path } from '../shared/errors.js';
import type { CommandContext, LogEvent } from '../shared/state.js';
import { minutesOfDay } from '../shared/time.js';
import { charCount } from '../shared/text.js';
import { cleanSent } from '../shared/record.js';
import {
  LABEL_MAX,
  POLL_FIELDS,
  type OptionInput,
  type OptionRecord,
  type PlanRecord,
  type PollRecord,
} from './types.js';
import { pollView } from './views.js';

/** The question, cleaned and checked by the poll's table (a 400 naming `question`). */
export function cleanQuestion(q: string): string {
  return cleanSent(POLL_FIELDS, { question: q }).question;
}

/**
 * An option from its request fields: a label or a date (or both); endDate, time and endTime
 * only with a date; endDate not before date; endTime only with a time and, on one day, after it.
 */
export function makeOption(
  id: string,
  input: OptionInput,
  at: Path,
  issues: Issue[],
): OptionRecord {
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

export function requirePoll(plan: PlanRecord, pollId: string): PollRecord {
  const p = plan.polls.find((x) => x.id === pollId);
  if (!p) throw new NotFound(`No poll ${pollId} in plan ${plan.id}`);
  return p;
}

export function requireOpen(poll: PollRecord, what: string): void {
  if (poll.status !== 'open')
    throw new Conflict(`The poll is settled: ${what} only while it is open (reopen it first)`);
}

export function requireOption(poll: PollRecord, optionId: string): OptionRecord {
  const o = poll.options.find((x) => x.id === optionId);
  if (!o) throw new NotFound(`No option ${optionId} in poll ${poll.id}`);
  return o;
}

export function withPoll(plan: PlanRecord, poll: PollRecord, at: string): PlanRecord {
  return { ...plan, polls: plan.polls.map((p) => (p.id === poll.id ? poll : p)), updatedAt: at };
}

export function pollEvent(
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
