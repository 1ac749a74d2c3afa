/**
 * Kept answers of idempotent requests in LMDB, with an expiry index so that sweeping costs
 * what expired, not what is kept. Records are written by commits (commits.ts).
 */
import { keys } from '../layout.js';
import type { IdempotencyRecords } from '../ports.js';
import type { IdempotencyRecord } from '../types.js';
import type { LmdbEnv } from './env.js';

export class LmdbIdempotency implements IdempotencyRecords {
  constructor(private readonly env: LmdbEnv) {}

  getIdempotency(keyId: string, idemKey: string, nowMs: number): IdempotencyRecord | undefined {
    const r = this.env.db.get(keys.idempotency(keyId, idemKey)) as IdempotencyRecord | undefined;
    return r && r.expiresAt > nowMs ? r : undefined;
  }

  /**
   * Removes up to `batch` expired idempotency records (read through the expiry index, so the
   * cost follows what expired, not what is kept); returns how many it removed.
   */
  async sweepIdempotency(nowMs: number, batch = 500): Promise<number> {
    const expired: { exp: (string | number)[]; rec: string[]; expiresAt: number }[] = [];
    const range = {
      start: keys.idempotencyExpiryRangeStart(),
      end: keys.idempotencyExpiryRangeEnd(nowMs),
      limit: batch,
    };
    for (const { key } of this.env.db.getRange(range)) {
      const k = key as [string, number, string, string];
      expired.push({ exp: k, rec: keys.idempotency(k[2], k[3]), expiresAt: k[1] });
    }
    if (!expired.length) return 0;
    await this.env.write(() => {
      // The environment of this transaction: a write may wait for a reopen (env.ts).
      const db = this.env.db;
      for (const e of expired) {
        db.removeSync(e.exp);
        // A key reused after expiry has a newer record: leave that one alone.
        const r = db.get(e.rec) as IdempotencyRecord | undefined;
        if (r && r.expiresAt <= e.expiresAt) db.removeSync(e.rec);
      }
    });
    return expired.length;
  }

  /** Stores written before the expiry index existed: index their records once. */
  indexOlderRecords(): void {
    const db = this.env.db;
    const marker = ['meta', 'idempotencyExpiryIndexed'];
    if (db.get(marker)) return;
    db.transactionSync(() => {
      for (const { key, value } of db.getRange({ start: ['idem', ''], end: ['idem', '\uffff'] })) {
        const k = key as [string, string, string];
        db.putSync(keys.idempotencyExpiry((value as IdempotencyRecord).expiresAt, k[1], k[2]), 1);
      }
      db.putSync(marker, true);
    });
  }
}
