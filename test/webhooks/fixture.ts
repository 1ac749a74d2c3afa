/** A family state deciding like the actor: numbered log records, the agenda table, a fixed clock. */
import { FamilyState, type CommandContext } from '../../src/domain/shared/state.js';
import { createIdGenerator } from '../../src/domain/shared/ids.js';
import { REACT, runner } from '../helpers/decide.js';
import type { EventType } from '../../src/domain/shared/events.js';
import type { LogPointer } from '../../src/domain/webhooks/jobs.js';

export function fixture(now = '2026-11-22T08:30:00.000Z') {
  const family = { id: 'fam_1', slug: 'home', name: 'Home', timezone: 'UTC', createdAt: now };
  const state = new FamilyState(family);
  let t = new Date(now).getTime();
  let seq = 0;
  let n = 0;
  const log: LogPointer[] = [];
  const newId = createIdGenerator(
    () => t,
    () => new Uint8Array(7).fill(n++ % 256),
  );
  const ctx = (): CommandContext => ({
    now: new Date(t),
    newId,
    caller: { keyId: 'key', personId: null },
    family,
    publicUrl: 'http://x',
    lastSeq: seq,
    react: REACT,
  });
  /** Decides and applies, numbering the events like the actor. */
  const run = runner(state, ctx, (d) => {
    for (const e of d.events) log.push({ seq: ++seq, id: newId('event'), type: e.type });
  });
  /** Logs a change of another area (as if an entry or a person was written). */
  function logged(type: EventType): LogPointer {
    const p = { seq: ++seq, id: newId('event'), type };
    log.push(p);
    return p;
  }
  return {
    state,
    ctx,
    run,
    logged,
    log,
    now: () => new Date(t),
    tick(ms = 1000) {
      t += ms;
    },
  };
}
