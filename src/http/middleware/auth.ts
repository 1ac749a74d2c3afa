/**
 * API key authentication (DESIGN §2): `x-api-key: hk_<keyId>_<secret>`; the secret's SHA-256 is
 * compared in constant time. No, malformed, unknown or revoked key → 401. A path family that is
 * not the key's family → 403, whether or not it exists. A missing scope → 403.
 */
import type Koa from 'koa';
import { Forbidden, Unauthorized } from '../../domain/shared/errors.js';
import { verifyApiKey, hasScope } from '../../family/keys.js';
import type { Scope } from '../../store/types.js';
import type { Services } from '../route.js';

const TOUCH_EVERY_MS = 10 * 60_000;

export function authenticate(services: Services, scope: Scope): Koa.Middleware {
  return async (ctx, next) => {
    const presented = ctx.get('x-api-key');
    if (!presented) throw new Unauthorized('The x-api-key header is missing');
    const key = verifyApiKey(services.store, presented);
    if (!key) throw new Unauthorized('The API key is not valid (unknown, malformed or revoked)');
    ctx.state.key = key;
    const family = services.store.getFamily(key.familyId);
    if (!family || family.slug !== ctx.params.familySlug) {
      throw new Forbidden('This API key does not belong to that family');
    }
    if (!hasScope(key, scope)) throw new Forbidden(`This API key lacks the "${scope}" scope`);
    ctx.state.family = family;
    const now = services.now();
    if (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) > TOUCH_EVERY_MS) {
      services.store.touchKey(key.id, now.toISOString());
    }
    await next();
  };
}
