/**
 * Webhook destinations (admin scope; docs/webhooks.md): list with history and usage, create (the
 * signing secret is shown once), update (rotation answers the new secret once), delete, and a
 * test delivery sent now.
 */
import { route, defineRoutes } from '../route.js';
import { EVENT_TYPES } from '../../domain/shared/events.js';
import {
  decideCreateDestination,
  decideDeleteDestination,
  decideUpdateDestination,
  destinationView,
  getDestination,
  listDestinations,
} from '../../domain/webhooks/destinations.js';
import { decideOutcome } from '../../domain/webhooks/deliveries.js';
import { historyOf, usageOf } from '../../domain/webhooks/usage.js';
import { newSigningSecret } from '../../webhooks/sign.js';
import { Invalid } from '../../domain/shared/errors.js';
import type { EgressPolicy } from '../../integrations/addresses.js';
import { policyFor, refusedLiteral } from '../../integrations/literalAddress.js';
import {
  CreateDestinationBody,
  DESTINATION_CREATED_RESPONSE,
  DESTINATION_DELETED_RESPONSE,
  DESTINATION_LIST_RESPONSE,
  DESTINATION_UPDATED_RESPONSE,
  TEST_RESPONSE,
  UpdateDestinationBody,
} from './webhooks.schema.js';

const tags = ['Webhooks'];

/**
 * A receiver whose address the webhooks' egress policy refuses is refused when it is added or
 * changed (400 at `url`), as a calendar feed's is, not only when a delivery fails: an address
 * written as one (an IP, `localhost`); a DNS name is checked on each delivery.
 */
function checkReceiver(url: string | undefined, policy: EgressPolicy): void {
  const refused = url === undefined ? null : refusedLiteral(url, policy);
  if (refused)
    throw Invalid.at(
      ['url'],
      `the receiver's address is not allowed for webhooks (a ${refused} address); the server setting egress.webhooks allows it when set to ${policyFor(refused)}`,
    );
}
const base = '/webhook-destinations';

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    scope: 'admin',
    summary: 'List webhook destinations with their last 100 attempts and usage',
    description:
      'Never shows signing secrets. `events` lists every event type a destination can subscribe to.',
    response: DESTINATION_LIST_RESPONSE,
    handler: ({ family, services }) =>
      family.read((state) => {
        const now = services.now();
        return {
          ok: true,
          destinations: listDestinations(state).map((d) => ({
            ...destinationView(d),
            history: historyOf(state, d.id),
            usage: usageOf(state, d.id, now),
          })),
          events: EVENT_TYPES,
        };
      }),
  }),
  route({
    method: 'post',
    path: base,
    tags,
    scope: 'admin',
    status: 201,
    body: CreateDestinationBody,
    summary: 'Create a webhook destination',
    description:
      'Answers the signing secret once. The destination receives the subscribed events logged after it was created. At most 25 per family (409). Logs webhook_destination.created.',
    response: DESTINATION_CREATED_RESPONSE,
    handler: ({ body, family, services }) => {
      checkReceiver(body.url, services.config.egress.webhooks);
      const secret = newSigningSecret();
      return family.execute(
        (state, ctx) => decideCreateDestination(state, body, secret, ctx),
        (d) => ({ ok: true, destination: destinationView(d), signingSecret: secret }),
      );
    },
  }),
  route({
    method: 'patch',
    path: `${base}/:destinationId`,
    tags,
    scope: 'admin',
    body: UpdateDestinationBody,
    summary: 'Change a webhook destination or rotate its secret',
    description:
      'rotateSecret: true answers the new secret once; the old one keeps signing beside it for 24 hours (two `v1,` signatures). Disabling drops its pending deliveries; re-enabling delivers what is logged from then on. Logs webhook_destination.updated when something changed.',
    response: DESTINATION_UPDATED_RESPONSE,
    handler: ({ params, body, family, services }) => {
      checkReceiver(body.url ?? undefined, services.config.egress.webhooks);
      const secret = body.rotateSecret ? newSigningSecret() : null;
      return family.execute(
        (state, ctx) => decideUpdateDestination(state, params.destinationId, body, secret, ctx),
        (r) => ({
          ok: true,
          destination: destinationView(r.destination),
          ...(r.rotated ? { signingSecret: secret } : {}),
        }),
      );
    },
  }),
  route({
    method: 'delete',
    path: `${base}/:destinationId`,
    tags,
    scope: 'admin',
    summary: 'Delete a webhook destination',
    description:
      'Its pending deliveries, history and usage go with it. Logs webhook_destination.deleted.',
    response: DESTINATION_DELETED_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideDeleteDestination(state, params.destinationId, ctx),
        (d) => ({ ok: true, destination: destinationView(d) }),
      ),
  }),
  route({
    method: 'post',
    path: `${base}/:destinationId/test`,
    tags,
    scope: 'admin',
    summary: 'Send a webhook.test delivery now',
    description:
      "Signed like any delivery; sent now (also to a disabled destination), not retried. The answer says how it went; the attempt is recorded in the destination's history and usage but neither disables it nor counts towards the 5 days of failures.",
    response: TEST_RESPONSE,
    handler: async ({ params, family, services }) => {
      const d = await family.read((state) => getDestination(state, params.destinationId));
      const outcome = await services.webhooks.sendTest(family.info, d);
      return family.execute(
        (state, ctx) => decideOutcome(state, outcome, [], 0, ctx),
        (r) => ({
          ok: true,
          delivery: {
            status: r.status,
            responseStatus: outcome.responseStatus,
            durationMs: outcome.durationMs,
            deliveryId: outcome.deliveryId,
            eventId: outcome.eventId,
            error: outcome.error,
          },
        }),
      );
    },
  }),
]);
