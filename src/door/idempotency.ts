/**
 * `Idempotency-Key` on POST/PATCH/DELETE. The answer of a request that changed something is
 * kept for 24 h, scoped to the API key, and written in the same LMDB transaction as the change
 * itself — so a crash can never leave a change without its answer, and a retry after a crash
 * is answered, not applied twice. A repeat with the same method, path and body gets the kept
 * answer with `Idempotent-Replayed: true`; the same key with a different request → 422; a
 * repeat while the first is still running → 409. Whether a request is a repeat is settled by
 * the family actor where the write is decided; the look here is the fast path (see below).
 *
 * Only answers of requests that changed something are kept (Stripe's rule): a request refused
 * by validation or by the family's rules changed nothing, so a retry is simply decided again,
 * and a flood of bad requests cannot fill the disk. An answer larger than MAX_KEPT_BYTES is
 * kept as its status and size only; a replay then says so.
 *
 * Kept answers are sealed (replaySeal.ts): stored under a hash of the Idempotency-Key,
 * encrypted under a key only the same API key and Idempotency-Key derive, so no copy of the
 * store shows a credential an answer carried.
 */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { Invalid } from '../domain/shared/errors.js';
import { DoorError } from './errors.js';
import type { IdempotencyRecords } from '../store/ports.js';
import type { FamilyInfo, IdempotencyRecord, IdempotencyWrite } from '../store/types.js';
import { apiKeySecret } from '../family/keys.js';
import { AnsweredBefore, AnswerInFlight, type KeptAnswer } from '../family/repeats.js';
import type { DoorContext, DoorMiddleware, IdempotencyIntent } from './state.js';

export type { IdempotencyIntent };
import {
  fingerprintOf,
  openAnswer,
  replayKeys,
  sealAnswer,
  type ReplayKeys,
} from './replaySeal.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** Larger answers (a batch of 50 long entries) are kept as status and size only. */
export const MAX_KEPT_BYTES = 64 * 1024;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The record that keeps an answer for a retry (written with the change, by the family actor). */
export function keptAnswer(
  intent: IdempotencyIntent,
  status: number,
  body: unknown,
): IdempotencyWrite {
  const json = JSON.stringify(body);
  const bytes = Buffer.byteLength(json ?? '');
  const base: IdempotencyRecord = {
    fingerprint: intent.fingerprint,
    status,
    expiresAt: intent.expiresAt,
  };
  let record = base;
  if (bytes > MAX_KEPT_BYTES) record = { ...base, truncatedBytes: bytes };
  else if (json !== undefined) record = { ...base, sealed: sealAnswer(intent.keys, status, json) };
  return { keyId: intent.keyId, idemKey: intent.keys.slot, record };
}

/** What a replay answers for a kept record (null: the sealed answer did not open). */
function replayBody(prior: IdempotencyRecord, keys: ReplayKeys): unknown {
  if (prior.truncatedBytes !== undefined) {
    return {
      ok: true,
      idempotentReplay: true,
      message: `The change was made once; its answer (${prior.truncatedBytes} bytes) was too large to keep for a replay`,
    };
  }
  if (prior.withheld) {
    return {
      ok: true,
      idempotentReplay: true,
      message:
        'The change was made once; its answer was kept by an earlier version and is not repeated',
    };
  }
  return prior.sealed === undefined ? undefined : openAnswer(keys, prior.status, prior.sealed);
}

const STILL_RUNNING = 'A request with this Idempotency-Key is still being processed';

/** Whose answers a request's Idempotency-Key is scoped to, and the secret they seal under. */
export interface IdempotencyScope {
  /** An API key's id, or another caller's own namespace (`display:<id>`). */
  keyId: string;
  /** The caller's secret: never a public value (docs in replaySeal.ts). */
  secret: string;
}

/** A kept answer, to be sent again with `Idempotent-Replayed: true`. */
export interface Replay {
  status: number;
  body: unknown;
}

/** What a request with an Idempotency-Key finds: its kept answer, or the way to keep one. */
export type IdempotencyOpening =
  | { replay: Replay }
  | {
      intent: IdempotencyIntent;
      /** Must be called when the request ends. */
      close: () => void;
      /** The replay of a record the family actor found after all (`repeatOf`); 422 may throw. */
      repeat: (prior: IdempotencyRecord) => Replay;
    };

/**
 * The Idempotency-Key rules for any caller: a kept answer is replayed (422 when the key came
 * with another request), a request still running under the same key is refused (409), else
 * the request goes on with an intent to keep its answer; `close` must be called when it ends.
 * The REST middleware below scopes keys to the API key; a display's actions to the display.
 * The look at the store here is a fast path: the family actor decides for certain (`repeatOf`).
 */
export type IdempotencyGate = (
  ctx: Koa.Context,
  scope: IdempotencyScope,
  idemKey: string,
) => IdempotencyOpening;

