/**
 * Webhook destinations and their deliveries as the family's state holds them (docs/webhooks.md).
 *
 * Tables: `webhook_destinations` (one record per destination, holding its signing secrets),
 * `webhook_stats` (per destination: attempt counter, failure streak, usage buckets),
 * `webhook_attempts` (per destination a ring of the last 100 attempts, id `<destId>:<slot>`),
 * and `outbox/webhooks` (how far the outbox has turned the change log into deliveries).
 * Pending deliveries are agenda jobs of kind `webhook.deliver`.
 */
import type { EventType } from '../shared/events.js';

export const DESTINATIONS = 'webhook_destinations';
export const STATS = 'webhook_stats';
export const ATTEMPTS = 'webhook_attempts';
export const OUTBOX = 'outbox';
export const OUTBOX_ID = 'webhooks';
export const DELIVER_KIND = 'webhook.deliver';
export const TEST_EVENT_TYPE = 'webhook.test';

/** Attempts kept per destination for the listing. */
export const HISTORY_SIZE = 100;
/** Destinations per family: each one multiplies the family's deliveries. */
export const MAX_DESTINATIONS = 25;
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;
/** A destination whose every attempt failed for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 24 * 3_600_000;
/** Retries come at most this much later than the schedule says (a fraction of the delay). */
export const JITTER = 0.1;
/** A receiver's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Why a destination is disabled: by the household, by a 410 answer, or after 5 days of failures.
 */
export type DisabledReason = 'manual' | 'receiver_gone' | 'failing';

export interface DestinationRecord {
  id: string;
  name: string;
  url: string;
  eventTypes: EventType[];
  enabled: boolean;
  disabledReason: DisabledReason | null;
  disabledAt: string | null;
  /**
   * `whsec_…`. Kept as it is, not hashed: Standard Webhooks signs with an HMAC keyed by the
   * secret itself, so the daemon must be able to read it. Never in views, logs or the change log.
   */
  secret: string;
  /**
   * The secret before the last rotation, signing beside the new one until
   * `previousSecretExpiresAt`.
   */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  secretRotatedAt: string | null;
  /** Deliver only change-log records after this sequence number (its creation or re-enabling). */
  sinceSeq: number;
  createdAt: string;
  updatedAt: string;
}

/** The destination as the API shows it and as `webhook_destination.*` records carry it. */
export interface DestinationView {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  eventTypes: EventType[];
  disabledReason: DisabledReason | null;
  disabledAt: string | null;
  secretRotatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `[bucket start (ms), attempted, succeeded, failed]` */
export type UsageBucket = [number, number, number, number];

export interface DestinationStats {
  destinationId: string;
  /** Attempts ever recorded; the next one goes to ring slot `attempts % HISTORY_SIZE`. */
  attempts: number;
  /** The first failure since the last success (null while the last attempt succeeded). */
  failingSince: string | null;
  lastSuccessAt: string | null;
  /** Hourly buckets of the last 24 hours and daily (UTC) buckets of the last 30 days. */
  hours: UsageBucket[];
  days: UsageBucket[];
}

/**
 * One attempt: `succeeded` (a 2xx), `retrying` (failed, another attempt at `nextAttemptAt`),
 * `failed` (failed and no further attempt).
 */
export type AttemptStatus = 'succeeded' | 'retrying' | 'failed';

export interface AttemptRecord {
  destinationId: string;
  /** Ordinal among the destination's attempts (for ordering the ring). */
  n: number;
  deliveryId: string;
  eventId: string;
  type: string;
  attempt: number;
  at: string;
  status: AttemptStatus;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

export type AttemptView = Omit<AttemptRecord, 'destinationId' | 'n'>;

export interface UsageCounts {
  attempted: number;
  succeeded: number;
  failed: number;
}
export interface UsageView {
  last24h: UsageCounts;
  last30d: UsageCounts;
}

/** The data of a `webhook.deliver` agenda job: one change-log record for one destination. */
export interface DeliveryJobData {
  destinationId: string;
  deliveryId: string;
  eventId: string;
  seq: number;
  type: EventType;
  /** Attempts already made (0 before the first). */
  attempt: number;
  /**
   * Set while a sender of the process started as `boot` owns the job (the job is then due at
   * the end of the lease, so the scheduler leaves it alone); a lease of another boot is
   * orphaned by a restart and taken over at start.
   */
  lease: { boot: string } | null;
}

export interface DeliveryJob {
  id: string;
  kind: typeof DELIVER_KIND;
  dueAt: number;
  data: DeliveryJobData;
}

export interface OutboxCheckpoint {
  seq: number;
}

export function jobIdOf(destinationId: string, eventId: string): string {
  return `whk:${destinationId}:${eventId}`;
}
