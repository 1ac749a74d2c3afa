/**
 * The cluster's write path against three real clustered JetStream servers on loopback, with
 * two nodes (each its own NATS connection and its own LMDB folder): batches replicate and
 * catch up on the other node with a dense, gapless seq; a node without the lease cannot write;
 * a former owner is fenced by JetStream even while its own clock says its lease still holds;
 * an owner that dies mid-burst loses no acknowledged write; losing one NATS server of three
 * does not stop writes. The HTTP daemon does not run on these parts yet (docs/scaling.md).
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { jetstreamManager } from '@nats-io/jetstream';
import { Store, StoreWriteError } from '../../src/store/store.js';
import type { ChangeRecord } from '../../src/store/types.js';
import type { ClusterConfig } from '../../src/config.js';
import { ClusterNode } from '../../src/cluster/node.js';
import { LOG_STREAM } from '../../src/cluster/connection.js';
import { FencedError } from '../../src/cluster/logEntry.js';
import { CHECKPOINT } from '../../src/cluster/replicated.js';
import { OwnedElsewhere } from '../../src/family/ownership.js';
import { tempDataDir } from '../helpers/server.js';
import {
  hasNatsServer,
  NO_NATS,
  serverPid,
  startNatsCluster,
  type NatsCluster,
} from '../helpers/nats.js';

const LEASE_S = 1;

function record(seq: number): ChangeRecord {
  return {
    id: `event_${String(seq).padStart(20, '0')}`,
    seq,
    at: '2026-11-26T00:00:00.000Z',
    type: 'person.created',
    actor: { keyId: null, personId: null },
    object: { seq },
  };
}

/** One change: the record `p<seq>` and its log entry, expecting the log to end at seq - 1. */
function change(seq: number) {
  return {
    records: [{ table: 'people', id: `p${seq}`, value: { id: `p${seq}`, seq } }],
    log: [record(seq)],
    expectedLastSeq: seq - 1,
  };
}

