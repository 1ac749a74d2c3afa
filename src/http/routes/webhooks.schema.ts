/**
 * Request structs and response schemas of the webhook destination endpoints, and the OpenAPI
 * `webhooks` section describing a delivery itself (docs/webhooks.md).
 */
import { S, named, type Infer, type JsonSchema } from '../../door/schema.js';
import { EVENT_TYPES } from '../../domain/shared/events.js';
import { DESTINATION_FIELDS, HISTORY_SIZE } from '../../domain/webhooks/types.js';
import { createStruct, patchStruct, recordSchema } from '../../domain/shared/record.js';
import { withExamples } from './collections.schema.js';

// Built from the table (DESTINATION_FIELDS): a field is added there, not here.
export const CreateDestinationBody = withExamples(
  createStruct(
    DESTINATION_FIELDS,
    'A receiver and the event types it subscribes to; enabled defaults to true',
  ),
  {
    name: 'Home Assistant',
    url: 'http://homeassistant.lan:8123/api/webhook/household',
    eventTypes: ['tracker.entry.created', 'calendar.event.created'],
  },
);
export type CreateDestinationBody = Infer<typeof CreateDestinationBody>;

export const UpdateDestinationBody = withExamples(
  patchStruct(DESTINATION_FIELDS, {
    more: { rotateSecret: S.optional(S.boolean()) },
    description:
      'Only the fields to change. rotateSecret: true issues a new secret (answered once); the old one keeps signing beside it for 24 hours',
  }),
  { enabled: false },
  { rotateSecret: true },
);
export type UpdateDestinationBody = Infer<typeof UpdateDestinationBody>;

const nullableString = { type: ['string', 'null'] };

export const DESTINATION_SCHEMA: JsonSchema = recordSchema(DESTINATION_FIELDS);

const COUNTS: JsonSchema = {
  type: 'object',
  required: ['attempted', 'succeeded', 'failed'],
  properties: {
    attempted: { type: 'integer' },
    succeeded: { type: 'integer' },
    failed: { type: 'integer' },
  },
};

export const ATTEMPT_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'deliveryId',
    'eventId',
    'type',
    'attempt',
    'at',
    'status',
    'responseStatus',
    'durationMs',
    'error',
    'nextAttemptAt',
  ],
  properties: {
    deliveryId: {
      type: 'string',
      description: 'One event for one destination; its retries share it',
    },
    eventId: { type: 'string', description: 'The event id, sent as webhook-id' },
    type: { type: 'string' },
    attempt: { type: 'integer', minimum: 1 },
    at: { type: 'string', format: 'date-time' },
    status: {
      enum: ['succeeded', 'retrying', 'failed'],
      description: 'retrying: failed, another attempt is due at nextAttemptAt',
    },
    responseStatus: {
      type: ['integer', 'null'],
      description: 'null when no answer came (timeout, refused address, network)',
    },
    durationMs: { type: ['integer', 'null'] },
    error: nullableString,
    nextAttemptAt: { ...nullableString, format: 'date-time' },
  },
};

const LISTED_SCHEMA: JsonSchema = {
  ...DESTINATION_SCHEMA,
  required: [...(DESTINATION_SCHEMA.required as string[]), 'history', 'usage'],
  properties: {
    ...(DESTINATION_SCHEMA.properties as Record<string, JsonSchema>),
    history: {
      type: 'array',
      maxItems: HISTORY_SIZE,
      items: ATTEMPT_SCHEMA,
      description: `The last ${HISTORY_SIZE} attempts, newest first`,
    },
    usage: {
      type: 'object',
      required: ['last24h', 'last30d'],
      description:
        'Attempts in the current hour and the 23 before it, and on the current UTC day and the 29 before it',
      properties: { last24h: COUNTS, last30d: COUNTS },
    },
  },
};

const EXAMPLE = {
  id: 'whd_01kaq5m2v8x3c4d5e6f7',
  name: 'Home Assistant',
  url: 'http://homeassistant.lan:8123/api/webhook/household',
  enabled: true,
  eventTypes: ['tracker.entry.created'],
  disabledReason: null,
  disabledAt: null,
  secretRotatedAt: null,
  createdAt: '2026-11-22T08:30:00.000Z',
  updatedAt: '2026-11-22T08:30:00.000Z',
};
const SECRET = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]{32}$',
  description: 'Shown once: `whsec_` + base64 of 24 random bytes',
};
const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export const DESTINATION_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'destinations', 'events'],
  properties: {
    ok: { const: true },
    destinations: { type: 'array', items: LISTED_SCHEMA },
    events: {
      type: 'array',
      items: { type: 'string' },
      description: 'Every event type a destination can subscribe to',
    },
  },
  examples: [
    {
      ok: true,
      destinations: [
        {
          ...EXAMPLE,
          history: [
            {
              deliveryId: 'dlv_01kaq5m3a1b2c3d4e5f6',
              eventId: 'event_01kaq5m39z8y7x6w5v4t',
              type: 'tracker.entry.created',
              attempt: 1,
              at: '2026-11-22T08:31:00.000Z',
              status: 'succeeded',
              responseStatus: 200,
              durationMs: 12,
              error: null,
              nextAttemptAt: null,
            },
          ],
          usage: {
            last24h: { attempted: 1, succeeded: 1, failed: 0 },
            last30d: { attempted: 1, succeeded: 1, failed: 0 },
          },
        },
      ],
      events: ['collection.created', '…'],
    },
  ],
};

