/**
 * A change-log record, described once: `CHANGE_RECORD` is both the TypeScript type the store,
 * the actor, webhooks and the live stream pass around (`ChangeRecord`) and the JSON Schema the
 * OpenAPI document publishes (`ChangeRecord`) for `GET …/changes` and each `data:` line of the
 * live stream (src/domain/shared/shape.ts). What a record says of the caller is `CHANGE_ACTOR`
 * (the contract's word for it is `actor`).
 */
import { LOGGED_EVENT_TYPES } from './events.js';
import { J, type ShapeOf } from './shape.js';

/** What the change log keeps of the caller: the key and person, and the grant or display. */
export const CHANGE_ACTOR = J.object(
  { keyId: J.nullable(J.string()), personId: J.nullable(J.string()) },
  {
    grantId: J.string(
      'The OAuth grant an assistant acted through (its approving key is `keyId`); absent otherwise',
    ),
    displayId: J.string(
      'The family display whose page made the change (`keyId` is then null); absent otherwise',
    ),
  },
);

export const CHANGE_RECORD = J.object(
  {
    id: J.of<string>({
      type: 'string',
      pattern: '^event_[0-9a-z]{20}$',
      description: "The change's event id; the `webhook-id` of its deliveries",
    }),
    seq: J.of<number>({ type: 'integer', minimum: 1 }),
    at: J.of<string>({ type: 'string', format: 'date-time' }),
    type: J.enums(
      LOGGED_EVENT_TYPES,
      "The contract's event types and the daemon's own (`family.updated`, `oauth_grant.created`, `oauth_grant.revoked`, `display.created`, `display.deleted`), which webhooks do not carry",
    ),
    actor: CHANGE_ACTOR,
    object: J.of<unknown>({ description: 'The resource as the API shows it' }),
  },
  { previous: J.of<unknown>({ description: 'The resource before an update' }) },
);

/** One record of a family's change log, as stored, answered and streamed. */
export type ChangeRecord = ShapeOf<typeof CHANGE_RECORD>;
export type ChangeActor = ShapeOf<typeof CHANGE_ACTOR>;
