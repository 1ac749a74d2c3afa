/**
 * What the door core keeps on a request while it is served (Koa's `ctx.state`, typed): who is
 * calling, the request's id, its family, its Idempotency-Key intent, the door it is under.
 */
import type Koa from 'koa';
import type { FamilyInfo } from '../domain/shared/state.js';
import type { Caller } from './credentials.js';
import type { ReplayKeys } from './replaySeal.js';

export interface DoorState {
  /** The request's id (x-request-id, or made here): every log line and answer carries it. */
  requestId?: string;
  /** Who is calling, once their credential is verified. */
  caller?: Caller;
  /** The family the request is for, once checked against the caller (request log, handlers). */
  family?: FamilyInfo;
  /** The request's Idempotency-Key, once checked: its answer is kept with its change. */
  idempotency?: IdempotencyIntent;
  /** The name of the door whose path the request is under (the error boundary's form). */
  door?: string;
  /** A request another cluster node forwarded here: that node's name (never forwarded again). */
  forwardedBy?: string;
  /** An unexpected error, for the request log (answered as `internal`). */
  error?: unknown;
}

export type DoorContext = Koa.ParameterizedContext<DoorState>;
export type DoorMiddleware = Koa.Middleware<DoorState>;

/** What the handler needs to keep its answer; set on `ctx.state.idempotency` (idempotency.ts). */
export interface IdempotencyIntent {
  keyId: string;
  fingerprint: string;
  expiresAt: number;
  /** Where the answer is kept and the keys that seal it (never stored). */
  keys: ReplayKeys;
}
