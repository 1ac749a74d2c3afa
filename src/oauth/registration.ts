/**
 * Dynamic client registration (RFC 7591), bounded (docs/oauth.md): anyone may register, so
 * each client address may register `PER_HOUR` clients an hour and hold at most
 * `UNUSED_PER_ADDRESS` registrations that never led to a code; unused registrations expire
 * after a day (OAuthAuthority.expiredClient, removed by its sweep).
 */
import { createHash } from 'node:crypto';
import { randomBase62 } from '../family/secrets.js';
import type { OAuthCredentials } from '../store/ports.js';
import { makeClientSecret, parseScopes, redirectUriProblem } from './credentials.js';
import type { OAuthAuthority } from './authority.js';
import type { OAuthClient } from './records.js';

export const PER_HOUR = 20;
export const UNUSED_PER_ADDRESS = 50;
const MAX_REDIRECT_URIS = 10;

export interface RegistrationError {
  status: number;
  error: string;
  error_description: string;
}

/** Registrations per address bucket in the current hour (kept in memory). */
export class RegistrationLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly now: () => number) {}

  take(bucket: string): boolean {
    const now = this.now();
    let w = this.windows.get(bucket);
    if (!w || now - w.start >= 3_600_000) {
      if (this.windows.size > 10_000) this.windows.clear();
      w = { start: now, count: 0 };
      this.windows.set(bucket, w);
    }
    w.count++;
    return w.count <= PER_HOUR;
  }
}

const fail = (error: string, description: string, status = 400): RegistrationError => ({
  status,
  error,
  error_description: description,
});

type RegistrationDeps = {
  store: Pick<OAuthCredentials, 'listOAuth' | 'transactOAuth'>;
  authority: OAuthAuthority;
  limiter: RegistrationLimiter;
  now: () => Date;
};

/** Client metadata as checked: what a registration stores and answers. */
interface Metadata {
  uris: string[];
  method: 'none' | 'client_secret_basic' | 'client_secret_post';
  grantTypes: unknown[];
  responseTypes: unknown[];
  scope?: string;
  name: string;
}

/** The redirect URIs: 1 to MAX_REDIRECT_URIS of them, each one a client may register. */
function redirectUris(uris: unknown): string[] | RegistrationError {
  if (
    !Array.isArray(uris) ||
    uris.length === 0 ||
    uris.length > MAX_REDIRECT_URIS ||
    !uris.every((u) => typeof u === 'string' && u.length <= 2000)
  ) {
    return fail(
      'invalid_redirect_uri',
      `redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URIs`,
    );
  }
  for (const [i, u] of (uris as string[]).entries()) {
    const problem = redirectUriProblem(u);
    if (problem) return fail('invalid_redirect_uri', `redirect_uris[${i}] ${problem}`);
  }
  return uris as string[];
}

/** RFC 7591 metadata, checked field by field; the first problem is the error. */
function metadataOf(body: unknown): Metadata | RegistrationError {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail('invalid_client_metadata', 'The body must be a JSON object of client metadata');
  const m = body as Record<string, unknown>;
  const uris = redirectUris(m.redirect_uris);
  if (!Array.isArray(uris)) return uris;
  const method = m.token_endpoint_auth_method ?? 'client_secret_basic';
  if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post') {
    return fail(
      'invalid_client_metadata',
      'token_endpoint_auth_method must be none, client_secret_basic or client_secret_post',
    );
  }
  const grantTypes = m.grant_types ?? ['authorization_code', 'refresh_token'];
  if (
    !Array.isArray(grantTypes) ||
    !grantTypes.every((g) => g === 'authorization_code' || g === 'refresh_token')
  ) {
    return fail(
      'invalid_client_metadata',
      'grant_types may only hold authorization_code and refresh_token',
    );
  }
  const responseTypes = m.response_types ?? ['code'];
  if (!Array.isArray(responseTypes) || !responseTypes.every((r) => r === 'code')) {
    return fail('invalid_client_metadata', 'response_types may only hold code');
  }
  if (m.scope !== undefined && (typeof m.scope !== 'string' || 'unknown' in parseScopes(m.scope))) {
    return fail(
      'invalid_client_metadata',
      'scope may only hold household:read and household:write',
    );
  }
  const rawName = typeof m.client_name === 'string' ? m.client_name.trim() : '';
  const name = rawName ? [...rawName].slice(0, 100).join('') : 'An assistant';
  return {
    uris,
    method,
    grantTypes,
    responseTypes,
    ...(typeof m.scope === 'string' ? { scope: m.scope } : {}),
    name,
  };
}

/**
 * The address's bounds, checked last so a malformed request does not spend its allowance: its
 * unused registrations, and registrations an hour. Null when within them.
 */
function overBounds(
  d: RegistrationDeps,
  addressHash: string,
  bucket: string,
): RegistrationError | null {
  const unused = d.store
    .listOAuth<OAuthClient>('client')
    .filter(
      (c) => c.addressHash === addressHash && !c.usedAt && !d.authority.expiredClient(c),
    ).length;
  if (unused >= UNUSED_PER_ADDRESS)
    return fail(
      'rate_limited',
      `This address holds ${unused} registrations that were never used; they expire a day after they were made`,
      429,
    );
  if (!d.limiter.take(bucket))
    return fail('rate_limited', `At most ${PER_HOUR} registrations an hour from one address`, 429);
  return null;
}

/** Registers a client from its metadata; answers the RFC 7591 response or an error. */
export async function registerClient(
  d: RegistrationDeps,
  body: unknown,
  bucket: string,
): Promise<{ status: 201; body: Record<string, unknown> } | RegistrationError> {
  const meta = metadataOf(body);
  if ('error' in meta) return meta;
  const addressHash = createHash('sha256').update(bucket).digest('hex');
  const refused = overBounds(d, addressHash, bucket);
  if (refused) return refused;
  const { uris, method, name } = meta;
  const secret = method === 'none' ? null : makeClientSecret();
  const now = d.now();
  const client: OAuthClient = {
    id: `mcp_${randomBase62(24)}`,
    name,
    redirectUris: uris,
    authMethod: method,
    secretHash: secret?.secretHash ?? null,
    createdAt: now.toISOString(),
    addressHash,
    usedAt: null,
  };
  await d.store.transactOAuth(() => ({
    writes: [{ kind: 'client', id: client.id, value: client }],
    result: undefined,
  }));
  return {
    status: 201,
    body: {
      client_id: client.id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      ...(secret ? { client_secret: secret.text, client_secret_expires_at: 0 } : {}),
      client_name: name,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: method,
      grant_types: meta.grantTypes,
      response_types: meta.responseTypes,
      ...(meta.scope !== undefined ? { scope: meta.scope } : {}),
    },
  };
}
