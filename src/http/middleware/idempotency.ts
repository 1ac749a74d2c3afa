/**
 * `Idempotency-Key` on POST/PATCH/DELETE. The answer of a request that changed something is
 * kept for 24 h, scoped to the API key, and written in the same LMDB transaction as the change
 * itself — so a crash can never leave a change without its answer, and a retry after a crash
 * is answered, not applied twice. A repeat with the same method, path and body gets the kept
 * answer with `Idempotent-Replayed: true`; the same key with a different request → 422; a
 * repeat while the first is still running → 409.
 *
 * Only answers of requests that changed something are kept (Stripe's rule): a request refused
 * by validation or by the family's rules changed nothing, so a retry is simply decided again,
 * and a flood of bad requests cannot fill the disk. An answer larger than MAX_KEPT_BYTES is
 * kept as its status and size only; a replay then says so.
 */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { Invalid } from '../../domain/shared/errors.js';
import { HttpError } from '../errors.js';
import type { Store } from '../../store/store.js';
import type { IdempotencyWrite } from '../../store/types.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** Larger answers (a batch of 50 long entries) are kept as status and size only. */
export const MAX_KEPT_BYTES = 64 * 1024;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** What the handler needs to keep its answer; set on `ctx.state.idempotency`. */
export interface IdempotencyIntent {
  keyId: string;
  idemKey: string;
  fingerprint: string;
  expiresAt: number;
}

/** The record that keeps an answer for a retry (written with the change, by the family actor). */
export function keptAnswer(intent: IdempotencyIntent, status: number, body: unknown): IdempotencyWrite {
  const bytes = Buffer.byteLength(JSON.stringify(body) ?? '');
  const base = { fingerprint: intent.fingerprint, status, expiresAt: intent.expiresAt };
  return {
    keyId: intent.keyId, idemKey: intent.idemKey,
    record: bytes <= MAX_KEPT_BYTES ? { ...base, body } : { ...base, truncatedBytes: bytes },
  };
}

export function idempotency(store: Store, now: () => Date): Koa.Middleware {
  const inFlight = new Set<string>();
  return async (ctx, next) => {
    const idemKey = ctx.get('idempotency-key');
    if (!idemKey || ctx.method === 'GET' || ctx.method === 'HEAD') return next();
    if (!KEY.test(idemKey)) throw Invalid.at(['header', 'Idempotency-Key'], 'must be 1 to 255 visible ASCII characters');
    const keyId: string = ctx.state.key.id;
    const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
    const fingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${raw}`).digest('hex');
    const slot = `${keyId}\u0000${idemKey}`;
    if (inFlight.has(slot)) {
      throw new HttpError(409, 'conflict', 'A request with this Idempotency-Key is still being processed');
    }
    const prior = store.getIdempotency(keyId, idemKey, now().getTime());
    if (prior) {
      if (prior.fingerprint !== fingerprint) {
        throw new HttpError(422, 'idempotency_mismatch', 'This Idempotency-Key was used with a different request');
      }
      ctx.status = prior.status;
      ctx.body = prior.truncatedBytes !== undefined
        ? { ok: true, idempotentReplay: true, message: `The change was made once; its answer (${prior.truncatedBytes} bytes) was too large to keep for a replay` }
        : prior.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    inFlight.add(slot);
    const intent: IdempotencyIntent = { keyId, idemKey, fingerprint, expiresAt: now().getTime() + IDEMPOTENCY_TTL_MS };
    ctx.state.idempotency = intent;
    try {
      await next();
    } finally {
      inFlight.delete(slot);
    }
  };
}
