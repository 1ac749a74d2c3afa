/**
 * A seeded fault run (Jepsen-style) over three JetStream servers and three `serve` processes,
 * all on loopback with no fixed port. Clients write to two families through random nodes, each
 * write carrying an Idempotency-Key and a title no other write has; a write whose outcome is
 * unknown (no answer, a timeout, 503, 409 while in flight, 5xx) is retried with the same key
 * through a random node until it is acknowledged; and one attempt in ten the client stops
 * waiting after a moment, as if the answer were lost, while the request goes on. Meanwhile
 * two fault lanes, following the
 * seed, SIGKILL and restart or SIGSTOP and SIGCONT one daemon at a time and one NATS server at
 * a time (so a majority of each stays).
 *
 * At the end every family's log is checked three ways: as each node serves it, as JetStream
 * holds it, and as each node's own LMDB copy holds it (after the daemons stop) — identical
 * where they overlap, gapless, every acknowledged write there exactly once with the id it was
 * acknowledged with, and no title there twice.
 *
 * About half a minute by default; longer, or one seed again:
 *   FAULT_SECONDS=600 FAULT_SEED=7 node test/run.mjs cluster/faults
 * The seed is printed at the start; the choices (nodes, faults, durations, families) follow
 * from it, the timing between processes does not.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnDaemon, type ChildDaemon } from '../helpers/child.js';
import {
  hasNatsServer,
  NO_NATS,
  serverPid,
  startNatsCluster,
  type NatsCluster,
} from '../helpers/nats.js';
import { seeded, sleep, Tally, waitWhile, type Random } from '../helpers/faults.js';
import { connectCluster } from '../../src/cluster/connection.js';
import { JetStreamLog } from '../../src/cluster/log.js';
import { until } from '../helpers/until.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { Store } from '../../src/store/store.js';
import type { ChangeRecord } from '../../src/store/types.js';

// 25 s in the suite keeps CI near its budget and still brings several faults of each kind;
// the recorded runs (docs/scaling.md) are 60 s, and a soak is as long as one likes.
const SECONDS = Number(process.env.FAULT_SECONDS ?? 25);
const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CLIENTS = 6;
/** Attempts whose answer the client drops on purpose (it stops waiting after a moment). */
const DROPPED = 0.1;
const LEASE_S = 2;
const SECRET = 'fault-run-secret-'.repeat(3);
/** How long a client waits for one answer before it counts the outcome as unknown. */
const ANSWER_MS = 8_000;
/** After the faults stop, how long the clients may take to settle their last writes. */
const SETTLE_MS = 90_000;

interface Node {
  name: string;
  dir: string;
  config: string;
  daemon: ChildDaemon;
  /** Every process this node ran, for the logs a failure prints. */
  runs: ChildDaemon[];
  state: 'up' | 'paused' | 'down';
}

interface Family {
  slug: string;
  key: string;
  id?: string;
}

interface Write {
  title: string;
  family: Family;
  attempts: number;
  acked?: { id: string; replayed: boolean };
  /** An answer a retry cannot change (a 4xx other than 409 and 429): the run fails. */
  refused?: string;
}

interface Entry {
  seq: number;
  id: string;
  type: string;
  title?: string;
  objectId?: string;
}

