import type { AgendaJob, FamilyInfo } from '../domain/shared/state.js';

export type Scope = 'read' | 'write' | 'admin';

export interface ApiKeyRecord {
  id: string;
  familyId: string;
  name: string;
  scopes: Scope[];
  personId: string | null;
  /** Hex SHA-256 of the secret part; the plaintext is never stored. */
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /**
   * What the key is for (absent: an API key made by the CLI or the first start). `device`: a
   * phone or computer added on the pages or `POST …/devices`; `session`: a browser signed in to
   * the household pages (the `ho_session` cookie holds `hs_<id>_<secret>`, no API key: only the
   * pages door takes it); `link`: a one-time sign-in link of
   * `household-organizer open`; `setup`: the first-run setup code of a family never set up.
   * Sessions, links and setup codes are no API key: REST, CalDAV and MCP refuse them.
   */
  kind?: 'device' | 'session' | 'link' | 'setup';
  /** When it stops working (sessions slide, links and setup codes do not); absent: never. */
  expiresAt?: string | null;
  /**
   * A device's pairing link (`/pair/<keyId>.<token>`), until its profile is downloaded or it
   * expires: the token's hash, and the device's key sealed with a key derived from the token.
   */
  pairing?: { tokenHash: string; sealed: string; expiresAt: string } | null;
  /**
   * A session's source: the id of the API key or device it was signed in with. The session ends
   * when that key is revoked (in the same write) and is refused whenever it is not live. Absent
   * or null: a session of a sign-in link or the first-run setup, which have no lasting source.
   */
  derivedFrom?: string | null;
}

/**
 * One record of a family's change log: its `id` (`event_…`) is minted when the command is
 * decided and is the webhook id of the change; its `actor` has `grantId` only when an
 * assistant's OAuth grant made the change, `displayId` only when a family display's page did.
 * Described once with its JSON Schema, in src/domain/shared/changeRecord.ts.
 */
export type { ChangeRecord } from '../domain/shared/changeRecord.js';

/** What the OAuth door (src/oauth) keeps: registered clients, grants, codes and tokens. */
export type OAuthKind = 'client' | 'grant' | 'code' | 'token';

/** One OAuth record to put (`value`) or remove (`null`). */
/** `value` null removes the record. */
export interface OAuthWrite {
  kind: OAuthKind;
  id: string;
  value: unknown;
}

/**
 * An idempotent request's kept answer, under `['idem', keyId, SHA-256 of the Idempotency-Key]`.
 * The fingerprint is an HMAC and the answer sealed (AES-256-GCM), both under keys derived from
 * the caller's API key secret and Idempotency-Key (src/door/replaySeal.ts): a copy
 * of the store can neither read the answer nor match it to a request.
 */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  /** The sealed answer; absent when there was no body or it was too large to keep. */
  sealed?: string;
  /**
   * Plaintext answer of a store written before answers were sealed; removed when such a store
   * is opened (see `withheld`), so it is never read by this version.
   */
  body?: unknown;
  /**
   * A record from before answers were sealed, whose plaintext answer was dropped when the
   * store was opened: its fingerprint is the plain SHA-256 of the request, and a replay says
   * the change was made once without repeating the answer.
   */
  withheld?: true;
  /** Size of an answer too large to keep; a replay then says so instead of repeating it. */
  truncatedBytes?: number;
  expiresAt: number;
}

/** An idempotent request's answer, written in the same transaction as the change it made. */
export interface IdempotencyWrite {
  keyId: string;
  /** Hex SHA-256 of the Idempotency-Key: the key itself is never stored. */
  idemKey: string;
  record: IdempotencyRecord;
}

import type { FamilyPatch } from '../domain/family/settings.js';
export type { FamilyPatch };

/** A family update the CLI queued for the daemon (or the next load of the family). */
export interface QueuedFamilyUpdate {
  id: string;
  familyId: string;
  patch: FamilyPatch;
  queuedAt: string;
}

/** A job on the durable agenda, as stored (the family is part of the key). */
export type StoredAgendaJob<J = AgendaJob> = J & { familyId: string };

export type { FamilyInfo };

/**
 * A `family update` queued over one still queued: the newer patch wins field by field. The LMDB
 * directory writes it; a cluster node computes the same answer before its entry is applied.
 */
export function mergeQueuedUpdate(
  before: QueuedFamilyUpdate | undefined,
  familyId: string,
  patch: FamilyPatch,
  id: string,
  at: string,
): QueuedFamilyUpdate {
  return { id, familyId, patch: { ...before?.patch, ...patch }, queuedAt: at };
}
