/**
 * Deciding in a unit test as the actor does: the decider runs on the state with a fresh command
 * context, and its record changes and agenda part are applied (the actor's evolve step).
 */
import { areaReactions } from '../../src/domain/areas.js';
import { applyDecision } from '../../src/domain/shared/decision.js';
import type { CommandContext, Decision, FamilyState } from '../../src/domain/shared/state.js';

/** Every area's reactions, as the daemon composes them for its actors. */
export const REACT = areaReactions();

/**
 * A `run(decide)` for a fixture: decides on `state` with `ctx()` and applies the decision;
 * `after` sees each decision first (to number its log events, say).
 */
export function runner(
  state: FamilyState,
  ctx: () => CommandContext,
  after?: (d: Decision<unknown>) => void,
): <R>(decide: (s: FamilyState, c: CommandContext) => Decision<R>) => Decision<R> {
  return (decide) => {
    const d = decide(state, ctx());
    after?.(d);
    applyDecision(state, d);
    return d;
  };
}
