/**
 * API keys: `hk_<keyId>_<secret>`, keyId 12 and secret 32 base62 characters (docs/api.md).
 * Only the SHA-256 of the secret is stored; verification compares hashes in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Directory } from '../store/ports.js';
import type { ApiKeyRecord, Scope } from '../store/types.js';
import { hashSecret, randomBase62 } from './secrets.js';

// The key checks the HTTP layer uses, under the names they always had here.
export { hasScope, SCOPES } from './scopes.js';

const KEY_FORMAT = /^hk_([0-9A-Za-z]{12})_([0-9A-Za-z]{32})$/;

/** The key record for a presented key, or null (malformed, unknown, wrong secret, revoked). */
export function verifyApiKey(
  store: Pick<Directory, 'getKey'>,
  presented: string,
): ApiKeyRecord | null {
  const m = KEY_FORMAT.exec(presented);
  if (!m) return null;
  const record = store.getKey(m[1]);
  const actual = Buffer.from(hashSecret(m[2]), 'hex');
  // Compare against a dummy when the key is unknown so timing does not tell which part failed.
  const expected = record ? Buffer.from(record.secretHash, 'hex') : Buffer.alloc(32);
  const same = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (!record || !same || record.revokedAt) return null;
  return record;
}

/**
 * The key id of a presented key, without checking its secret (the cluster's front finds the
 * family to forward to by it; the owner checks the key), or null when it is not shaped like one.
 */
export function keyIdOf(presented: string): string | null {
  return KEY_FORMAT.exec(presented)?.[1] ?? null;
}

/** The secret part of a presented key (what derives its idempotent answers' keys), or null. */
export function apiKeySecret(presented: string): string | null {
  return KEY_FORMAT.exec(presented)?.[2] ?? null;
}

export interface NewKey {
  record: ApiKeyRecord;
  apiKey: string;
}

export function makeKey(
  familyId: string,
  opts: { name: string; scopes: Scope[]; personId: string | null },
  now: Date,
): NewKey {
  const id = randomBase62(12);
  const secret = randomBase62(32);
  return {
    record: {
      id,
      familyId,
      name: opts.name,
      scopes: [...new Set(opts.scopes)],
      personId: opts.personId,
      secretHash: hashSecret(secret),
      createdAt: now.toISOString(),
      revokedAt: null,
      lastUsedAt: null,
    },
    apiKey: `hk_${id}_${secret}`,
  };
}

/** A key as listings show it: the record without its secret's hash. */
export function keyWithoutHash(
  k: ApiKeyRecord,
): Omit<ApiKeyRecord, 'secretHash' | 'familyId'> & { familyId: string } {
  const { secretHash: _hash, ...rest } = k;
  return rest;
}
