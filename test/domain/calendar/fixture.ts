/** A family state (built-ins seeded, calendar registrations loaded) and a command context. */
import { decideCreatePerson } from '../../../src/domain/people/people.js';
import type { DomainError } from '../../../src/domain/shared/errors.js';
import { fixture } from '../collections/fixture.js';

export function calendarFixture(opts: { now?: string; timezone?: string } = {}) {
  const f = fixture(opts.now, opts.timezone);
  function person(name: string): string {
    return f.run((s, c) => decideCreatePerson(s, { name }, c)).result.id;
  }
  return { ...f, person };
}

export function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a throw');
}
