/**
 * The family's view of its own agenda: the actor keeps every job of the family in this table
 * (loaded at activation, updated with every decision's `agenda` part), so a decider can see
 * what is scheduled and a firing command can check that its job is still the one it found.
 */
import type { Caller } from './state.js';

export const AGENDA_TABLE = '_agenda';

/** Who acts when the scheduler fires a job: no key, no person. */
export const SCHEDULER_CALLER: Caller = { keyId: null, personId: null, keyName: 'scheduler' };
