/**
 * "Which key is this?": `GET /api/v1/families/<slug>` answers the family and the calling key,
 * so a client (a dashboard, Home Assistant, a script) can check its setup with one call that
 * any key may make. Never the key's secret or hash.
 */
import { defineRoutes } from '../route.js';
import { named, type JsonSchema } from '../schema.js';
import type { FamilyInfo } from '../../domain/shared/state.js';
import type { ApiKeyRecord } from '../../store/types.js';

export const FAMILY_SCHEMA: JsonSchema = named('Family', {
  type: 'object', required: ['slug', 'name', 'timezone', 'location'],
  properties: {
    slug: { type: 'string', description: 'The family\'s part of every path' },
    name: { type: 'string' },
    timezone: { type: 'string', description: 'IANA time zone: dates and local times of the family are in it' },
    location: { type: ['string', 'null'], description: 'Where the household is (for weather); null until set' },
  },
});

export const KEY_SCHEMA: JsonSchema = named('ApiKey', {
  type: 'object', required: ['id', 'name', 'scopes', 'personId'],
  properties: {
    id: { type: 'string', pattern: '^[0-9A-Za-z]{12}$', description: 'The key\'s id: the part between `hk_` and the secret; the id `key list` and `key revoke` use' },
    name: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string', enum: ['read', 'write', 'admin'] }, description: 'read < write < admin: a scope includes those before it' },
    personId: { type: ['string', 'null'], description: 'The household member the key acts for (votes, note authors), or null' },
  },
});

const WHOAMI_RESPONSE: JsonSchema = {
  type: 'object', required: ['ok', 'family', 'key'],
  properties: { ok: { const: true }, family: FAMILY_SCHEMA, key: KEY_SCHEMA },
  examples: [{
    ok: true,
    family: { slug: 'home', name: 'Home', timezone: 'Europe/Berlin', location: null },
    key: { id: '7Fq2LmN8pR4s', name: 'kitchen tablet', scopes: ['read'], personId: null },
  }],
};

/** The family as clients see it; `location` is kept on the family record once it can be set. */
export function familyView(family: FamilyInfo): Record<string, unknown> {
  const location = (family as FamilyInfo & { location?: unknown }).location;
  return { slug: family.slug, name: family.name, timezone: family.timezone, location: typeof location === 'string' ? location : null };
}

export function keyView(key: ApiKeyRecord): Record<string, unknown> {
  return { id: key.id, name: key.name, scopes: [...key.scopes], personId: key.personId };
}

export default defineRoutes([
  {
    method: 'get', path: '', tags: ['Family'], scope: 'read',
    summary: 'The family and the API key making this call',
    description: 'Any key of the family may call it (every scope includes read): a client checks here that its key works and which family, zone and scopes it has.',
    response: WHOAMI_RESPONSE,
    handler: ({ family, key }) => ({ ok: true, family: familyView(family.info), key: keyView(key) }),
  },
]);
