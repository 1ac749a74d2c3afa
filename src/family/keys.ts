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
/** A browser session of the household pages: its own shape, so no door mistakes it for a key. */
const SESSION_FORMAT = /^hs_([0-9A-Za-z]{12})_([0-9A-Za-z]{32})$/;

/** At most this many live sessions per key or device: a new one ends the oldest. */
export const SESSIONS_PER_KEY = 10;

/**
 * The key record for a presented key, or null (malformed, unknown, wrong secret, revoked,
 * expired, or a sign-in link or setup code: those open only the household pages).
 */
export function verifyApiKey(
  store: Pick<Directory, 'getKey'>,
  presented: string,
): ApiKeyRecord | null {
  const record = matchKey(store, presented);
  // A session is no API key, even presented as `hk_<its id>_<its secret>`.
  if (!record || record.kind === 'link' || record.kind === 'setup' || record.kind === 'session')
    return null;
  // The wall clock: a session's end is checked on the injected clock by the pages first.
  if (record.expiresAt && Date.parse(record.expiresAt) <= Date.now()) return null;
  return record;
}

/** The unrevoked record whose id and secret hash match the presented `hk_<id>_<secret>`. */
export function matchKey(store: Pick<Directory, 'getKey'>, presented: string): ApiKeyRecord | null {
  return matchFormat(store, KEY_FORMAT, presented);
}

/** The unrevoked session record of a presented `hs_<id>_<secret>` (its end is not checked). */
export function matchSession(
  store: Pick<Directory, 'getKey'>,
  presented: string,
): ApiKeyRecord | null {
  const s = matchFormat(store, SESSION_FORMAT, presented);
  return s?.kind === 'session' ? s : null;
}

function matchFormat(
  store: Pick<Directory, 'getKey'>,
  format: RegExp,
  presented: string,
): ApiKeyRecord | null {
  const m = format.exec(presented);
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
  return (KEY_FORMAT.exec(presented) ?? SESSION_FORMAT.exec(presented))?.[1] ?? null;
}

/** Whether a presented text is shaped like a session (`hs_…`), not a key. */
export function isSessionText(presented: string): boolean {
  return SESSION_FORMAT.test(presented);
}

/** The secret part of a presented key (what derives its idempotent answers' keys), or null. */
export function apiKeySecret(presented: string): string | null {
  return KEY_FORMAT.exec(presented)?.[2] ?? null;
}

export interface NewKey {
  record: ApiKeyRecord;
  apiKey: string;
}

/** A new session record and its cookie text (`hs_<id>_<secret>`). */
export function makeSession(
  familyId: string,
  opts: { name: string; scopes: Scope[]; personId: string | null; derivedFrom: string | null },
  now: Date,
  expiresAt: string,
): NewKey {
  const made = makeKey(familyId, opts, now);
  return {
    record: { ...made.record, kind: 'session', expiresAt, derivedFrom: opts.derivedFrom },
    apiKey: made.apiKey.replace(/^hk_/, 'hs_'),
  };
}

/**
 * A key revoked with every session signed in with it, in one write (a session never outlives
 * its source); its pairing link ends too. Unknown or another family's key → null; already
 * revoked → the record as it is.
 */
export function revokeWithSessions(
  store: Pick<Directory, 'listKeys' | 'transactKeys'>,
  familyId: string | null,
  keyId: string,
  now: Date,
): Promise<{ key: ApiKeyRecord; already: boolean } | null> {
  const derived = store
    .listKeys(familyId ?? undefined)
    .filter((k) => k.derivedFrom === keyId)
    .map((k) => k.id);
  const at = now.toISOString();
  return store.transactKeys<{ key: ApiKeyRecord; already: boolean } | null>((read) => {
    const key = read(keyId);
    if (!key || (familyId !== null && key.familyId !== familyId))
      return { writes: [], result: null };
    if (key.revokedAt) return { writes: [], result: { key, already: true } };
    const revoked = { ...key, revokedAt: at, pairing: null };
    const sessions = derived
      .map(read)
      .filter((k): k is ApiKeyRecord => !!k && !k.revokedAt)
      .map((k) => ({ ...k, revokedAt: at }));
    return { writes: [revoked, ...sessions], result: { key: revoked, already: false } };
  });
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
