/**
 * Request structs and response schemas of the notifications endpoints: send, recent
 * notifications and preferences (docs/notifications.md).
 */
import { S, type Infer, type JsonSchema } from '../../door/schema.js';
import { PAGE_LIMIT } from '../../domain/shared/paging.js';
import {
  BODY_MAX,
  CHANNELS,
  channels,
  NOTIFICATION_KINDS,
  PREFERENCE_CHANNELS,
  PREFERENCE_KINDS,
  SINCE_MINUTES_MAX,
  TITLE_MAX,
} from '../../domain/notifications/types.js';
import { withExamples } from './collections.schema.js';
import { PREFERENCES_SCHEMA } from '../../domain/notifications/preferences.js';

export { BODY_MAX, channels, TITLE_MAX };

export const SendBody = withExamples(
  S.object(
    {
      title: S.string({ min: 1, max: TITLE_MAX }),
      body: S.optional(S.string({ max: BODY_MAX, description: 'Default empty' })),
      channels: S.optional(channels),
      triggerId: S.optional(
        S.string({
          min: 1,
          max: 100,
          description: 'Tags the notification (listing filters by it)',
        }),
      ),
    },
    'Goes to the channels named (default [in_app]); email and sms to every person with an address',
  ),
  { title: 'Dinner is ready', body: 'Come down, please', channels: ['in_app', 'push'] },
);
export type SendBody = Infer<typeof SendBody>;

export const ListNotificationsQuery = S.object({
  sinceMinutes: S.optional(
    S.integer(1, SINCE_MINUTES_MAX, {
      description:
        'Only notifications made this many minutes back or less (30 days at most are kept)',
    }),
  ),
  triggerId: S.optional(
    S.string({
      min: 1,
      max: 100,
      description: 'Exact trigger id (a routine, a check, or the one given when sending)',
    }),
  ),
  limit: S.optional(S.integer(PAGE_LIMIT.min, PAGE_LIMIT.max, { default: PAGE_LIMIT.default })),
  cursor: S.optional(
    S.string({ min: 1, max: 100, description: 'nextCursor of the previous page' }),
  ),
});

export const SetPreferenceBody = withExamples(
  S.object({
    channel: S.enums(PREFERENCE_CHANNELS),
    eventKind: S.enums(PREFERENCE_KINDS),
    isEnabled: S.boolean(),
  }),
  { channel: 'email', eventKind: 'digest', isEnabled: false },
);
export type SetPreferenceBody = Infer<typeof SetPreferenceBody>;

const DELIVERY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['channel', 'status'],
  properties: {
    channel: { type: 'string', enum: [...CHANNELS] },
    recipient: {
      type: 'string',
      description: 'The address sent to (email, phone); absent for in_app and push',
    },
    personId: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'suppressed'] },
    reason: {
      type: 'string',
      description:
        'Why it was suppressed: preference off, not configured, nobody with an address, failed: …, interrupted, missed',
    },
  },
};

export const NOTIFICATION_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'kind',
    'title',
    'body',
    'channels',
    'createdAt',
    'deliveries',
    'delivered',
    'suppressed',
    'pending',
  ],
  properties: {
    id: { type: 'string' },
    kind: {
      type: 'string',
      enum: [...NOTIFICATION_KINDS],
      description: '`manual` for sends through the API',
    },
    title: { type: 'string' },
    body: { type: 'string' },
    channels: { type: 'array', items: { type: 'string', enum: [...CHANNELS] } },
    triggerId: { type: 'string' },
    eventId: { type: 'string' },
    occurrenceDate: { type: 'string', format: 'date' },
    createdAt: { type: 'string', format: 'date-time' },
    deliveries: { type: 'array', items: DELIVERY_SCHEMA },
    delivered: { type: 'integer' },
    suppressed: { type: 'integer' },
    pending: {
      type: 'integer',
      description: 'Sends not settled yet (a crash before they were made: sent at the next start)',
    },
    skipped: {
      const: true,
      description: 'Found later than scheduler.catchUpMinutes: recorded, not sent',
    },
  },
};

const EXAMPLE = {
  id: 'ntf_01kaq5m2v8x3c4d5e6f7',
  kind: 'manual',
  title: 'Dinner is ready',
  body: 'Come down, please',
  channels: ['in_app', 'push'],
  createdAt: '2026-11-22T18:30:00.000Z',
  deliveries: [
    { channel: 'in_app', status: 'delivered' },
    { channel: 'push', status: 'suppressed', reason: 'not configured' },
  ],
  delivered: 1,
  suppressed: 1,
  pending: 0,
};

export const SEND_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'delivered', 'suppressed', 'notification'],
  properties: {
    ok: { const: true },
    delivered: { type: 'integer', description: 'Sends that succeeded (in_app counts one)' },
    suppressed: {
      type: 'integer',
      description: 'Sends not made; each has its reason on the notification',
    },
    notification: NOTIFICATION_SCHEMA,
  },
  examples: [{ ok: true, delivered: 1, suppressed: 1, notification: EXAMPLE }],
};

export const LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'notifications'],
  properties: {
    ok: { const: true },
    notifications: { type: 'array', items: NOTIFICATION_SCHEMA, description: 'Newest first' },
    nextCursor: { type: 'string', description: 'Present when more match: pass it as cursor' },
  },
  examples: [{ ok: true, notifications: [EXAMPLE] }],
};

export const PREFERENCES_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'preferences'],
  // Built from the table (PREFERENCE_FIELDS): a channel or kind is added there, not here.
  properties: { ok: { const: true }, preferences: PREFERENCES_SCHEMA },
  examples: [
    {
      ok: true,
      preferences: Object.fromEntries(
        PREFERENCE_CHANNELS.map((c) => [
          c,
          Object.fromEntries(PREFERENCE_KINDS.map((k) => [k, !(c === 'email' && k === 'digest')])),
        ]),
      ),
    },
  ],
};
