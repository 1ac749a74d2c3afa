/**
 * Delivery jobs (docs/webhooks.md): the one rule of which destination gets a change-log record,
 * the outbox's checkpoint, and a job's lease — taken when it is due (run inside the scheduler's
 * fireCommand), taken over from an earlier run of the daemon. What an attempt came to is
 * recorded in deliveries.ts.
 */
import type { EventType, LoggedEventType } from '../shared/events.js';
import type { AgendaJob, Decision, FamilyState } from '../shared/state.js';
import { AGENDA_TABLE } from '../shared/agenda.js';
import { noChange } from '../shared/decision.js';
import {
  DELIVER_KIND,
  DESTINATIONS,
  OUTBOX,
  OUTBOX_ID,
  type DeliveryJob,
  type DestinationRecord,
  type OutboxCheckpoint,
} from './types.js';

/** What the outbox needs of a change-log record. */
export interface LogPointer {
  seq: number;
  id: string;
  type: LoggedEventType;
}

export function outboxCheckpoint(state: FamilyState): number {
  return state.get<OutboxCheckpoint>(OUTBOX, OUTBOX_ID)?.seq ?? 0;
}

/**
 * Jobs are leased this long: the send's timeout plus time waiting for a free sender in a
 * backlog. A lease that runs out while the job still waits here costs one write to move it on;
 * after a restart leases of the earlier run are taken over at once, whatever their length.
 */
export function leaseMs(timeoutMs: number): number {
  return timeoutMs + 10 * 60_000;
}

/** The job as the family has it now, when it is still the attempt the caller holds. */
export function liveJob(state: FamilyState, jobId: string): DeliveryJob | undefined {
  const job = state.get<AgendaJob>(AGENDA_TABLE, jobId);
  return job?.kind === DELIVER_KIND ? job : undefined;
}

/**
 * The one rule of who gets a change-log record: an enabled destination subscribed to its type
 * that existed (or was last enabled) before it was logged.
 */
export function wants<T extends { seq: number; type: string }>(
  d: DestinationRecord,
  record: T,
): record is T & { type: EventType } {
  // Only the contract's types can be subscribed to (the daemon's own, EXTENSION_EVENT_TYPES, never).
  return d.enabled && record.seq > d.sinceSeq && d.eventTypes.includes(record.type as EventType);
}

/** The destination a delivery may be sent to, when it exists and still wants the record. */
export function deliverable(
  state: FamilyState,
  data: { destinationId: string; seq: number; type: string },
): DestinationRecord | undefined {
  const d = state.get<DestinationRecord>(DESTINATIONS, data.destinationId);
  return d && wants(d, data) ? d : undefined;
}

/**
 * The effect of a due job (run inside the scheduler's fireCommand): lease it to `boot` until
 * `until` — or only move the lease on when this process already holds it — or drop it when its
 * destination no longer wants it.
 */
export function decideLease(
  state: FamilyState,
  job: DeliveryJob,
  lease: { boot: string; until: number },
  alreadyHeld: boolean,
): Decision<'leased' | 'extended' | 'dropped'> {
  if (!deliverable(state, job.data)) return noChange('dropped');
  const put: DeliveryJob = {
    ...job,
    dueAt: lease.until,
    data: { ...job.data, lease: { boot: lease.boot } },
  };
  return noChange(alreadyHeld ? 'extended' : 'leased', [{ put }]);
}

/**
 * Takes over the jobs leased by an earlier run of the daemon (it stopped or crashed while they
 * were owed): they are leased to `boot` and sent now instead of waiting for the lease to end.
 */
export function decideReclaim(
  state: FamilyState,
  lease: { boot: string; until: number },
): Decision<DeliveryJob[]> {
  const jobs: DeliveryJob[] = [];
  for (const job of state.table<AgendaJob>(AGENDA_TABLE).values()) {
    if (job.kind !== DELIVER_KIND) continue;
    const j: DeliveryJob = job;
    if (!j.data.lease || j.data.lease.boot === lease.boot) continue;
    jobs.push({ ...j, dueAt: lease.until, data: { ...j.data, lease: { boot: lease.boot } } });
  }
  return noChange(
    jobs,
    jobs.map((put) => ({ put })),
  );
}
