/**
 * Endpoints of the contract that this version does not implement yet: external calendar
 * feeds, context search and lookups. They answer
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
  ['get', '/context', 'read', 'Context', 'Context search over collections, people and upcoming events'],
  ['get', '/weather', 'read', 'Lookups', 'Weather for a location'],
  ['get', '/web/search', 'read', 'Lookups', 'Public web search'],
  ['get', '/web/page', 'read', 'Lookups', 'Readable text of a public web page'],
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
