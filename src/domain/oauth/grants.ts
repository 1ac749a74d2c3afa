/**
 * OAuth grants (docs/oauth.md): what an admin approved for an assistant on the consent page.
 * A grant acts as its family with the granted scopes and as the person of the admin key that
 * approved it. The grant records themselves are credentials and live beside the API keys in
 * the store (src/oauth); the family's change log gets one record when a grant is made and one
 * when it is revoked, decided here.
 */
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';

/** The scopes an assistant asks for, and the API scope each one is. */
export const OAUTH_SCOPES = ['household:read', 'household:write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** The API key scopes (read, write, admin) a grant may amount to: never admin. */
export type GrantApiScope = 'read' | 'write';

export const API_SCOPE_OF: { [S in OAuthScope]: GrantApiScope } = {
  'household:read': 'read',
  'household:write': 'write',
};

export interface OAuthGrant {
  /** `grant_…` */
  id: string;
  familyId: string;
  clientId: string;
  clientName: string;
  scopes: OAuthScope[];
  /** The RFC 8707 resource its tokens are for: `${publicUrl}/mcp`. */
  resource: string;
  /** The admin key whose holder approved it; the grant stops working if that key is revoked. */
  keyId: string;
  /** The person of that key, or null: changes through the grant are that person's. */
  personId: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A grant as admins see it (GET …/oauth-grants) and as the change log records it. */
export interface OAuthGrantView {
  id: string;
  clientId: string;
  clientName: string;
  scopes: OAuthScope[];
  resource: string;
  approvedByKeyId: string;
  personId: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export function grantView(g: OAuthGrant): OAuthGrantView {
  return {
    id: g.id,
    clientId: g.clientId,
    clientName: g.clientName,
    scopes: g.scopes,
    resource: g.resource,
    approvedByKeyId: g.keyId,
    personId: g.personId,
    createdAt: g.createdAt,
    revokedAt: g.revokedAt,
  };
}

/** The API scopes a grant's scopes amount to (write implies read). */
export function apiScopes(scopes: readonly OAuthScope[]): GrantApiScope[] {
  return Array.from(new Set(scopes.map((s) => API_SCOPE_OF[s])));
}

/**
 * Logs a grant's creation or revocation. Nothing of the family's own state changes: the
 * record is the household's account of who let which assistant in, and when it was let go.
 */
export function decideGrantLogged(
  _state: FamilyState,
  grant: OAuthGrant,
  what: 'created' | 'revoked',
  _ctx: CommandContext,
): Decision<OAuthGrantView> {
  const view = grantView(grant);
  return { result: view, changes: [], events: [{ type: `oauth_grant.${what}`, object: view }] };
}
