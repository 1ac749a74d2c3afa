/**
 * Routes of the daemon itself: health, metrics, the OpenAPI document and the change-log feed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { route, defineRoutes, withStatus } from '../route.js';
import { named, S } from '../../door/schema.js';
import { CHANGE_RECORD } from '../../domain/shared/changeRecord.js';
import { NotFound } from '../../domain/shared/errors.js';
import { DoorError } from '../../door/errors.js';
import type { Addresses } from '../../addresses.js';
import type Koa from 'koa';

/** What GET /metrics serves (the daemon's Metrics, src/metrics.ts). */
export interface MetricsText {
  readonly enabled: boolean;
  readonly contentType: string;
  render(): Promise<string>;
}

/** A change-log record, described once with its type (src/domain/shared/changeRecord.ts). */
export const CHANGE_RECORD_SCHEMA = named('ChangeRecord', CHANGE_RECORD.schema);

/**
 * `GET …/changes?limit=`: 1..500, 100 when left out (a page of the change log stays small enough to
 * answer fast).
 */
const CHANGES_LIMIT = { min: 1, max: 500, default: 100 } as const;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * Whether `Authorization` carries `Bearer <token>`; compared in constant time (digests of equal
 * length).
 */
function bearerMatches(header: string, token: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]), digest(token));
}

/** What /healthz answers. */
const HEALTH_SCHEMA = {
  type: 'object',
  required: ['ok', 'status', 'writes'],
  properties: {
    ok: { const: true },
    status: { const: 'ok' },
    version: { type: 'string' },
    uptimeSeconds: { type: 'integer' },
    writes: { enum: ['ok', 'failing'] },
    cluster: {
      type: 'object',
      description:
        'Only on a cluster node (docs/scaling.md): its name, whether it is connected to NATS (writes need it), and how many families it owns.',
      required: ['node', 'connected', 'ownedFamilies'],
      properties: {
        node: { type: 'string' },
        connected: { type: 'boolean' },
        ownedFamilies: { type: 'integer' },
      },
    },
  },
};

/** The family's change log, page by page. */
const changesRoute = route({
  method: 'get',
  path: '/changes',
  tags: ['Changes'],
  scope: 'read',
  summary: 'The family change log, in order',
  description:
    'Every change to the family as `{id, seq, at, type, actor, object, previous?}`; `type` is the webhook event type. Follow it with `after=<nextAfter>`.',
  query: S.object({
    after: S.optional(
      S.integer(0, undefined, {
        default: 0,
        description: 'Return records with seq greater than this',
      }),
    ),
    limit: S.optional(
      S.integer(CHANGES_LIMIT.min, CHANGES_LIMIT.max, {
        default: CHANGES_LIMIT.default,
        description: 'Records per page',
      }),
    ),
  }),
  response: {
    type: 'object',
    required: ['ok', 'changes', 'nextAfter'],
    properties: {
      ok: { const: true },
      changes: { type: 'array', items: CHANGE_RECORD_SCHEMA },
      nextAfter: { type: 'integer' },
    },
  },
  // Read through the family, so a batch still being written (and not yet durable) is never
  // shown.
  handler: ({ query, services, family }) =>
    family.read(() => {
      const after = query.after ?? 0;
      const changes = services.store.readLog(
        family.info.id,
        after,
        query.limit ?? CHANGES_LIMIT.default,
      );
      return {
        ok: true,
        changes,
        nextAfter: changes.length ? changes[changes.length - 1].seq : after,
      };
    }),
});

/**
 * The OpenAPI document as served: its `servers` names the address it was fetched at
 * (publicUrl when set), so a client generated from it calls the daemon the way its author
 * reached it.
 */
function documentAt(document: unknown, addresses: Addresses, koa: Koa.Context): unknown {
  return {
    ...(document as Record<string, unknown>),
    servers: [
      {
        url: addresses.forRequest(koa),
        description: addresses.publicBase
          ? 'server.publicUrl of this daemon'
          : 'This daemon, at the address this document was fetched from',
      },
    ],
  };
}

export default function systemRoutes(
  getDocument: () => unknown,
  version: string,
  metrics: MetricsText,
) {
  const started = Date.now();
  return defineRoutes([
    route({
      method: 'get',
      path: '/healthz',
      family: false,
      scope: 'public',
      tags: ['System'],
      summary: 'Liveness: answers while the daemon serves',
      description:
        '`writes` is `failing` while the store cannot write (a full disk: writes answer 507, reads go on).',
      response: HEALTH_SCHEMA,
      handler: ({ services }) => ({
        ok: true,
        status: 'ok',
        version,
        uptimeSeconds: Math.floor((Date.now() - started) / 1000),
        writes: services.store.writeFailure ? 'failing' : 'ok',
        ...services.topology.health(),
      }),
    }),
    route({
      method: 'get',
      path: '/metrics',
      family: false,
      scope: 'public',
      tags: ['System'],
      summary: 'Prometheus metrics',
      description:
        'The Prometheus text format: requests by route template and status, active families, store commits and flushes, ' +
        "change-log lag per consumer, the agenda's depth and lateness, webhook outcomes, and the Node.js process. " +
        'Off unless `metrics.enabled` (then 404). With `metrics.token` set it needs `Authorization: Bearer <token>` (else 401); ' +
        'the API key is not used here.',
      produces: 'text/plain; version=0.0.4; charset=utf-8',
      response: { type: 'string', description: 'Prometheus text exposition format 0.0.4' },
      alsoResponses: [
        {
          status: 401,
          description: '`metrics.token` is set and the request did not carry it as a bearer token',
          schema: ERROR_REF,
        },
        {
          status: 404,
          description: 'Metrics are off (`metrics.enabled` is false)',
          schema: ERROR_REF,
        },
      ],
      handler: async ({ koa, services }) => {
        const { enabled, token } = services.config.metrics;
        if (!enabled || !metrics.enabled)
          throw new NotFound(
            'Metrics are off; set metrics.enabled to true in the configuration (or HOUSEHOLD_METRICS=1) to serve them',
          );
        if (token !== null && !bearerMatches(koa.get('authorization'), token)) {
          throw new DoorError(
            'unauthorized',
            'GET /metrics needs the metrics token: Authorization: Bearer <metrics.token>',
            { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } },
          );
        }
        return withStatus(200, await metrics.render(), {
          'content-type': metrics.contentType,
          'cache-control': 'no-store',
        });
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/openapi.json',
      family: false,
      scope: 'public',
      tags: ['System'],
      summary: 'This OpenAPI 3.1 document',
      response: {
        type: 'object',
        required: ['openapi', 'paths'],
        properties: { openapi: { const: '3.1.0' }, paths: { type: 'object' } },
      },
      handler: ({ koa, services }) => documentAt(getDocument(), services.addresses, koa),
    }),
    changesRoute,
  ]);
}
