/**
 * Opening a store written before idempotent answers were sealed: its kept answers are stored
 * under the plain Idempotency-Key with their plaintext body (which may hold a credential shown
 * once). They cannot be sealed — that needs the caller's API key secret, which the store never
 * had — so, once, in one transaction, each is moved under the SHA-256 of its Idempotency-Key
 * and its body dropped (`withheld`): a retry is still recognized and answered "made once", and
 * nothing a copy of the store holds from then on shows the answer.
 */
import { createHash } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { keys } from '../layout.js';
import type { IdempotencyRecord } from '../types.js';

const MARKER = ['meta', 'idempotencySealed'];

export function sealOlderIdempotencyRecords(db: RootDatabase): void {
  if (db.get(MARKER)) return;
  db.transactionSync(() => {
    const older: { keyId: string; idemKey: string; record: IdempotencyRecord }[] = [];
    for (const { key, value } of db.getRange({ start: ['idem', ''], end: ['idem', '\uffff'] })) {
      const k = key as [string, string, string];
      older.push({ keyId: k[1], idemKey: k[2], record: value as IdempotencyRecord });
    }
    for (const { keyId, idemKey, record } of older) {
      const slot = createHash('sha256').update(idemKey).digest('hex');
      void db.remove(keys.idempotency(keyId, idemKey));
      void db.remove(keys.idempotencyExpiry(record.expiresAt, keyId, idemKey));
      const kept: IdempotencyRecord = {
        fingerprint: record.fingerprint,
        status: record.status,
        expiresAt: record.expiresAt,
        withheld: true,
      };
      void db.put(keys.idempotency(keyId, slot), kept);
      void db.put(keys.idempotencyExpiry(record.expiresAt, keyId, slot), 1);
    }
    void db.put(MARKER, true);
  });
}
