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

/**
 * The key record for a presented key, or null (malformed, unknown, wrong secret, revoked,
 * expired, or a sign-in link or setup code: those open only the household pages).
 */
export function verifyApiKey(
  store: Pick<Directory, 'getKey'>,
  presented: string,
): ApiKeyRecord | null {
  const record = matchKey(store, presented);
  if (!record || record.kind === 'link' || record.kind === 'setup') return null;
  // The wall clock: a session's end is checked on the injected clock by the pages first.
  if (record.expiresAt && Date.parse(record.expiresAt) <= Date.now()) return null;
  return record;
}

/** The unrevoked record whose id and secret hash match the presented `hk_<id>_<secret>`. */
export function matchKey(store: Pick<Directory, 'getKey'>, presented: string): ApiKeyRecord | null {
  const m = KEY_FORMAT.exec(presented);
  if (!m) return null;
  const record = store.getKey(m[1]);
  // Compare against a dummy when the key is unknown so timing does not tell which part failed.
  const same = sameHash(record?.secretHash, m[2]);
  if (!record || !same || record.revokedAt) return null;
  return record;
}

/** Whether `secret` hashes to `expectedHex`, in constant time (false when there is none). */
export function sameHash(expectedHex: string | undefined, secret: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = expectedHex ? Buffer.from(expectedHex, 'hex') : Buffer.alloc(32);
  return (
    expected.length === actual.length &&
    timingSafeEqual(expected, actual) &&
    expectedHex !== undefined
  );
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