function seqs(store: Store, familyId: string): number[] {
  return store.readLog(familyId, 0, 100_000).map((r) => r.seq);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('cluster: the replicated log over three JetStream servers', function () {
  this.timeout(90_000);
  let nats: NatsCluster | undefined;
  const dirs: string[] = [];
  const stores: Store[] = [];
  const nodes: ClusterNode[] = [];

  async function node(name: string, server: number, now?: () => number) {
    const dir = tempDataDir();
    dirs.push(dir);
    const store = Store.open(dir);
    stores.push(store);
    const cfg: ClusterConfig = {
      natsServers: [nats!.urls[server]],
      nodeName: name,
      advertiseUrl: 'http://127.0.0.1:1',
      secret: 'x'.repeat(32),
      leaseSeconds: LEASE_S,
      replicas: 3,
      credsFile: null,
      tls: null,
    };
    const n = await ClusterNode.start(cfg, store, { replicas: 3, ...(now ? { now } : {}) });
    nodes.push(n);
    return { node: n, store };
  }

  before(async function () {
    if (!hasNatsServer()) {
      console.log(`      skipped: ${NO_NATS}`);
      this.skip();
    }
    nats = await startNatsCluster(90);
  });

  after(async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    for (const s of stores) await s.close().catch(() => undefined);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await nats?.stop();
  });

  it('keeps the log in a stream of 3 replicas, one message per batch, the dense seq in it', async () => {
    const a = await node('a', 0);
    expect(await a.node.commits.own('fam_one')).to.not.equal(null);
    for (let s = 1; s <= 3; s++) await a.node.commits.commit('fam_one', change(s));
    await a.node.commits.commit('fam_one', { log: [record(4), record(5)], expectedLastSeq: 3 });
    expect(seqs(a.store, 'fam_one')).to.deep.equal([1, 2, 3, 4, 5]);
    const jsm = await jetstreamManager(a.node.nc);
    const info = await jsm.streams.info(LOG_STREAM);
    expect(info.config.num_replicas).to.equal(3);
    // One owner entry and four batches: the two-record batch is one message.
    const entries = [];
    for await (const e of a.node.log.read('fam_one', 0)) entries.push(e.entry);
    expect(entries.map((e) => `${e.kind}:${e.lastSeq}`)).to.deep.equal([
      'owner:0',
      'batch:1',
      'batch:2',
      'batch:3',
      'batch:5',
    ]);
    expect(a.store.getCheckpoint(CHECKPOINT, 'fam_one')).to.equal(
      await a.node.log.lastStreamSeq('fam_one'),
    );
  });

  it('replays a long history through a consumer: a new node takes a family of 700 batches whole', async () => {
    const a = nodes[0];
    expect(await a.commits.own('fam_long')).to.not.equal(null);
    for (let s = 1; s <= 700; s++) await a.commits.commit('fam_long', change(s));
    const fresh = await node('fresh', 2);
    const replayed = [];
    for await (const e of fresh.node.log.read('fam_long', 0)) replayed.push(e);
    // The owner entry, then every batch in order, ending at the subject's last message.
    expect(replayed).to.have.length(701);
    expect(replayed.slice(1).map((e) => e.entry.lastSeq)).to.deep.equal(
      Array.from({ length: 700 }, (_, i) => i + 1),
    );
    expect(replayed[700].streamSeq).to.equal(await a.log.lastStreamSeq('fam_long'));
    await fresh.node.commits.catchUp('fam_long');
    expect(seqs(fresh.store, 'fam_long')).to.have.length(700);
    expect(fresh.store.getRecord('fam_long', 'people', 'p700')).to.deep.equal({
      id: 'p700',
      seq: 700,
    });
  });

  it('refuses a write from a node without the lease, and hands the family over when it expires', async () => {
    const a = nodes[0];
    const b = await node('b', 1);
    expect(await b.node.commits.own('fam_one')).to.equal(null); // a holds it and renews
    const refused = await b.node.commits.commit('fam_one', change(6)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).to.be.instanceOf(OwnedElsewhere);
    expect((refused as OwnedElsewhere).owner?.node).to.equal('a');
    expect(seqs(b.store, 'fam_one')).to.deep.equal([]);

    a.stopRenewing();
    await sleep(LEASE_S * 1000 + 200);
    expect(await b.node.commits.own('fam_one')).to.not.equal(null);
    // b rebuilt the family from the log: records and seq as a wrote them.
    expect(seqs(b.store, 'fam_one')).to.deep.equal([1, 2, 3, 4, 5]);
    expect(b.store.getRecord('fam_one', 'people', 'p3')).to.deep.equal({ id: 'p3', seq: 3 });
    await b.node.commits.commit('fam_one', change(6));
    // a's lease ran out: it refuses before it even tries, and wrote nothing.
    const late = await a.commits.commit('fam_one', change(6)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(late).to.be.instanceOf(OwnedElsewhere);
    expect(seqs(stores[0], 'fam_one')).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('fences a paused owner whose clock still says it holds the lease (no split brain)', async () => {
    let frozen = Date.now();
    const paused = await node('paused', 2, () => frozen);
    const c = await node('c', 0);
    expect(await paused.node.commits.own('fam_two')).to.not.equal(null);
    await paused.node.commits.commit('fam_two', change(1));
    paused.node.stopRenewing(); // what SIGSTOP does to the renewals
    await sleep(LEASE_S * 1000 + 200);
    expect(await c.node.commits.own('fam_two')).to.not.equal(null);
    await c.node.commits.commit('fam_two', change(2));
    // The paused node wakes believing its lease valid (its clock stood still): JetStream
    // refuses its append because c's owner entry and batch came after what it saw.
    frozen += 1;
    const err = await paused.node.commits.commit('fam_two', change(2)).then(
      () => null,
      (e: unknown) => e,
    );
    // Fenced either way: by the sequence check (2.9: "another node appended"), or — a server
    // that answers the same expectation as a duplicate of c's append (2.10+) — by the chain,
    // which finds c's entry first after the sequence it expected.
    expect(String(err)).to.match(/another node appended|another entry was (appended|stored) after/);
    expect(paused.node.commits.stats.fenced).to.equal(1);
    expect(seqs(paused.store, 'fam_two')).to.deep.equal([1]);
    // …and after being fenced it no longer thinks it owns the family.
    expect(paused.node.leases.holding('fam_two')).to.equal(undefined);
    expect(seqs(c.store, 'fam_two')).to.deep.equal([1, 2]);
  });

  it('counts one of two appends naming the same last sequence (nats-server 2.9 may store both): the other writer is told it lost, and a catch-up applies only the first', async () => {
    const a = await node('racer-a', 0);
    const b = await node('racer-b', 1);
    expect(await a.node.commits.own('fam_race')).to.not.equal(null);
    await a.node.commits.commit('fam_race', change(1));
    const head = await a.node.log.lastStreamSeq('fam_race');
    // Two writers decided seq 2 on the same head: an old owner's batch and a new owner's.
    const batch = (who: string, n: ClusterNode) =>
      n.log.append(
        'fam_race',
        {
          v: 1,
          kind: 'batch',
          node: who,
          lastSeq: 2,
          batch: {
            records: [{ table: 'people', id: `p2-${who}`, value: { id: `p2-${who}` } }],
            log: [record(2)],
          },
        },
        head,
      );
    const raced = await Promise.allSettled([batch('racer-a', a.node), batch('racer-b', b.node)]);
    expect(raced.map((r) => r.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    const lost = raced.find((r) => r.status === 'rejected')!;
    expect(lost.reason).to.be.instanceOf(FencedError);
    const [winner, loser] =
      raced[0].status === 'fulfilled' ? ['racer-a', 'racer-b'] : ['racer-b', 'racer-a'];
    const entries = [];
    for await (const e of a.node.log.read('fam_race', 0)) entries.push(e);
    expect(
      entries.filter((e) => e.valid).map((e) => `${e.entry.kind}:${e.entry.node}`),
    ).to.deep.equal(['owner:racer-a', 'batch:racer-a', `batch:${winner}`]);
    // A third node catching the family up holds the first one only: one seq 2, one person.
    const c = await node('racer-c', 2);
    await c.node.commits.catchUp('fam_race');
    expect(seqs(c.store, 'fam_race')).to.deep.equal([1, 2]);
    expect(c.store.getRecord('fam_race', 'people', `p2-${winner}`)).to.not.equal(undefined);
    expect(c.store.getRecord('fam_race', 'people', `p2-${loser}`)).to.equal(undefined);
    expect(c.store.getCheckpoint(CHECKPOINT, 'fam_race')).to.equal(
      await c.node.log.lastStreamSeq('fam_race'),
    );
  });

  it('never writes over its own batch that landed unacknowledged: the retry decided without it is refused, and taking the family again applies it', async () => {
    const a = nodes[0];
    const store = stores[0];
    expect(await a.commits.own('fam_unacked')).to.not.equal(null);
    await a.commits.commit('fam_unacked', change(1));
    // The append of seq 2 reached the stream, but its acknowledgement never came back: this
    // node's copy does not have it.
    const { expectedLastSeq: _decidedOn, ...landed } = change(2);
    const head = await a.log.lastStreamSeq('fam_unacked');
    await a.log.append(
      'fam_unacked',
      { v: 1, kind: 'batch', node: a.commits.node, lastSeq: 2, batch: landed },
      head,
    );
    expect(seqs(store, 'fam_unacked')).to.deep.equal([1]);
    // A retry decided on that copy (seq 2 again) is refused; nothing of it is written.
    const retry = {
      ...change(2),
      records: [{ table: 'people', id: 'p2-again', value: { id: 'p2-again' } }],
    };
    const refused = await a.commits.commit('fam_unacked', retry).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(StoreWriteError);
    expect(store.getRecord('fam_unacked', 'people', 'p2-again')).to.equal(undefined);
    // Taking the family again catches the copy up: the batch that landed, once.
    expect(await a.commits.own('fam_unacked')).to.not.equal(null);
    expect(seqs(store, 'fam_unacked')).to.deep.equal([1, 2]);
    expect(store.getRecord('fam_unacked', 'people', 'p2')).to.not.equal(undefined);
    expect(store.getRecord('fam_unacked', 'people', 'p2-again')).to.equal(undefined);
  });

  it('loses no acknowledged write when the owner dies mid-burst: no duplicate, no gap', async () => {
    const d = await node('d', 1);
    const e = await node('e', 2);
    expect(await d.node.commits.own('fam_three')).to.not.equal(null);
    const acked: number[] = [];
    const burst = [];
    for (let s = 1; s <= 60; s++) {
      burst.push(
        d.node.commits.commit('fam_three', change(s)).then(
          () => {
            acked.push(s);
          },
          () => undefined,
        ),
      );
    }
    // The owner's connection goes away abruptly while the burst is in flight.
    while (acked.length < 10) await sleep(5);
    d.node.stopRenewing();
    await d.node.nc.close();
    await Promise.all(burst);
    expect(acked.length).to.be.within(10, 59);
    await sleep(LEASE_S * 1000 + 200);
    expect(await e.node.commits.own('fam_three')).to.not.equal(null);
    const onSurvivor = seqs(e.store, 'fam_three');
    for (const s of acked) expect(onSurvivor).to.include(s);
    expect(onSurvivor).to.deep.equal(onSurvivor.map((_, i) => i + 1)); // gapless, no duplicate
    // The survivor goes on from where the log ends.
    const next = onSurvivor.length + 1;
    await e.node.commits.commit('fam_three', change(next));
    expect(seqs(e.store, 'fam_three').at(-1)).to.equal(next);
  });

  let tries = 0;
  it('goes on writing when one of the three NATS servers is killed', async function () {
    // JetStream's leader elections after the kill take from 1 to 11 s here; a try that loses the
    // election race is tried again (the server stays killed; a new node starts the try).
    this.retries(2);
    // A family of its own for each try: a failed try leaves its first writes in the log.
    const fam = `fam_four_${(tries += 1)}`;
    const f = await node('f', 1);
    expect(await f.node.commits.own(fam)).to.not.equal(null);
    await f.node.commits.commit(fam, change(1));
    try {
      process.kill(serverPid(nats!.servers[0]), 'SIGKILL');
    } catch {
      // killed by an earlier try
    }
    await nats!.servers[0].exited;
    // While JetStream elects new leaders the lease cannot be renewed and may lapse (leases here
    // last 1 s); nobody else takes it, so the writer takes it back first, as an owner-less
    // family's first request does.
    for (let s = 2; s <= 5; s++) {
      await f.node.commits.commit(fam, change(s)).catch(async (err: unknown) => {
        if (!/does not own/.test(String(err))) throw err;
        let lease = null;
        for (let i = 0; i < 40 && !lease; i++) {
          lease = await f.node.commits.own(fam).catch(() => null);
          if (!lease) await sleep(250);
        }
        expect(lease).to.not.equal(null);
        await f.node.commits.commit(fam, change(s));
      });
    }
    expect(seqs(f.store, fam)).to.deep.equal([1, 2, 3, 4, 5]);
    // A node on another surviving server rebuilds the family from the two remaining replicas
    // (its first tries may meet an election still settling: nobody else wants the family).
    f.node.stopRenewing();
    await sleep(LEASE_S * 1000 + 200);
    const g = await node('g', 2);
    let lease = null;
    for (let i = 0; i < 40 && !lease; i++) {
      lease = await g.node.commits.own(fam).catch(() => null);
      if (!lease) await sleep(250);
    }
    expect(lease).to.not.equal(null);
    expect(seqs(g.store, fam)).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('refuses a batch larger than one message may be, writing nothing', async () => {
    const g = nodes.at(-1)!;
    const big = {
      records: [{ table: 'notes', id: 'n1', value: { text: 'x'.repeat(g.log.maxPayload) } }],
    };
    const err = await g.commits.commit('fam_four', big).then(
      () => null,
      (e: unknown) => e,
    );
    expect(String(err)).to.match(/max_payload/);
    expect(stores.at(-1)!.getRecord('fam_four', 'notes', 'n1')).to.equal(undefined);
  });
});
