/**
 * `Idempotency-Key` on POST/PATCH/DELETE (DESIGN §3). The first answer (status and body) is
 * kept for 24 h, scoped to the API key; a repeat with the same method, path and body gets it
 * again with `Idempotent-Replayed: true`; the same key with a different request → 422; a repeat
 * while the first is still running → 409. Server errors (5xx) are not kept, so a retry runs.
 */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { DomainError, Invalid } from '../../domain/shared/errors.js';
import type { Store } from '../../store/store.js';

const TTL_MS = 24 * 3600_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export function idempotency(store: Store, now: () => Date): Koa.Middleware {
  const inFlight = new Set<string>();
  return async (ctx, next) => {
    const idemKey = ctx.get('idempotency-key');
    if (!idemKey || ctx.method === 'GET' || ctx.method === 'HEAD') return next();
    if (!KEY.test(idemKey)) throw Invalid.at(['header', 'Idempotency-Key'], 'must be 1 to 255 visible ASCII characters');
    const keyId: string = ctx.state.key.id;
    const raw = (ctx.request as any).rawBody ?? '';
    const fingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${raw}`).digest('hex');
    const slot = `${keyId}\u0000${idemKey}`;
    if (inFlight.has(slot)) {
      throw new DomainError(409, 'conflict', 'A request with this Idempotency-Key is still being processed');
    }
    const prior = store.getIdempotency(keyId, idemKey, now().getTime());
    if (prior) {
      if (prior.fingerprint !== fingerprint) {
        throw new DomainError(422, 'idempotency_mismatch', 'This Idempotency-Key was used with a different request');
      }
      ctx.status = prior.status;
      ctx.body = prior.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    inFlight.add(slot);
    try {
      try {
        await next();
      } catch (err) {
        // Expected errors are answers too: keep them so a retry sees the same one.
        if (err instanceof DomainError && err.status < 500) {
          await store.putIdempotency(keyId, idemKey, {
            fingerprint, status: err.status,
            body: { ok: false, error: err.message, code: err.code, ...(err.issues?.length ? { issues: err.issues } : {}) },
            expiresAt: now().getTime() + TTL_MS,
          });
        }
        throw err;
      }
      if (ctx.status < 500) {
        await store.putIdempotency(keyId, idemKey, { fingerprint, status: ctx.status, body: ctx.body, expiresAt: now().getTime() + TTL_MS });
      }
    } finally {
      inFlight.delete(slot);
    }
  };
}
