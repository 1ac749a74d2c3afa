/** A family state with the built-ins, and a command context with a fixed clock and ids. */
import { FamilyState, type CommandContext } from '../../../src/domain/shared/state.js';
import { createIdGenerator } from '../../../src/domain/shared/ids.js';
import { seedRecords } from '../../../src/domain/areas.js';
import { REACT, runner } from '../../helpers/decide.js';

/** The state and context of a fresh family (fixed clock, repeatable ids), deciding like the actor. */
export function fixture(now = '2026-11-22T08:30:00.000Z', timezone = 'UTC') {
  const family = { id: 'fam_1', slug: 'home', name: 'Home', timezone, createdAt: now };
  const state = new FamilyState(family);
  state.apply(seedRecords(family, now));
  let t = new Date(now).getTime();
  let n = 0;
  const ctx = (): CommandContext => ({
    now: new Date(t),
    newId: createIdGenerator(
      () => t,
      () => new Uint8Array(7).fill(n++ % 256),
    ),
    caller: { keyId: 'key', personId: null },
    family,
    publicUrl: 'http://share.test',
    react: REACT,
  });
  /** Decides and applies, like the actor. */
  const run = runner(state, ctx);
  return {
    state,
    ctx,
    run,
    tick(ms = 1000) {
      t += ms;
    },
  };
}
