/**
 * Routes of the daemon itself: health, the OpenAPI document and the change-log feed.
 */
import { defineRoutes } from '../route.js';
import { named, S } from '../schema.js';
import { EVENT_TYPES } from '../../domain/shared/events.js';

export const CHANGE_RECORD_SCHEMA = named('ChangeRecord', {
  type: 'object',
  required: ['id', 'seq', 'at', 'type', 'actor', 'object'],
  properties: {
    id: { type: 'string', pattern: '^event_[0-9a-z]{20}$', description: 'The change\'s event id; the `webhook-id` of its deliveries' },
    seq: { type: 'integer', minimum: 1 },
    at: { type: 'string', format: 'date-time' },
    type: { type: 'string', enum: [...EVENT_TYPES] },
    actor: {
      type: 'object', required: ['keyId', 'personId'],
      properties: { keyId: { type: ['string', 'null'] }, personId: { type: ['string', 'null'] } },
    },
    object: { description: 'The resource as the API shows it' },
    previous: { description: 'The resource before an update' },
  },
});

/** `GET …/changes?limit=`: 1..500 (issue 2), 100 when left out. */
const CHANGES_LIMIT = { min: 1, max: 500, default: 100 } as const;

export default function systemRoutes(getDocument: () => unknown, version: string) {
  const started = Date.now();
  return defineRoutes([
    {
      method: 'get', path: '/healthz', family: false, scope: 'public', tags: ['System'],
      summary: 'Liveness: answers while the daemon serves',
      description: '`writes` is `failing` while the store cannot write (a full disk: writes answer 507, reads go on).',
      response: {
        type: 'object', required: ['ok', 'status', 'writes'],
        properties: {
          ok: { const: true }, status: { const: 'ok' }, version: { type: 'string' }, uptimeSeconds: { type: 'integer' },
          writes: { enum: ['ok', 'failing'] },
        },
      },
      handler: ({ services }) => ({
        ok: true, status: 'ok', version, uptimeSeconds: Math.floor((Date.now() - started) / 1000),
        writes: services.store.writeFailure ? 'failing' : 'ok',
      }),
    },
    {
      method: 'get', path: '/api/v1/openapi.json', family: false, scope: 'public', tags: ['System'],
      summary: 'This OpenAPI 3.1 document',
      response: { type: 'object', required: ['openapi', 'paths'], properties: { openapi: { const: '3.1.0' }, paths: { type: 'object' } } },
      handler: () => getDocument(),
    },
    {
      method: 'get', path: '/changes', tags: ['Changes'], scope: 'read',
      summary: 'The family change log, in order',
      description: 'Every change to the family as `{id, seq, at, type, actor, object, previous?}`; `type` is the webhook event type. Follow it with `after=<nextAfter>`.',
      query: S.object({
        after: S.optional(S.integer(0, undefined, { default: 0, description: 'Return records with seq greater than this' })),
        limit: S.optional(S.integer(CHANGES_LIMIT.min, CHANGES_LIMIT.max, { default: CHANGES_LIMIT.default, description: 'Records per page' })),
      }),
      response: {
        type: 'object', required: ['ok', 'changes', 'nextAfter'],
        properties: { ok: { const: true }, changes: { type: 'array', items: CHANGE_RECORD_SCHEMA }, nextAfter: { type: 'integer' } },
      },
      // Read through the family, so a batch still being written (and not yet durable) is never shown.
      handler: ({ query, services, family }) => family.read(() => {
        const after = query.after ?? 0;
        const changes = services.store.readLog(family.info.id, after, query.limit ?? CHANGES_LIMIT.default);
        return { ok: true, changes, nextAfter: changes.length ? changes[changes.length - 1]!.seq : after };
      }),
    },
  ]);
}
