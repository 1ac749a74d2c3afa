/**
 * API key authentication (docs/api.md): `x-api-key: hk_<keyId>_<secret>`; the secret's SHA-256 is
 * compared in constant time. No, malformed, unknown or revoked key → 401. A path family that is
 * not the key's family → 403, whether or not it exists. A missing scope → 403. An MCP tool
 * call's request carries the inner-call proof (rateLimit.ts): then it is not counted again,
 * and its credential may be an OAuth access token (good for /mcp only, so never without it).
 */
import type Koa from 'koa';
import { Forbidden } from '../../domain/shared/errors.js';
import { Unauthorized } from '../errors.js';
import { verifyApiKey } from '../../family/keys.js';
import { hasScope } from '../../family/scopes.js';
import type { ApiKeyRecord, FamilyInfo, Scope } from '../../store/types.js';
import type { Store } from '../../store/store.js';
import type { Services } from '../route.js';
import { INNER_CALL_HEADER } from './rateLimit.js';

const TOUCH_EVERY_MS = 10 * 60_000;

interface Verified {
  key: ApiKeyRecord;
  family: FamilyInfo | undefined;
  version: number;
}

/**
 * Verified keys by their presented text, valid while the store's keys version is unchanged
 * (every creation or revocation, from this process or the CLI, bumps it), so revocation still
 * takes effect on the next request while a busy key skips the hash and two decodes.
 */
export class KeyCache {
  private readonly entries = new Map<string, Verified>();
  constructor(
    private readonly store: Store,
    private readonly max = 10_000,
  ) {}

  verify(presented: string): Verified | null {
    const version = this.store.keysVersion();
    const hit = this.entries.get(presented);
    if (hit && hit.version === version) return hit;
    const key = verifyApiKey(this.store, presented);
    if (!key) {
      this.entries.delete(presented);
      return null;
    }
    const fresh = { key, family: this.store.getFamily(key.familyId), version };
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(presented, fresh);
    return fresh;
  }
}

/**
 * `ticketed` routes (the live change stream) also take `?ticket=` in place of the header: a
 * one-connection ticket a browser got with its key, spent here whatever the outcome.
 */
function byTicket(services: Services, ticket: string): Omit<Verified, 'version'> | null {
  const held = services.stream.tickets.redeem(ticket);
  const key = held ? services.store.getKey(held.keyId) : undefined;
  if (!key || key.revokedAt || key.familyId !== held!.familyId) return null;
  return { key, family: services.store.getFamily(key.familyId) };
}

/**
 * Who a presented credential is: a ticket, an inner call of this process (an MCP tool call:
 * an API key, or an OAuth access token, which REST takes only so), or an API key.
 */
function verifyPresented(
  ctx: Koa.Context,
  services: Services,
  cache: KeyCache,
  presented: string,
): (Omit<Verified, 'version'> & { grantId?: string }) | null {
  if (ctx.state.ticketed) return ctx.state.ticketed as Omit<Verified, 'version'>;
  const proof = ctx.get(INNER_CALL_HEADER);
  if (proof && services.limits.inner.verify(presented, proof)) {
    ctx.state.innerCall = true;
    // /mcp made this call after checking the token for its own address (RFC 8707 audience).
    const grant = services.grants?.verifyAccess(presented, null);
    if (grant) return { key: grant.key, family: grant.family, grantId: grant.grant.id };
  }
  // An API key is good on REST with or without a proof (one made by another process — a tool
  // call that reached another cluster node — only means it is counted here as well); a token
  // is not a key, so without a valid proof it is refused here.
  return cache.verify(presented);
}

export function authenticate(
  services: Services,
  scope: Scope,
  cache: KeyCache,
  ticketed = false,
): Koa.Middleware {
  return async (ctx, next) => {
    const presented = ctx.get('x-api-key');
    const ticket = ticketed && !presented ? ctx.query.ticket : undefined;
    if (typeof ticket === 'string') {
      ctx.state.ticketed = byTicket(services, ticket);
      if (!ctx.state.ticketed)
        throw new Unauthorized(
          'The stream ticket is not valid (unknown, used, expired, or its key was revoked)',
        );
    } else if (!presented) throw new Unauthorized('The x-api-key header is missing');
    const verified = verifyPresented(ctx, services, cache, presented);
    if (!verified)
      throw new Unauthorized('The API key is not valid (unknown, malformed or revoked)');
    const { key, family, grantId } = verified;
    if (grantId) ctx.state.grantId = grantId;
    ctx.state.key = key;
    if (!family || family.slug !== ctx.params.familySlug) {
      throw new Forbidden('This API key does not belong to that family');
    }
    if (!hasScope(key, scope)) throw new Forbidden(`This API key lacks the "${scope}" scope`);
    ctx.state.family = family;
    const now = services.now();
    if (
      !grantId &&
      (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) > TOUCH_EVERY_MS)
    ) {
      key.lastUsedAt = now.toISOString();
      services.store.touchKey(key.id, key.lastUsedAt);
    }
    await next();
  };
}
