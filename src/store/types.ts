import type { ActorRef, FamilyInfo } from '../domain/shared/state.js';
import type { EventType } from '../domain/shared/events.js';

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
  seq: number;
  at: string;
  type: EventType;
  actor: Pick<ActorRef, 'keyId' | 'personId'>;
  object: unknown;
  previous?: unknown;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: unknown;
  expiresAt: number;
}

export type { FamilyInfo };
