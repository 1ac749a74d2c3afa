/**
 * The vocabulary every decider and the actor share for decisions: the empty one, and how a
 * decision's writes become the family's next in-memory state.
 */
import { AGENDA_TABLE } from './agenda.js';
import type { AgendaChange, Decision, FamilyState, RecordChange } from './state.js';

/**
 * A decision that writes no record and no log event: a command that only answers (or finds
 * nothing to do), an area with nothing to add; `agenda`, when given, is all it moves.
 */
export function noChange(): Decision<undefined>;
export function noChange<R>(result: R, agenda?: AgendaChange[]): Decision<R>;
export function noChange<R>(result?: R, agenda?: AgendaChange[]): Decision<R | undefined> {
  return agenda ? { result, changes: [], events: [], agenda } : { result, changes: [], events: [] };
}

/**
 * The evolve step: applies a decision's record changes, the family's settings it leaves and its
 * agenda part (the family's in-memory agenda table) to the state, as the actor does once the decision is taken.
 */
export function applyDecision(
  state: FamilyState,
  decision: Pick<Decision<unknown>, 'changes' | 'agenda' | 'family'>,
): void {
  const { changes, agenda } = decision;
  if (decision.family) state.family = decision.family;
  state.apply(agenda?.length ? [...changes, ...agendaRecords(agenda)] : changes);
}

/** The agenda part of a decision as changes to the family's in-memory agenda table. */
export function agendaRecords(agenda: readonly AgendaChange[]): RecordChange[] {
  return agenda.map((a) =>
    'put' in a
      ? { table: AGENDA_TABLE, id: a.put.id, value: a.put }
      : { table: AGENDA_TABLE, id: a.remove, value: null },
  );
}
