import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Store } from '../../src/store/store.js';
import { FamilyRegistry } from '../../src/family/registry.js';
import { areaReactions } from '../../src/domain/areas.js';
import { createFamily } from '../../src/family/admin.js';
import { createIdGenerator } from '../../src/domain/shared/ids.js';
import { Conflict } from '../../src/domain/shared/errors.js';
import { AnsweredBefore, AnswerInFlight } from '../../src/family/repeats.js';
import type { Command, FamilyInfo } from '../../src/domain/shared/state.js';
import { tempDataDir } from '../helpers/server.js';

/** A pure command that appends one record and one change-log record. */
function addProbe(label: string): Command<{ id: string }> {
  return (state, ctx) => {
    if (label === 'bad') throw new Conflict('bad label');
    const id = ctx.newId('ent');
    const value = { id, label, n: state.table('probe').size };
    return {
      result: { id },
      changes: [{ table: 'probe', id, value }],
      events: [{ type: 'tracker.entry.created', object: value }],
    };
  };
}

describe('family actor and store', () => {
  let dir: string;
  let store: Store;
  let family: FamilyInfo;
  const newId = createIdGenerator(
    () => Date.now(),
    (n) => randomBytes(n),
  );
  const deps = () => ({
    store,
    now: () => new Date(),
    newId,
    publicUrl: 'http://x',
    react: areaReactions(),
  });
  const actorRef = { keyId: 'k1', personId: null };

  beforeEach(async () => {
    dir = tempDataDir();
    store = Store.open(dir);
    family = (
      await createFamily(
        store,
        { slug: 'home' },
        { now: new Date(), newId, defaultTimezone: 'UTC' },
      )
    ).family;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits 1,000 writes from 50 in flight in mailbox order, all durable', async () => {
    const registry = new FamilyRegistry(deps(), { idleMs: 60_000, maxActive: 10 });
    const actor = await registry.get(family);
    const results: { id: string }[] = [];
    let next = 0;
    async function worker() {
      while (next < 1000) {
        const i = next++;
        // An await between taking the number and writing lets the 50 workers interleave.
        await new Promise((r) => setImmediate(r));
        results[i] = await actor.execute(addProbe(`w${i}`), actorRef);
      }
    }
    await Promise.all(Array.from({ length: 50 }, worker));
    await registry.shutdown();
    const log = store.readLog(family.id, 0, 2000);
    expect(log).to.have.length(1000);
    expect(log.map((r) => r.seq)).to.deep.equal(Array.from({ length: 1000 }, (_, i) => i + 1));
    // Ids are made in decide order, so the log's order is the mailbox order.
    const ids = log.map((r) => (r.object as { id: string }).id);
    expect(ids).to.deep.equal([...ids].sort());
    // Each record saw exactly the records decided before it.
    expect(log.map((r) => (r.object as { n: number }).n)).to.deep.equal(
      Array.from({ length: 1000 }, (_, i) => i),
    );
    expect(new Set(results.map((r) => r.id))).to.have.length(1000);
    // A fresh store handle (as after a restart) reads them all back.
    await store.close();
    store = Store.open(dir);
    const records = Array.from(store.familyRecords(family.id)).filter((r) => r.table === 'probe');
    expect(records).to.have.length(1000);
  });

  it('writes nothing when the decider refuses', async () => {
    const registry = new FamilyRegistry(deps(), { idleMs: 60_000, maxActive: 10 });
    const actor = await registry.get(family);
    await actor.execute(addProbe('ok'), actorRef);
    let err: unknown;
    try {
      await actor.execute(addProbe('bad'), actorRef);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(Conflict);
    expect(store.readLog(family.id, 0, 10)).to.have.length(1);
    expect(await actor.read((s) => s.table('probe').size)).to.equal(1);
    await registry.shutdown();
  });

  it('reloads evicted families from disk with their sequence', async () => {
    const registry = new FamilyRegistry(deps(), { idleMs: 0, maxActive: 10 });
    const actor = await registry.get(family);
    await actor.execute(addProbe('a'), actorRef);
    await actor.execute(addProbe('b'), actorRef);
    expect(registry.evictIdle(Date.now() + 1)).to.equal(1);
    expect(registry.activeCount).to.equal(0);
    const again = await registry.get(family);
    expect(again).to.not.equal(actor);
    expect(
      await again.read((s) => s.newestFirst<{ label: string }>('probe').map((p) => p.label)),
    ).to.deep.equal(['b', 'a']);
    await again.execute(addProbe('c'), actorRef);
    expect(store.readLog(family.id, 0, 10).map((r) => r.seq)).to.deep.equal([1, 2, 3]);
    await registry.shutdown();
  });

  it('keeps at most maxActive families, least recently used out first', async () => {
    const registry = new FamilyRegistry(deps(), { idleMs: 60_000, maxActive: 2 });
    const fams = [family];
    for (const slug of ['b', 'c'])
      fams.push(
        (await createFamily(store, { slug }, { now: new Date(), newId, defaultTimezone: 'UTC' }))
          .family,
      );
    await registry.get(fams[0]);
    await registry.get(fams[1]);
    await registry.get(fams[0]); // a is now the most recent
    await registry.get(fams[2]);
    await new Promise((r) => setImmediate(r));
    expect(registry.activeCount).to.equal(2);
    expect(registry.peek(fams[1].id)).to.equal(undefined);
    expect(registry.peek(fams[0].id)).to.not.equal(undefined);
    await registry.shutdown();
  });

  it('lets a read arriving during a commit see the state only once that commit is durable', async () => {
    const registry = new FamilyRegistry(deps(), { idleMs: 60_000, maxActive: 10 });
    const actor = await registry.get(family);
    const order: string[] = [];
    const write = actor.execute(addProbe('x'), actorRef).then(() => order.push('write durable'));
    // The command is decided and applied to memory at once; this read must still wait.
    const read = actor.read((s) => {
      order.push('read');
      return s.table('probe').size;
    });
    expect(order).to.deep.equal([]);
    const [, size] = await Promise.all([write, read]);
    expect(size).to.equal(1);
    expect(order).to.deep.equal(['read', 'write durable']);
    await registry.shutdown();
  });

  it('refuses to open a store with a newer schema version', async () => {
    const { keys } = await import('../../src/store/layout.js');
    const { open: openLmdb } = await import('lmdb');
    await store.close();
    const raw = openLmdb({ path: store.path });
    raw.putSync(keys.schemaVersion(), 99);
    await raw.close();
    expect(() => Store.open(dir)).to.throw(
      /schema version 99, newer than this program understands/,
    );
    store = Store.open(tempDataDir());
  });

  describe('a command carrying an Idempotency-Key', () => {
    const kept = (slot: string, repeatCheck = true) => ({
      keyId: 'k1',
      slot,
      repeatCheck,
      keep: (answer: { id: string }) => ({
        keyId: 'k1',
        idemKey: slot,
        record: { fingerprint: `fp-${answer.id}`, status: 201, expiresAt: Date.now() + 60_000 },
      }),
    });

    it('is not decided again once its answer is kept: the repeat gets the kept record', async () => {
      const registry = new FamilyRegistry(deps(), { idleMs: 60_000, maxActive: 10 });
      const actor = await registry.get(family);
      const first = await actor.execute(addProbe('once'), actorRef, { idempotency: kept('s1') });
      const again = await actor
        .execute(addProbe('once'), actorRef, { idempotency: kept('s1') })
        .then(
          () => expect.fail('a repeat must not be decided'),
          (err: unknown) => err,
        );
      expect(again).to.be.instanceOf(AnsweredBefore);
      expect((again as AnsweredBefore).record).to.include({ fingerprint: `fp-${first.id}` });
      // A later command of the same request (no repeat check) replaces the answer instead.
      await actor.execute(addProbe('settled'), actorRef, { idempotency: kept('s1', false) });
      await registry.shutdown();
      expect(store.readLog(family.id, 0, 10)).to.have.length(2);
    });

    it('refuses the second of two with one key in the same batch as still in flight, writing one', async () => {
      const registry = new FamilyRegistry(deps(), { idleMs: 60_000, maxActive: 10 });
      const actor = await registry.get(family);
      // The first command's batch is being written while the others queue: they are decided
      // together in the next batch, where the first twin is not durable yet.
      const both = await Promise.allSettled([
        actor.execute(addProbe('filler'), actorRef),
        actor.execute(addProbe('twin'), actorRef, { idempotency: kept('s2') }),
        actor.execute(addProbe('twin'), actorRef, { idempotency: kept('s2') }),
        actor.execute(addProbe('other'), actorRef, { idempotency: kept('s3') }),
      ]);
      expect(both.map((r) => r.status)).to.deep.equal([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect((both[2] as PromiseRejectedResult).reason).to.be.instanceOf(AnswerInFlight);
      await registry.shutdown();
      const labels = store
        .readLog(family.id, 0, 10)
        .map((r) => (r.object as { label: string }).label);
      expect(labels).to.deep.equal(['filler', 'twin', 'other']);
    });
  });
});
