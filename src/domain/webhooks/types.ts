/**
 * Webhook destinations and their deliveries as the family's state holds them (docs/webhooks.md).
 *
 * Tables: `webhook_destinations` (one record per destination, holding its signing secrets),
 * `webhook_stats` (per destination: attempt counter, failure streak, usage buckets),
 * `webhook_attempts` (per destination a ring of the last 100 attempts, id `<destId>:<slot>`),
 * and `outbox/webhooks` (how far the outbox has turned the change log into deliveries).
 * Pending deliveries are agenda jobs of kind `webhook.deliver`.
 */
import { EVENT_TYPES, type EventType } from '../shared/events.js';
import { S } from '../shared/schema.js';
import { field, timestamp, type RecordOf, type ViewOf } from '../shared/record.js';

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

const DISABLED_REASONS = ['manual', 'receiver_gone', 'failing'] as const;
const own = { create: 'never', patch: 'never', view: 'always' } as const;
const hidden = { create: 'never', patch: 'never', view: 'never' } as const;

/** Checks what the struct cannot: a URL that parses, with http or https. */
function checkUrl(url: string): true | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `must be an http or https URL, not ${parsed.protocol}`;
  return parsed.hostname ? true : 'must name a host';
}

/**
 * Every field of a webhook destination, once (src/domain/shared/record.ts); the view, and the
 * `webhook_destination.*` records, show no secret.
 */
export const DESTINATION_FIELDS = {
  id: field(S.string(), { ...own, response: { type: 'string', pattern: '^whd_' } }),
  name: field(S.string({ min: 1, max: 200 }), {
    create: 'required',
    patch: 'value',
    view: 'always',
    clean: (v) => v.trim(),
    check: (v) => v !== '' || 'must not be blank',
  }),
  url: field(
    S.string({
      min: 1,
      max: 2048,
      format: 'uri',
      description:
        'An http or https URL; reachable addresses follow the `egress.webhooks` policy (default: internet and LAN, not loopback)',
    }),
    { create: 'required', patch: 'value', view: 'always', check: checkUrl },
  ),
  enabled: field(S.boolean(), {
    create: 'optional',
    patch: 'value',
    default: true,
    view: 'always',
  }),
  eventTypes: field(S.array(S.enums(EVENT_TYPES), { min: 1, max: EVENT_TYPES.length }), {
    create: 'required',
    patch: 'value',
    view: 'always',
    clean: (v) => Array.from(new Set(v)),
  }),
  /** Why it is disabled: by the household, by a 410 answer, or after 5 days of failures. */
  disabledReason: field(S.enums(DISABLED_REASONS), {
    ...own,
    nullable: true,
    response: {
      enum: [...DISABLED_REASONS, null],
      description:
        'Why it is disabled: by the household, by a 410 answer, or after failing every delivery for 5 days',
    },
  }),
  disabledAt: field(timestamp, { ...own, nullable: true }),
  /**
   * `whsec_…`. Kept as it is, not hashed: Standard Webhooks signs with an HMAC keyed by the
   * secret itself, so the daemon must be able to read it. Never in views, logs or the change log.
   */
  secret: field(S.string(), hidden),
  /**
   * The secret before the last rotation, signing beside the new one until
   * `previousSecretExpiresAt`.
   */
  previousSecret: field(S.string(), { ...hidden, nullable: true }),
  previousSecretExpiresAt: field(timestamp, { ...hidden, nullable: true }),
  secretRotatedAt: field(timestamp, { ...own, nullable: true }),
  /** Deliver only change-log records after this sequence number (its creation or re-enabling). */
  sinceSeq: field(S.integer(), hidden),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
};

export type DisabledReason = (typeof DISABLED_REASONS)[number];
export type DestinationRecord = RecordOf<typeof DESTINATION_FIELDS>;
/** The destination as the API shows it and as `webhook_destination.*` records carry it. */
export type DestinationView = ViewOf<typeof DESTINATION_FIELDS>;

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
