/**
 * The LMDB key layout (docs/storage.md explains it). Keys are arrays encoded by lmdb-js's
 * ordered-binary, so ranges over a prefix are cheap and come back in order.
 */
export const SCHEMA_VERSION = 1;

/** Sorts after every string an id or a name can hold. */
const END = '\uffff';

export const keys = {
  schemaVersion: () => ['meta', 'schemaVersion'],
  /** Bumped by every key creation or revocation: lets the daemon cache verified keys safely. */
  keysVersion: () => ['meta', 'keysVersion'],
  /** Bumped whenever the CLI queues a family update, so the daemon polls one number. */
  familyUpdatesVersion: () => ['meta', 'familyUpdatesVersion'],
  family: (familyId: string) => ['family', familyId],
  /** A family update the CLI queued for the family's actor (one per family, merged). */
  familyUpdate: (familyId: string) => ['familyUpdate', familyId],
  familyUpdateRangeStart: () => ['familyUpdate', ''],
  familyUpdateRangeEnd: () => ['familyUpdate', END],
  familyRangeStart: () => ['family', ''],
  familyRangeEnd: () => ['family', END],
  slug: (slug: string) => ['slug', slug],
  apiKey: (keyId: string) => ['key', keyId],
  apiKeyRangeStart: () => ['key', ''],
  apiKeyRangeEnd: () => ['key', END],
  record: (familyId: string, table: string, id: string) => ['rec', familyId, table, id],
  recordRangeStart: (familyId: string) => ['rec', familyId, ''],
  recordRangeEnd: (familyId: string) => ['rec', familyId, END],
  log: (familyId: string, seq: number) => ['log', familyId, seq],
  logRangeStart: (familyId: string, afterSeq: number) => ['log', familyId, afterSeq + 1],
  logRangeEnd: (familyId: string) => ['log', familyId, Number.MAX_SAFE_INTEGER],
  index: (index: string, key: string) => ['idx', index, key],
  indexRangeStart: () => ['idx', ''],
  indexRangeEnd: () => ['idx', END],
  idempotency: (keyId: string, idemKey: string) => ['idem', keyId, idemKey],
  /** Idempotency records by expiry, so the sweep reads only what has expired. */
  idempotencyExpiry: (expiresAt: number, keyId: string, idemKey: string) => [
    'idemExp',
    expiresAt,
    keyId,
    idemKey,
  ],
  idempotencyExpiryRangeStart: () => ['idemExp', 0],
  idempotencyExpiryRangeEnd: (nowMs: number) => ['idemExp', nowMs, END],
  /** The durable agenda, by due time: a range from the start finds what is due. */
  agenda: (dueAt: number, familyId: string, jobId: string) => ['agenda', dueAt, familyId, jobId],
  agendaRangeStart: () => ['agenda', 0],
  agendaRangeEnd: (uptoMs: number) => ['agenda', uptoMs, END],
  /**
   * Where a family's job sits on the agenda (its due time), so it can be moved or removed by id.
   */
  agendaJob: (familyId: string, jobId: string) => ['agendaJob', familyId, jobId],
  agendaJobRangeStart: (familyId: string) => ['agendaJob', familyId, ''],
  agendaJobRangeEnd: (familyId: string) => ['agendaJob', familyId, END],
  /** OAuth credentials of assistants (src/oauth): clients, grants, codes, tokens; by kind and id. */
  oauth: (kind: string, id: string) => ['oauth', kind, id],
  oauthRangeStart: (kind: string) => ['oauth', kind, ''],
  oauthRangeEnd: (kind: string) => ['oauth', kind, END],
  /** How far a consumer of a family's change log (e.g. the webhook outbox) has read. */
  checkpoint: (consumer: string, familyId: string) => ['ckpt', consumer, familyId],
} as const;
