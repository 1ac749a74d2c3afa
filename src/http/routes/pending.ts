/**
 * Endpoints of the contract that this version does not implement yet: external calendar
 * feeds, notifications and webhook destinations. They answer
 * 501 `not_implemented` (after the key and scope checks, like any other endpoint) instead of
 * a 404 that would read as a wrong path, and the OpenAPI document lists them as such.
 */
import { DomainError } from '../../domain/shared/errors.js';
import type { Scope } from '../../store/types.js';
import { defineRoutes, type Method, type RouteDef } from '../route.js';
import { S } from '../schema.js';

const PENDING: [Method, string, Scope, string, string][] = [
  ['get', '/calendar/external', 'admin', 'External calendars', 'List linked external ICS feeds'],
  ['post', '/calendar/external', 'admin', 'External calendars', 'Link an external ICS feed'],
  ['post', '/calendar/external/probe', 'admin', 'External calendars', 'Check whether an ICS URL can be read'],
  ['patch', '/calendar/external/:sourceId', 'admin', 'External calendars', 'Change a feed\'s hint'],
  ['delete', '/calendar/external/:sourceId', 'admin', 'External calendars', 'Remove a feed and its synced calendar'],
  ['post', '/calendar/external/:sourceId/refresh', 'admin', 'External calendars', 'Request a refresh of a feed'],
  ['get', '/notifications', 'read', 'Notifications', 'Recent notifications'],
  ['post', '/notifications', 'write', 'Notifications', 'Send a notification'],
  ['post', '/checks', 'write', 'Notifications', 'Schedule a check ahead of a calendar event'],
  ['get', '/notification-preferences', 'admin', 'Notifications', 'Notification preferences'],
  ['post', '/notification-preferences', 'admin', 'Notifications', 'Change a notification preference'],
  ['get', '/notification-routines', 'admin', 'Notifications', 'List notification routines'],
  ['post', '/notification-routines', 'admin', 'Notifications', 'Create a notification routine'],
  ['patch', '/notification-routines/:triggerId', 'admin', 'Notifications', 'Change a notification routine'],
  ['delete', '/notification-routines/:triggerId', 'admin', 'Notifications', 'Delete a notification routine'],
  ['get', '/webhook-destinations', 'admin', 'Webhooks', 'List webhook destinations with history and usage'],
  ['post', '/webhook-destinations', 'admin', 'Webhooks', 'Create a webhook destination'],
  ['patch', '/webhook-destinations/:destinationId', 'admin', 'Webhooks', 'Change a webhook destination'],
  ['delete', '/webhook-destinations/:destinationId', 'admin', 'Webhooks', 'Delete a webhook destination'],
  ['post', '/webhook-destinations/:destinationId/test', 'admin', 'Webhooks', 'Send a test delivery'],
];

const notImplemented = (summary: string) => `${summary} is not implemented in this version yet`;

export default defineRoutes(PENDING.map(([method, path, scope, tag, summary]): RouteDef => ({
  method, path, scope, tags: [tag],
  summary: `${summary} (not implemented yet: 501)`,
  description: 'Part of the contract, not implemented in this version: answers 501 `not_implemented` after the key and scope checks.',
  query: S.any(),
  ...(method === 'get' ? {} : { body: S.any() }),
  status: 501,
  response: { $ref: '#/components/schemas/Error' },
  example: { ok: false, error: notImplemented(summary), code: 'not_implemented' },
  handler: () => {
    throw new DomainError(501, 'not_implemented', notImplemented(summary));
  },
})));
