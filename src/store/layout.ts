/**
 * The LMDB key layout (docs/storage.md explains it). Keys are arrays encoded by lmdb-js's
 * ordered-binary, so ranges over a prefix are cheap and come back in order.
 */
export const SCHEMA_VERSION = 1;

export const keys = {
  schemaVersion: () => ['meta', 'schemaVersion'],
  /** Bumped by every key creation or revocation: lets the daemon cache verified keys safely. */
  keysVersion: () => ['meta', 'keysVersion'],
  family: (familyId: string) => ['family', familyId],
  familyRangeStart: () => ['family', ''],
  familyRangeEnd: () => ['family', '\uffff'],
  slug: (slug: string) => ['slug', slug],
  apiKey: (keyId: string) => ['key', keyId],
  apiKeyRangeStart: () => ['key', ''],
  apiKeyRangeEnd: () => ['key', '\uffff'],
  record: (familyId: string, table: string, id: string) => ['rec', familyId, table, id],
  recordRangeStart: (familyId: string) => ['rec', familyId, ''],
  recordRangeEnd: (familyId: string) => ['rec', familyId, '\uffff'],
  log: (familyId: string, seq: number) => ['log', familyId, seq],
  logRangeStart: (familyId: string, afterSeq: number) => ['log', familyId, afterSeq + 1],
  logRangeEnd: (familyId: string) => ['log', familyId, Number.MAX_SAFE_INTEGER],
  index: (index: string, key: string) => ['idx', index, key],
  idempotency: (keyId: string, idemKey: string) => ['idem', keyId, idemKey],
  idempotencyRangeStart: () => ['idem', ''],
  idempotencyRangeEnd: () => ['idem', '\uffff'],
} as const;
