/**
 * A delivery as the sender holds it in memory: one change-log record for one destination.
 * A first attempt comes straight from the outbox's read of the log, with no job behind it; a
 * retry, a delivery moved to the agenda because it waited too long, or one taken over after a
 * restart has its `webhook.deliver` job.
 */
import type { FamilyInfo } from '../domain/shared/state.js';
import type { DeliveryJob, DeliveryJobData } from '../domain/webhooks/types.js';
import type { ChangeRecord } from '../store/types.js';

/** A record read by the outbox, shared by its deliveries: its body is built once for all. */
export interface SharedEvent {
  record: ChangeRecord;
  body: string | null;
}

/** The job's data without its lease: which record, for which destination, how many attempts. */
export interface Delivery extends Omit<DeliveryJobData, 'lease'> {
  family: FamilyInfo;
  /** `whk:<destinationId>:<eventId>`: the id its job has or would have. */
  key: string;
  /** The job behind it, leased to this process; null for a first attempt from the log. */
  job: DeliveryJob | null;
  /** The record (first attempts from the log only). */
  event: SharedEvent | null;
  /** When it was queued (ms, monotonic), to find deliveries that wait too long. */
  queuedAt: number;
}

export function fromJob(family: FamilyInfo, job: DeliveryJob): Delivery {
  const d = job.data;
  return {
    family,
    key: job.id,
    destinationId: d.destinationId,
    deliveryId: d.deliveryId,
    eventId: d.eventId,
    seq: d.seq,
    type: d.type,
    attempt: d.attempt,
    job,
    event: null,
    queuedAt: performance.now(),
  };
}
