/**
 * The body of a delivery: `{id, type, createdAt, family: {slug}, data: {object, previous?}}`,
 * built from the change-log record (the resource as the API shows it, and the version before
 * an update). It is serialized once per attempt and signed as those exact bytes.
 */
import type { ChangeRecord } from '../store/types.js';
import { TEST_EVENT_TYPE, type DestinationView } from '../domain/webhooks/types.js';

export interface DeliveryPayload {
  id: string;
  type: string;
  createdAt: string;
  family: { slug: string };
  data: { object: unknown; previous?: unknown };
}

export function eventPayload(record: ChangeRecord, slug: string): DeliveryPayload {
  return {
    id: record.id,
    type: record.type,
    createdAt: record.at,
    family: { slug },
    data: {
      object: record.object,
      ...(record.previous !== undefined ? { previous: record.previous } : {}),
    },
  };
}

/** The `webhook.test` message: no change-log record behind it; its object is the destination. */
export function testPayload(
  eventId: string,
  at: string,
  slug: string,
  destination: DestinationView,
): DeliveryPayload {
  return {
    id: eventId,
    type: TEST_EVENT_TYPE,
    createdAt: at,
    family: { slug },
    data: { object: destination },
  };
}
