/** A family state (built-ins seeded, calendar registrations loaded) and a command context. */
import { FamilyState, type CommandContext, type Decision } from '../../../src/domain/shared/state.js';
import { createIdGenerator } from '../../../src/domain/shared/ids.js';
import { seedRecords } from '../../../src/domain/seeds.js';
import { decideCreatePerson } from '../../../src/domain/people/people.js';
import type { DomainError } from '../../../src/domain/shared/errors.js';
import '../../../src/domain/register.js';

export function calendarFixture(opts: { now?: string; timezone?: string } = {}) {
  const now = opts.now ?? '2026-11-22T08:30:00.000Z';
  const family = { id: 'fam_1', slug: 'home', name: 'Home', timezone: opts.timezone ?? 'UTC', createdAt: now };
  const state = new FamilyState(family);
  state.apply(seedRecords(family, now));
  let t = new Date(now).getTime();
  let n = 0;
  const ctx = (): CommandContext => ({
    now: new Date(t), newId: createIdGenerator(() => t, () => new Uint8Array(7).fill(n++ % 256)),
    actor: { keyId: 'key', personId: null }, family, publicUrl: 'http://share.test',
  });
  function run<R>(decide: (s: FamilyState, c: CommandContext) => Decision<R>): Decision<R> {
    const d = decide(state, ctx());
    state.apply(d.changes);
    return d;
  }
  function person(name: string): string {
    return run((s, c) => decideCreatePerson(s, { name }, c)).result.id;
  }
  return { state, ctx, run, person, tick(ms = 1000) { t += ms; } };
}

export function thrown(fn: () => unknown): DomainError {
  try { fn(); } catch (err) { return err as DomainError; }
  throw new Error('expected a throw');
}