export function idempotencyGate(
  store: Pick<IdempotencyRecords, 'getIdempotency'>,
  now: () => Date,
): IdempotencyGate {
  const inFlight = new Set<string>();
  return (ctx: Koa.Context, scope: IdempotencyScope, idemKey: string): IdempotencyOpening => {
    if (!KEY.test(idemKey))
      throw Invalid.at(['header', 'Idempotency-Key'], 'must be 1 to 255 visible ASCII characters');
    const { keyId, secret } = scope;
    const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
    const keys = replayKeys(secret, keyId, idemKey);
    const fingerprint = fingerprintOf(keys, ctx.method, ctx.path, raw);
    const slot = `${keyId}\u0000${keys.slot}`;
    if (inFlight.has(slot)) throw new DoorError('in_progress', STILL_RUNNING);
    const repeat = (prior: IdempotencyRecord): Replay => {
      // Records from before sealing kept the request's plain SHA-256 (see IdempotencyRecord).
      const expected = prior.withheld
        ? createHash('sha256').update(`${ctx.method} ${ctx.path}\n${raw}`).digest('hex')
        : fingerprint;
      if (prior.fingerprint !== expected) {
        throw new DoorError(
          'idempotency_mismatch',
          'This Idempotency-Key was used with a different request',
        );
      }
      const body = replayBody(prior, keys);
      if (body === null) throw new Error('a kept idempotent answer did not open with its own keys');
      return { status: prior.status, body };
    };
    const prior = store.getIdempotency(keyId, keys.slot, now().getTime());
    if (prior) return { replay: repeat(prior) };
    inFlight.add(slot);
    const expiresAt = now().getTime() + IDEMPOTENCY_TTL_MS;
    return {
      intent: { keyId, fingerprint, expiresAt, keys },
      close: () => inFlight.delete(slot),
      repeat,
    };
  };
}

/** How the family actor keeps an answer under the intent's key (src/family/repeats.ts). */
export function keptUnder<A>(
  intent: IdempotencyIntent,
  keep: (answer: A) => IdempotencyWrite | null,
  repeatCheck = true,
): KeptAnswer<A> {
  return { keyId: intent.keyId, slot: intent.keys.slot, repeatCheck, keep };
}

/**
 * What the family actor's verdict on a repeat answers (src/family/repeats.ts): the kept answer
 * of AnsweredBefore (or 422), 409 for AnswerInFlight; null for any other error.
 */
export function repeatOf(
  err: unknown,
  opened: Extract<IdempotencyOpening, { intent: IdempotencyIntent }>,
): Replay | null {
  if (err instanceof AnsweredBefore) return opened.repeat(err.record);
  if (err instanceof AnswerInFlight) throw new DoorError('in_progress', STILL_RUNNING);
  return null;
}

function sendReplay(ctx: Koa.Context, replay: Replay): void {
  ctx.status = replay.status;
  ctx.body = replay.body;
  ctx.set('Idempotent-Replayed', 'true');
}

/**
 * The REST middleware. `ready` waits until this process may run the family (on a cluster node:
 * the takeover caught its copy up with the family's log), so that the store the gate then
 * looks at holds every answer the log holds — a repeat is answered before its handler reads
 * anything (a handler that refuses a taken name first would otherwise answer a retry 409).
 * The authority is the family actor, which checks again where the write is decided, against
 * the batch in flight too; its verdict is answered here the same way.
 */
export function idempotency(
  store: Pick<IdempotencyRecords, 'getIdempotency'>,
  now: () => Date,
  ready: (family: FamilyInfo) => Promise<unknown> = () => Promise.resolve(),
): DoorMiddleware {
  const gate = idempotencyGate(store, now);
  // Most writes carry no key: they pass on without an async frame of this middleware's.
  return (ctx, next) => {
    const idemKey = ctx.get('idempotency-key');
    if (!idemKey || ctx.method === 'GET' || ctx.method === 'HEAD') return next();
    return keyed(ctx, next, idemKey);
  };

  async function keyed(ctx: DoorContext, next: Koa.Next, idemKey: string): Promise<void> {
    // Authentication ran first. An API key seals under its secret part; a credential of
    // another kind (an OAuth access token a tool call of /mcp sends) is a secret as a whole,
    // stored only as a hash too, so it seals under itself. Never under a public value: no seal.
    const presented = ctx.get('x-api-key');
    const secret = apiKeySecret(presented) ?? presented;
    if (!secret)
      throw new Error("an idempotent answer can only be sealed under the caller's secret");
    await ready(ctx.state.caller!.family);
    const opened = gate(ctx, { keyId: ctx.state.caller!.keyId, secret }, idemKey);
    if ('replay' in opened) return sendReplay(ctx, opened.replay);
    ctx.state.idempotency = opened.intent;
    try {
      await next();
    } catch (err) {
      const replay = repeatOf(err, opened);
      if (!replay) throw err;
      sendReplay(ctx, replay);
    } finally {
      opened.close();
    }
  }
}