describe('cluster: a seeded fault run (kills and pauses of daemons and NATS servers)', function () {
  this.timeout((SECONDS + 300) * 1000);
  let nats: NatsCluster;
  const nodes: Node[] = [];
  const families: Family[] = [];
  const writes: Write[] = [];
  const statuses = new Tally();
  const faults = new Tally();
  /**
   * A daemon is starting: no NATS fault begins meanwhile, and none is under way when one
   * starts (its first connect to a paused server would hang; JetStream elects after a kill).
   */
  let starting = false;
  /** NATS servers paused or down now. */
  const natsOut = new Set<number>();

  const env = (n: { name: string; config: string }) => ({
    HOUSEHOLD_CONFIG: n.config,
    HOUSEHOLD_NATS_SERVERS: nats.urls.filter((_, i) => !natsOut.has(i)).join(','),
    HOUSEHOLD_NODE_NAME: n.name,
    HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:0',
    HOUSEHOLD_CLUSTER_SECRET: SECRET,
    HOUSEHOLD_LEASE_SECONDS: String(LEASE_S),
  });

  before(async function () {
    if (!hasNatsServer()) {
      console.log(`      skipped: ${NO_NATS}`);
      this.skip();
    }
    console.log(
      `      fault run: seed ${SEED}, ${SECONDS} s ` +
        `(again: FAULT_SEED=${SEED} FAULT_SECONDS=${SECONDS} node test/run.mjs cluster/faults)`,
    );
    nats = await startNatsCluster(SECONDS + 400);
    for (const name of ['a', 'b', 'c']) {
      const dir = mkdtempSync(join(tmpdir(), `household-faults-${name}-`));
      const config = join(dir, 'config.json');
      // Every client write counts against one key: the limit must not be what answers.
      writeFileSync(config, JSON.stringify({ rateLimit: { perMinute: 1_000_000 } }));
      const daemon = await startNode(dir, env({ name, config }), name);
      nodes.push({ name, dir, config, daemon, runs: [daemon], state: 'up' });
    }
    families.push({ slug: 'home', key: nodes[0].daemon.bootstrapKey! });
    const cli = async (...args: string[]) => {
      const r = await runCli([...args, '--json'], {
        ...env({ name: 'faults-cli', config: nodes[0].config }),
        HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:1',
      });
      expect(r.code, r.stderr).to.equal(0);
      return JSON.parse(r.stdout) as Record<string, any>;
    };
    families.push({ slug: 'garden', key: (await cli('family', 'create', 'garden')).apiKey });
    const listed = (await cli('family', 'list')).families as { id: string; slug: string }[];
    for (const f of families) f.id = listed.find((l) => l.slug === f.slug)?.id;
    expect(families.map((f) => typeof f.id)).to.deep.equal(['string', 'string']);
  });

  after(async () => {
    for (const n of nodes) {
      if (n.state === 'down') continue;
      n.daemon.proc.kill('SIGCONT');
      n.daemon.proc.kill('SIGKILL');
      await n.daemon.exited;
    }
    for (const n of nodes) rmSync(n.dir, { recursive: true, force: true });
    await nats?.stop();
  });

  // --- the clients --------------------------------------------------------------------------

  /** One attempt of a write through `node`, waiting `waitMs` for its answer. */
  async function attempt(
    node: Node,
    w: Write,
    waitMs: number,
  ): Promise<'acked' | 'unknown' | 'refused'> {
    try {
      const r = await fetch(
        `${node.daemon.url}/api/v1/families/${w.family.slug}/trackers/chores/entries`,
        {
          method: 'POST',
          headers: {
            'x-api-key': w.family.key,
            'content-type': 'application/json',
            'idempotency-key': w.title,
            'x-request-id': `${w.title}-${w.attempts}`,
          },
          body: JSON.stringify({ title: w.title }),
          signal: AbortSignal.timeout(waitMs),
        },
      );
      const body = (await r.json().catch(() => null)) as {
        entry?: { id: string };
        code?: string;
      } | null;
      statuses.add(String(r.status) + (r.status === 409 ? ` ${body?.code}` : ''));
      if (r.status === 201) {
        const replayed = r.headers.get('idempotent-replayed') === 'true';
        w.acked = { id: body!.entry!.id, replayed };
        return 'acked';
      }
      const retry =
        r.status >= 500 || r.status === 429 || (r.status === 409 && body?.code === 'conflict');
      if (retry) return 'unknown';
      w.refused = `${r.status} ${JSON.stringify(body)} via ${node.name}`;
      return 'refused';
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      const dropped = waitMs < ANSWER_MS ? 'answer dropped by the client' : 'no answer in time';
      statuses.add(timedOut ? dropped : 'no connection');
      return 'unknown';
    }
  }

  /** A client: new writes until `stopAt`, each retried with its key until acknowledged. */
  async function client(c: number, rng: Random, stopAt: number, settleBy: number): Promise<void> {
    for (let n = 0; Date.now() < stopAt; n++) {
      const w: Write = { title: `s${SEED}-c${c}-w${n}`, family: rng.pick(families), attempts: 0 };
      writes.push(w);
      for (;;) {
        w.attempts += 1;
        // Now and then the answer is lost on its way: the request goes on without its client.
        const waitMs = rng.next() < DROPPED ? rng.int(1, 60) : ANSWER_MS;
        const outcome = await attempt(rng.pick(nodes), w, waitMs);
        if (outcome !== 'unknown' || Date.now() > settleBy) break;
        await sleep(rng.between(100, 400));
      }
    }
  }

  /**
   * A node's daemon, started once more if it prints nothing in 45 s. That happened twice in
   * fresh-clone runs, once at a restart (a benchmark beside the suite) and once at the first
   * start (another suite beside it); the killed child is gone (spawnDaemon kills it). Why is
   * not known yet: the fault run tests the cluster's writes, not a start on a starved machine,
   * so it says so in its output and goes on.
   */
  async function startNode(dir: string, vars: Record<string, string>, name: string) {
    return spawnDaemon(dir, vars).catch((err: unknown) => {
      console.log(`      ${name} did not start (${String(err).split('\n')[0]}); once more`);
      return spawnDaemon(dir, vars);
    });
  }

  // --- the faults ---------------------------------------------------------------------------

  async function restartDaemon(n: Node): Promise<void> {
    await waitWhile(() => natsOut.size > 0);
    starting = true;
    try {
      n.daemon = await startNode(n.dir, env(n), n.name);
      n.runs.push(n.daemon);
      n.state = 'up';
    } finally {
      starting = false;
    }
  }

  /** One daemon at a time: SIGKILL and a restart on the same folder, or SIGSTOP then SIGCONT. */
  async function daemonLane(rng: Random, stopAt: number): Promise<void> {
    for (;;) {
      await sleep(rng.between(1_000, 3_000));
      if (Date.now() >= stopAt) return;
      const n = rng.pick(nodes);
      if (rng.next() < 0.5) {
        faults.add('daemon SIGKILL');
        n.daemon.proc.kill('SIGKILL');
        n.state = 'down';
        await n.daemon.exited;
        await sleep(rng.between(300, 2_000));
        await restartDaemon(n);
      } else {
        // Sometimes shorter than the lease (the owner keeps its families), sometimes longer.
        faults.add('daemon SIGSTOP');
        n.daemon.proc.kill('SIGSTOP');
        n.state = 'paused';
        await sleep(rng.between(500, 6_000));
        n.daemon.proc.kill('SIGCONT');
        n.state = 'up';
      }
    }
  }

  /** One NATS server at a time: SIGKILL and a restart on its store, or SIGSTOP then SIGCONT. */
  async function natsLane(rng: Random, stopAt: number): Promise<void> {
    for (;;) {
      await sleep(rng.between(2_000, 5_000));
      if (Date.now() >= stopAt) return;
      const i = rng.int(0, 2);
      const kill = rng.next() < 0.5;
      await waitWhile(() => starting);
      const pid = serverPid(nats.servers[i]);
      natsOut.add(i);
      if (kill) {
        faults.add('NATS SIGKILL');
        process.kill(pid, 'SIGKILL');
        await nats.servers[i].exited;
        await sleep(rng.between(1_000, 3_000));
        await nats.restart(i);
      } else {
        faults.add('NATS SIGSTOP');
        process.kill(pid, 'SIGSTOP');
        await sleep(rng.between(500, 5_000));
        process.kill(pid, 'SIGCONT');
      }
      natsOut.delete(i);
    }
  }

  // --- the checks ---------------------------------------------------------------------------

  const entryOf = (c: ChangeRecord): Entry => {
    const o = c.object as { id?: string; title?: string };
    return { seq: c.seq, id: c.id, type: c.type, title: o.title, objectId: o.id };
  };

  /** A family's whole change log as `n` serves it (503 while a node settles: asked again). */
  async function served(n: Node, f: Family): Promise<Entry[]> {
    const out: Entry[] = [];
    let after = 0;
    for (let tries = 0; ;) {
      const r = await fetch(
        `${n.daemon.url}/api/v1/families/${f.slug}/changes?after=${after}&limit=500`,
        { headers: { 'x-api-key': f.key }, signal: AbortSignal.timeout(ANSWER_MS) },
      ).catch(() => null);
      if (!r || r.status !== 200) {
        if (++tries > 40) throw new Error(`changes of ${f.slug} via ${n.name}: ${r?.status}`);
        await sleep(250);
        continue;
      }
      const page = (await r.json()) as { changes: ChangeRecord[]; nextAfter: number };
      out.push(...page.changes.map(entryOf));
      if (!page.changes.length) return out;
      after = page.nextAfter;
    }
  }

  /** A family's change log as JetStream holds it: the records of every batch, in order. */
  /**
   * The log, once JetStream answers again: the last fault may have left its meta leader being
   * elected while the daemons already serve from their own stores (a single request timed out
   * here in one fresh-clone run of six). Each try's error is kept to name in the failure.
   */
  async function openAfterFaults(nc: NatsConnection): Promise<JetStreamLog> {
    let last: unknown;
    try {
      return await until(
        'JetStream to answer after the faults',
        () => JetStreamLog.open(nc, 3).catch((err: unknown) => ((last = err), undefined)),
        90_000,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}; last: ${String(last)}`, { cause: err });
    }
  }

  async function inJetStream(familyId: string): Promise<Entry[]> {
    const nc = await connectCluster({
      natsServers: nats.urls,
      nodeName: 'fault-check',
      credsFile: null,
      tls: null,
    });
    try {
      const log = await openAfterFaults(nc);
      const out: Entry[] = [];
      const raw: string[] = [];
      for await (const { streamSeq, entry, valid } of log.read(familyId, 0)) {
        const seqs = entry.kind === 'batch' ? (entry.batch.log ?? []).map((c) => c.seq) : [];
        raw.push(
          `${streamSeq} ${entry.kind} by ${entry.node} prev ${entry.prev} lastSeq ${entry.lastSeq} ` +
            `[${seqs.join(',')}]${valid ? '' : ' (does not count)'}`,
        );
        // Entries stored beside an earlier one with the same expectation do not count
        // (src/cluster/log.ts): every reader passes over them, so does this one.
        if (!valid) ignored.add(families.find((f) => f.id === familyId)?.slug ?? familyId);
        else if (entry.kind === 'batch') out.push(...(entry.batch.log ?? []).map(entryOf));
      }
      jetstreamEntries.set(familyId, raw);
      return out;
    } finally {
      await nc.close();
    }
  }

  const jetstreamEntries = new Map<string, string[]>();
  /** Per family: entries in JetStream that do not count. */
  const ignored = new Tally();

  function expectGapless(log: Entry[], what: string): void {
    const bad = log.findIndex((e, i) => e.seq !== i + 1);
    if (bad >= 0) {
      const around = [...jetstreamEntries.values()].flat().filter((l) => {
        const seqs = /\[(.*)\]/.exec(l)?.[1].split(',').map(Number) ?? [];
        return seqs.some((q) => Math.abs(q - log[bad].seq) <= 2) || / owner /.test(l);
      });
      console.log(
        `      ${what}: around seq ${log[bad].seq}:\n        ${around.join('\n        ')}`,
      );
    }
    expect(bad, `${what}: seq ${log[bad]?.seq} at position ${bad + 1}`).to.equal(-1);
  }

  /** Every acknowledged write once, with its id; no title twice. */
  function expectExactlyOnce(log: Entry[], f: Family): number {
    const created = log.filter((e) => e.type === 'tracker.entry.created' && e.title);
    const byTitle = new Map<string, Entry[]>();
    for (const e of created) byTitle.set(e.title!, [...(byTitle.get(e.title!) ?? []), e]);
    const twice = [...byTitle].filter(([, es]) => es.length > 1);
    expect(
      twice.map(([t, es]) => `${t} ×${es.length}`),
      `${f.slug}: written twice`,
    ).to.deep.equal([]);
    for (const w of writes.filter((x) => x.family === f && x.acked)) {
      const found = byTitle.get(w.title);
      expect(found, `${w.title} (acknowledged as ${w.acked!.id}) is missing`).to.not.equal(
        undefined,
      );
      expect(found![0].objectId, w.title).to.equal(w.acked!.id);
    }
    return twice.length;
  }

  function attemptsOf(title: string): string {
    return nodes
      .flatMap((n) => n.runs.flatMap((d) => d.stdout().split('\n')))
      .filter((l) => l.includes(title))
      .map((l) => l.slice(0, 300))
      .join('\n');
  }

  it('answers every retried write once, and every log holds each acknowledged write exactly once', async function () {
    const started = Date.now();
    const stopAt = started + SECONDS * 1000;
    const rng = seeded(SEED);
    const lanes = [
      daemonLane(seeded(rng.int(1, 2 ** 30)), stopAt),
      natsLane(seeded(rng.int(1, 2 ** 30)), stopAt),
    ];
    const clientSeeds = Array.from({ length: CLIENTS }, () => rng.int(1, 2 ** 30));
    const clients = clientSeeds.map((s, c) => client(c, seeded(s), stopAt, stopAt + SETTLE_MS));
    await Promise.all(lanes);
    await Promise.all(clients);

    const acked = writes.filter((w) => w.acked);
    const retried = writes.filter((w) => w.attempts > 1);
    const replayed = writes.filter((w) => w.acked?.replayed);
    const refused = writes.filter((w) => w.refused);
    const unsettled = writes.filter((w) => !w.acked && !w.refused);
    expect(refused.map((w) => `${w.title}: ${w.refused}`)).to.deep.equal([]);

    let duplicates = 0;
    const stored: Record<string, Entry[]> = {};
    for (const f of families) {
      const views = await Promise.all(nodes.map((n) => served(n, f)));
      views.forEach((v, i) => expectGapless(v, `${f.slug} via ${nodes[i].name}`));
      for (const v of views.slice(1)) expect(v).to.deep.equal(views[0]);
      const held = await inJetStream(f.id!);
      expectGapless(held, `${f.slug} in JetStream`);
      expect(views[0], `${f.slug}: served = JetStream`).to.deep.equal(held);
      try {
        duplicates += expectExactlyOnce(held, f);
      } catch (err) {
        const w = writes.find((x) => (err as Error).message.includes(x.title));
        if (w) console.log(`      what the nodes logged of ${w.title}:\n${attemptsOf(w.title)}`);
        throw err;
      }
      stored[f.slug] = held;
    }
    // Each node's own copy, once the daemons stopped: the same log as far as it has it.
    for (const n of nodes) {
      n.daemon.proc.kill('SIGTERM');
      await n.daemon.exited;
      n.state = 'down';
    }
    const complete: Record<string, number> = {};
    for (const n of nodes) {
      const store = Store.open(n.dir);
      try {
        for (const f of families) {
          const copy = store.readLog(f.id!, 0, 1_000_000).map(entryOf);
          expectGapless(copy, `${f.slug} on ${n.name}`);
          expect(copy, `${f.slug} on ${n.name}`).to.deep.equal(
            stored[f.slug].slice(0, copy.length),
          );
          if (copy.length === stored[f.slug].length) complete[f.slug] = (complete[f.slug] ?? 0) + 1;
        }
      } finally {
        await store.close();
      }
    }
    for (const f of families)
      expect(complete[f.slug], `a complete copy of ${f.slug}`).to.be.at.least(1);

    console.log(
      `      seed ${SEED}, ${SECONDS} s: ${writes.length} writes, ${acked.length} acknowledged, ` +
        `${unsettled.length} unsettled; ${retried.length} retried ` +
        `(${writes.reduce((s, w) => s + w.attempts, 0) - writes.length} retries), ` +
        `${replayed.length} answered by a replay; faults: ${faults.toString()}; ` +
        `answers: ${statuses.toString()}; duplicates: ${duplicates}; ` +
        `entries passed over: ${ignored.toString() || 'none'}; ` +
        `log lengths: ${families.map((f) => `${f.slug} ${stored[f.slug].length}`).join(', ')}`,
    );
    expect(
      unsettled.map((w) => w.title),
      'writes never acknowledged',
    ).to.deep.equal([]);
    expect(faults.get('daemon SIGKILL') + faults.get('daemon SIGSTOP')).to.be.above(0);
  });
});
