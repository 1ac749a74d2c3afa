/** A family with the built-ins and the plans registrations, acting as a key with or without a person. */
import type { CommandContext } from '../../../src/domain/shared/state.js';
import { runner } from '../../helpers/decide.js';
import { fixture } from '../collections/fixture.js';

export function plansFixture(now = '2026-11-22T08:30:00.000Z', timezone = 'UTC') {
  const f = fixture(now, timezone);
  let caller: CommandContext['caller'] = {
    keyId: 'key',
    personId: null,
    keyName: 'Kitchen tablet',
  };
  const ctx = (): CommandContext => ({ ...f.ctx(), caller, family: f.state.family });
  const run = runner(f.state, ctx);
  return {
    ...f,
    ctx,
    run,
    actAs(personId: string | null, keyName = 'Kitchen tablet') {
      caller = { keyId: 'key', personId, keyName };
    },
  };
}
