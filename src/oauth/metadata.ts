/**
 * Where the OAuth door lives and what it says about itself (docs/oauth.md):
 *
 * - the MCP endpoint `${publicUrl}/mcp` is the protected resource (RFC 9728), and the daemon
 *   at `${publicUrl}` is its authorization server (RFC 8414, issuer = publicUrl);
 * - the documents are answered at the daemon's root paths and, when publicUrl has a path
 *   (`https://example.org/household`), also at the RFC's "inserted" paths
 *   (`/.well-known/oauth-authorization-server/household`): a proxy that strips the prefix
 *   serves the first, a proxy that passes the host's `/.well-known/` on as is serves the second.
 */
import { OAUTH_SCOPES } from '../domain/oauth/grants.js';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

const PRM = '/.well-known/oauth-protected-resource';
const ASM = '/.well-known/oauth-authorization-server';

export interface OAuthUrls {
  /** publicUrl without a trailing slash: the issuer. */
  issuer: string;
  /** The protected resource: `${issuer}/mcp`. */
  resource: string;
  /** What `WWW-Authenticate: Bearer resource_metadata=` names (reachable through a prefix-stripping proxy). */
  resourceMetadata: string;
  /** The paths (as the daemon sees them) that answer each document. */
  resourceMetadataPaths: string[];
  serverMetadataPaths: string[];
}

export function oauthUrls(publicBase: string, mcpPath: string): OAuthUrls {
  const prefix = new URL(publicBase).pathname.replace(/\/+$/, '');
  const resourceMetadataPaths = [PRM, `${PRM}${mcpPath}`];
  const serverMetadataPaths = [ASM];
  if (prefix) {
    resourceMetadataPaths.push(`${PRM}${prefix}${mcpPath}`);
    serverMetadataPaths.push(`${ASM}${prefix}`);
  }
  return {
    issuer: publicBase,
    resource: `${publicBase}${mcpPath}`,
    resourceMetadata: `${publicBase}${PRM}${mcpPath}`,
    resourceMetadataPaths,
    serverMetadataPaths,
  };
}

/** RFC 9728 protected resource metadata of /mcp. */
export function resourceMetadata(u: OAuthUrls): Record<string, unknown> {
  return {
    resource: u.resource,
    authorization_servers: [u.issuer],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Household Organizer',
    resource_documentation: `${u.issuer}/api/docs`,
  };
}

export const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;

/** RFC 8414 authorization server metadata. */
export function serverMetadata(u: OAuthUrls): Record<string, unknown> {
  return {
    issuer: u.issuer,
    authorization_endpoint: u.issuer + OAUTH_PATHS.authorize,
    token_endpoint: u.issuer + OAUTH_PATHS.token,
    registration_endpoint: u.issuer + OAUTH_PATHS.register,
    revocation_endpoint: u.issuer + OAUTH_PATHS.revoke,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${u.issuer}/api/docs`,
  };
}