export const DESTINATION_CREATED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'destination', 'signingSecret'],
  properties: { ok: { const: true }, destination: DESTINATION_SCHEMA, signingSecret: SECRET },
  examples: [{ ok: true, destination: EXAMPLE, signingSecret: SECRET_EXAMPLE }],
};

export const DESTINATION_UPDATED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'destination'],
  properties: {
    ok: { const: true },
    destination: DESTINATION_SCHEMA,
    signingSecret: {
      ...SECRET,
      description: 'Only when rotateSecret was true: the new secret, shown once',
    },
  },
  examples: [
    {
      ok: true,
      destination: {
        ...EXAMPLE,
        secretRotatedAt: '2026-11-23T10:00:00.000Z',
        updatedAt: '2026-11-23T10:00:00.000Z',
      },
      signingSecret: SECRET_EXAMPLE,
    },
  ],
};

export const DESTINATION_DELETED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok'],
  properties: { ok: { const: true }, destination: DESTINATION_SCHEMA },
  examples: [{ ok: true, destination: EXAMPLE }],
};

export const TEST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'delivery'],
  properties: {
    ok: { const: true },
    delivery: {
      type: 'object',
      required: ['status', 'responseStatus', 'durationMs', 'deliveryId', 'eventId', 'error'],
      properties: {
        status: { enum: ['succeeded', 'failed'] },
        responseStatus: { type: ['integer', 'null'] },
        durationMs: { type: ['integer', 'null'] },
        deliveryId: { type: 'string' },
        eventId: { type: 'string', description: 'The webhook-id sent' },
        error: nullableString,
      },
    },
  },
  examples: [
    {
      ok: true,
      delivery: {
        status: 'succeeded',
        responseStatus: 204,
        durationMs: 9,
        deliveryId: 'dlv_01kaq5m3a1b2c3d4e5f6',
        eventId: 'event_01kaq5m39z8y7x6w5v4t',
        error: null,
      },
    },
  ],
};

// ---- the delivery itself (OpenAPI 3.1 `webhooks`) ---------------------------------------------

const DELIVERY_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'The event id (`event_…`), the same on every retry: deduplicate on it',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    description: 'When this attempt was made, in whole seconds since the epoch',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description:
      'Space-separated `v1,<base64>` signatures: HMAC-SHA256 keyed by the base64-decoded part of the `whsec_` secret, over `<webhook-id>.<webhook-timestamp>.<raw body>`. For 24 hours after a rotation a second signature made with the old secret follows; accept the message when any signature matches (Standard Webhooks).',
  },
];

/** The webhook sections: one per event type, all with the same envelope. */
/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, each a POST of the shared
 * payload (a named schema) with its `type` fixed, and the named header parameters once.
 */
export function webhooksOpenApi(): {
  webhooks: Record<string, unknown>;
  schemas: Record<string, unknown>;
  parameters: Record<string, unknown>;
} {
  const parameters: Record<string, unknown> = {};
  const refs = DELIVERY_HEADERS.map((h) => {
    const name = `Webhook${h.name
      .split('-')
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('')}`;
    parameters[name] = h;
    return { $ref: `#/components/parameters/${name}` };
  });
  const schemas = {
    WebhookPayload: {
      type: 'object',
      required: ['id', 'type', 'createdAt', 'family', 'data'],
      description:
        'Sent to every enabled destination subscribed to the type (test deliveries to the one destination). Answer 2xx within `webhooks.timeoutMs` (15 s) to accept it; redirects are not followed (3xx fails). 410 disables the destination; 429 and 503 may carry Retry-After. Failed deliveries are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (plus up to 10 % jitter) with the same webhook-id. Delivery is at least once: deduplicate on webhook-id.',
      properties: {
        id: { type: 'string', description: 'The event id (= webhook-id)' },
        type: { type: 'string', description: 'The event type' },
        createdAt: { type: 'string', format: 'date-time', description: 'When the change was made' },
        family: { type: 'object', required: ['slug'], properties: { slug: { type: 'string' } } },
        data: {
          type: 'object',
          required: ['object'],
          properties: {
            object: {
              description:
                'The resource as the API shows it after the change (before it, for deletions); the destination for webhook.test',
            },
            previous: { description: 'The resource before an update' },
          },
        },
      },
    },
  };
  const webhooks: Record<string, unknown> = {};
  for (const type of [...EVENT_TYPES, 'webhook.test']) {
    webhooks[type] = {
      post: {
        operationId: `webhook_${type.replace(/[^A-Za-z0-9]+/g, '_')}`,
        tags: ['Webhooks'],
        summary:
          type === 'webhook.test'
            ? 'A test delivery (POST …/webhook-destinations/{id}/test)'
            : `Sent when a change of type ${type} is logged`,
        parameters: refs,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/WebhookPayload' },
                  { properties: { type: { const: type } } },
                ],
              },
            },
          },
        },
        responses: {
          '2XX': { description: 'Accepted' },
          '410': { description: 'Gone: the destination is disabled' },
        },
      },
    };
  }
  return { webhooks, schemas, parameters };
}

// Published once in the OpenAPI document, as components/schemas/<name>.
named('WebhookDestination', DESTINATION_SCHEMA);
named('CreateDestinationBody', CreateDestinationBody);
named('UpdateDestinationBody', UpdateDestinationBody);
