/**
 * The store on a fresh LMDB folder per test: one batch commits together or not at all, the
 * agenda moves and removes jobs by id, checkpoints are kept per consumer, idempotency answers
 * expire through their index in bounded passes, and the memory map grows past its initial size.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { Store, STORE_FILE } from '../../src/store/store.js';
import type { ChangeRecord } from '../../src/store/types.js';
import { tempDataDir } from '../helpers/server.js';
import type { AgendaJob } from '../../src/domain/shared/state.js';

const FAM = 'fam_test';

function logRecord(seq: number): ChangeRecord {
  return {
    id: `event_${String(seq).padStart(20, '0')}`,
    seq,
    at: '2026-11-24T00:00:00.000Z',
    type: 'person.created',
    actor: { keyId: null, personId: null },
    object: { seq },
  };
}

describe('Store', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = tempDataDir();
    store = Store.open(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits records, log, indexes, agenda, checkpoints and idempotency answers of one batch together', async () => {
    await store.commit(FAM, {
      records: [{ table: 'people', id: 'p1', value: { id: 'p1' } }],
      log: [logRecord(1)],
      indexes: [{ index: 'share-token', key: 'h1', familyId: FAM }],
      agenda: [{ put: { id: 'job1', kind: 'test', dueAt: 1_000 } as unknown as AgendaJob }],
      checkpoints: [{ consumer: 'webhooks', seq: 1 }],
      idempotency: [
        {
          keyId: 'k',
          idemKey: 'i',
          record: { fingerprint: 'f', status: 201, body: { ok: true }, expiresAt: 5_000 },
        },
      ],
    });
    expect(store.getRecord(FAM, 'people', 'p1')).to.deep.equal({ id: 'p1' });
    expect(store.readLog(FAM, 0, 10).map((r) => r.seq)).to.deep.equal([1]);
    expect(store.lastSeq(FAM)).to.equal(1);
    expect(store.lookupIndex('share-token', 'h1')).to.equal(FAM);
    expect(store.dueJobs(1_000, 10).map((j) => [j.id, j.familyId])).to.deep.equal([['job1', FAM]]);
    expect(store.getCheckpoint('webhooks', FAM)).to.equal(1);
    expect(store.getIdempotency('k', 'i', 0)).to.include({ status: 201 });
  });

  it('writes nothing of a batch whose guard refuses it', async () => {
    let err: unknown;
    try {
      await store.commit(
        FAM,
        { records: [{ table: 'people', id: 'p2', value: { id: 'p2' } }], log: [logRecord(1)] },
        () => false,
      );
    } catch (e) {
      err = e;
    }
    expect(err).to.be.an('error');
    expect(store.getRecord(FAM, 'people', 'p2')).to.equal(undefined);
    expect(store.lastSeq(FAM)).to.equal(0);
  });

  it('refuses a batch whose expected last seq is not where the log ends, and keeps the other batches', async () => {
    await store.commit(FAM, { log: [logRecord(1)], expectedLastSeq: 0 });
    const stale = store.commit(FAM, {
      records: [{ table: 'people', id: 'p3', value: { id: 'p3' } }],
      log: [logRecord(2)],
      expectedLastSeq: 0,
    });
    const other = store.commit('fam_other', { log: [logRecord(1)], expectedLastSeq: 0 });
    let err: unknown;
    try {
      await stale;
    } catch (e) {
      err = e;
    }
    await other;
    expect(err).to.be.an('error').with.property('message').that.includes('ends at 1');
    expect(store.getRecord(FAM, 'people', 'p3')).to.equal(undefined);
    expect(store.lastSeq(FAM)).to.equal(1);
    expect(store.lastSeq('fam_other')).to.equal(1);
  });

  it('refuses a batch that expects the log to end before or after where it ends, and takes one that is right', async () => {
    await store.commit(FAM, { log: [logRecord(1), logRecord(2)], expectedLastSeq: 0 });
    const refusal = (expectedLastSeq: number) =>
      store.commit(FAM, { log: [logRecord(expectedLastSeq + 1)], expectedLastSeq }).then(
        () => null,
        (e: unknown) => (e as Error).message,
      );
    expect(await refusal(1)).to.include('ends at 2, not at 1');
    expect(await refusal(3)).to.include('ends at 2, not at 3');
    expect(await refusal(0)).to.include('ends at 2, not at 0');
    expect(store.lastSeq(FAM)).to.equal(2);
    expect(await refusal(2)).to.equal(null);
    expect(store.lastSeq(FAM)).to.equal(3);
  });

  it('moves a job put again with the same id, removes it by id, and orders due jobs by time', async () => {
    await store.commit(FAM, {
      agenda: [
        { put: { id: 'a', kind: 'k', dueAt: 3_000 } as unknown as AgendaJob },
        { put: { id: 'b', kind: 'k', dueAt: 2_000 } as unknown as AgendaJob },
      ],
    });
    expect(store.earliestDue()).to.equal(2_000);
    await store.commit(FAM, {
      agenda: [
        {
          put: { id: 'b', kind: 'k', dueAt: 4_000, data: { moved: true } } as unknown as AgendaJob,
        },
      ],
    });
    expect(store.dueJobs(10_000, 10).map((j) => `${j.id}@${j.dueAt}`)).to.deep.equal([
      'a@3000',
      'b@4000',
    ]);
    expect(store.getJob(FAM, 'b')).to.include({ dueAt: 4_000 });
    expect(store.dueJobs(3_500, 10).map((j) => j.id)).to.deep.equal(['a']);
    await store.commit(FAM, { agenda: [{ remove: 'a' }, { remove: 'never-there' }] });
    expect(store.familyJobs(FAM).map((j) => j.id)).to.deep.equal(['b']);
    expect(store.earliestDue()).to.equal(4_000);
  });

  it('sweeps expired idempotency answers in bounded passes, leaving live ones and keys reused later', async () => {
    const writes = Array.from({ length: 1_200 }, (_, i) => ({
      keyId: 'k',
      idemKey: `old-${i}`,
      record: { fingerprint: 'f', status: 201, expiresAt: 1_000 + i },
    }));
    await store.commit(FAM, {
      idempotency: [
        ...writes,
        {
          keyId: 'k',
          idemKey: 'live',
          record: { fingerprint: 'f', status: 201, expiresAt: 1_000_000 },
        },
      ],
    });
    // old-0 was reused after it expired: its newer answer must survive the old expiry entry.
    await store.commit(FAM, {
      idempotency: [
        {
          keyId: 'k',
          idemKey: 'old-0',
          record: { fingerprint: 'g', status: 200, expiresAt: 900_000 },
        },
      ],
    });
    const passes: number[] = [];
    for (;;) {
      const n = await store.sweepIdempotency(10_000, 500);
      passes.push(n);
      if (n === 0) break;
    }
    expect(passes).to.deep.equal([500, 500, 200, 0]);
    expect(store.getIdempotency('k', 'old-1', 0)).to.equal(undefined);
    expect(store.getIdempotency('k', 'live', 0)).to.include({ status: 201 });
    expect(store.getIdempotency('k', 'old-0', 0)).to.include({ fingerprint: 'g' });
  });

  it('drops the plaintext answers of a store written before answers were sealed, keeping their retries recognized', async () => {
    await store.close();
    // A store as the earlier version left it: the answer under the plain Idempotency-Key.
    const legacy = openLmdb({ path: join(dir, STORE_FILE) });
    await legacy.transaction(() => {
      void legacy.remove(['meta', 'idempotencySealed']);
      void legacy.put(['idem', 'k', 'retry-me-7'], {
        fingerprint: 'f',
        status: 201,
        body: { token: 'shr_plaintextTokenOfOld' },
        expiresAt: 5_000,
      });
      void legacy.put(['idemExp', 5_000, 'k', 'retry-me-7'], 1);
    });
    await legacy.close();
    store = Store.open(dir);
    const slot = createHash('sha256').update('retry-me-7').digest('hex');
    expect(store.getIdempotency('k', 'retry-me-7', 0)).to.equal(undefined);
    expect(store.getIdempotency('k', slot, 0)).to.deep.equal({
      fingerprint: 'f',
      status: 201,
      expiresAt: 5_000,
      withheld: true,
    });
    // The expiry index follows the move: the sweep removes it when it expires.
    expect(await store.sweepIdempotency(10_000)).to.equal(1);
    expect(store.getIdempotency('k', slot, 0)).to.equal(undefined);
  });

  it('grows its memory map past the initial size instead of failing', async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    store = Store.open(dir, { mapSizeBytes: 1024 * 1024 });
    const big = 'x'.repeat(50_000);
    for (let i = 0; i < 60; i++) {
      await store.commit(FAM, { records: [{ table: 'blobs', id: `b${i}`, value: { big } }] });
    }
    expect(Array.from(store.familyRecords(FAM))).to.have.length(60);
  });

  it('refuses to open a store written by a newer schema version', async () => {
    const { open: openLmdb } = await import('lmdb');
    const { keys } = await import('../../src/store/layout.js');
    await store.close();
    const raw = openLmdb({ path: store.path });
    raw.putSync(keys.schemaVersion(), 99);
    await raw.close();
    expect(() => Store.open(dir)).to.throw(/schema version 99/);
    store = Store.open(tempDataDir());
  });
});
