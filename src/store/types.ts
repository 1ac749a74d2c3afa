import type { Caller, AgendaJob, FamilyInfo } from '../domain/shared/state.js';
import type { LoggedEventType } from '../domain/shared/events.js';

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
}

export interface ChangeRecord {
  /** `event_…`: minted when the command is decided; the webhook id of this change. */
  id: string;
  seq: number;
  at: string;
  type: LoggedEventType;
  actor: Pick<Caller, 'keyId' | 'personId'>;
  object: unknown;
  previous?: unknown;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  /** The answer's body; absent when it was larger than what is kept (see `truncatedBytes`). */
  body?: unknown;
  /** Size of an answer too large to keep; a replay then says so instead of repeating it. */
  truncatedBytes?: number;
  expiresAt: number;
}

/** An idempotent request's answer, written in the same transaction as the change it made. */
export interface IdempotencyWrite {
  keyId: string;
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
