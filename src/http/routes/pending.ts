/**
 * Endpoints of the contract that this version does not implement yet: context search and
 * lookups. They answer 501 `not_implemented` (after the key and scope checks, like any other
 * endpoint) instead of a 404 that would read as a wrong path, and the OpenAPI document lists
 * them as such.
 */
import { DomainError } from '../../domain/shared/errors.js';
import type { Scope } from '../../store/types.js';
import { defineRoutes, type Method, type RouteDef } from '../route.js';
import { S } from '../schema.js';

const PENDING: [Method, string, Scope, string, string][] = [
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
