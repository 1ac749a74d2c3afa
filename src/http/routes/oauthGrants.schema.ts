/**
 * Response schemas of the OAuth grant endpoints (docs/oauth.md): what admins see of the
 * assistants they let in. Nothing here carries a token or a hash.
 */
import { named, type JsonSchema } from '../../door/schema.js';
import { OAUTH_SCOPES } from '../../domain/oauth/grants.js';

export const GRANT_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'clientId',
    'clientName',
    'scopes',
    'resource',
    'approvedByKeyId',
    'personId',
    'createdAt',
    'revokedAt',
  ],
  properties: {
    id: { type: 'string', pattern: '^grant_[0-9a-z]{20}$' },
    clientId: { type: 'string', description: 'The registered client (RFC 7591 client_id)' },
    clientName: { type: 'string', description: 'The name the client registered with' },
    scopes: { type: 'array', items: { type: 'string', enum: [...OAUTH_SCOPES] } },
    resource: {
      type: 'string',
      description: 'The one resource its tokens are for: `${publicUrl}/mcp`',
    },
    approvedByKeyId: {
      type: 'string',
      description: 'The admin key that approved it; revoking that key stops the grant too',
    },
    personId: {
      type: ['string', 'null'],
      description: 'The person of that key: changes through the grant are theirs',
    },
    createdAt: { type: 'string', format: 'date-time' },
    revokedAt: { type: ['string', 'null'], format: 'date-time' },
  },
};

const EXAMPLE = {
  id: 'grant_01kaq5m2v8x3c4d5e6f7',
  clientId: 'mcp_4f8KqLmN2pR7sT9vW1xY3zA5',
  clientName: 'Claude',
  scopes: ['household:read', 'household:write'],
  resource: 'https://household.example.org/mcp',
  approvedByKeyId: 'A1b2C3d4E5f6',
  personId: null,
  createdAt: '2026-11-22T08:30:00.000Z',
  revokedAt: null,
};

export const GRANT_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'grants'],
  properties: { ok: { const: true }, grants: { type: 'array', items: GRANT_SCHEMA } },
  examples: [{ ok: true, grants: [EXAMPLE] }],
};

export const GRANT_REVOKED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'grant'],
  properties: { ok: { const: true }, grant: GRANT_SCHEMA },
  examples: [{ ok: true, grant: { ...EXAMPLE, revokedAt: '2026-11-23T09:00:00.000Z' } }],
};

named('OAuthGrant', GRANT_SCHEMA);
