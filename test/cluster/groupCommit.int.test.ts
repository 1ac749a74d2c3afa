/**
 * Two daemons in this process over three real clustered JetStream servers on loopback: A owns
 * the family, B forwards to it. What a clustered write appends, and who reads it back:
 *
 * - a burst of writes to one family, some sent to A, some forwarded by B, is appended as fewer
 *   JetStream messages than writes (the actor's group commit: one message per batch), and a
 *   node that takes the family after A crashed has every entry once, in order;
 * - B's follower, whose consumer delivers headers only, still applies what every node keeps of
 *   a family's batch (the family's settings), reading that entry whole.
 *
 * The tests run in order: the crash comes last.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { deepMerge, loadConfig, type Config, type DeepPartial } from '../../src/config.js';
import type { ClusterTopology } from '../../src/cluster/topology.js';
import { JetStreamLog } from '../../src/cluster/log.js';
import type { LogEntry } from '../../src/cluster/logEntry.js';
import { startDaemon, type Daemon } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { Client, tempDataDir } from '../helpers/server.js';
import { clusterFamily } from '../helpers/clusterFamily.js';
import { hasNatsServer, NO_NATS, startNatsCluster, type NatsCluster } from '../helpers/nats.js';

const LEASE_S = 2;
const SLUG = 'home';
const ENTRIES = '/trackers/chores/entries';

interface Node {
  daemon: Daemon;
  dataDir: string;
  api: Client;
}

const runtimeOf = (n: Node) => (n.daemon.topology as ClusterTopology).runtime;

/** Polls `check` until it holds or `ms` pass; the last answer either way. */
async function until<T>(read: () => Promise<T> | T, check: (v: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (check(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('cluster: group commit, one JetStream message per batch', function () {
  this.timeout(90_000);
  let nats: NatsCluster | undefined;
  let watcher: NatsConnection | undefined;
  let log: JetStreamLog;
  let a: Node | undefined;
  let b: Node | undefined;
  let familyId = '';

  async function startNode(name: string): Promise<Node> {
    const dataDir = tempDataDir();
    const config: Config = loadConfig({
      env: {},
      overrides: deepMerge(
        {
          server: { host: '127.0.0.1', port: 0 },
          storage: { dataDir },
          log: { level: 'silent' },
          rateLimit: { perMinute: 100_000 },
          families: { bootstrapSlug: null, defaultTimezone: 'UTC' },
        },
        {
          cluster: {
            natsServers: nats!.urls,
            nodeName: name,
            advertiseUrl: 'http://127.0.0.1:0',
            secret: 'group-commit-cluster-secret-'.padEnd(40, 'x'),
            leaseSeconds: LEASE_S,
            replicas: 3,
            credsFile: null,
            tls: null,
          },
        },
      ) as DeepPartial<Config>,
    });
    const daemon = await startDaemon(config, { logger: createLogger('silent') });
    return { daemon, dataDir, api: new Client(`${daemon.url}/api/v1/families/${SLUG}`, null) };
  }

  /** The family's entries in JetStream, as every reader takes them (the chain's). */
  async function logged(): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    for await (const e of log.read(familyId, 0)) if (e.valid) out.push(e.entry);
    return out;
  }

  before(async function () {
    if (!hasNatsServer()) {
      console.log(`      skipped: ${NO_NATS}`);
      this.skip();
    }
    nats = await startNatsCluster(90);
    a = await startNode('a');
    const made = await clusterFamily(a.daemon.store, SLUG);
    familyId = made.familyId;
    a.api.key = made.apiKey;
    expect((await a.api.get('/people')).status).to.equal(200);
    b = await startNode('b');
    b.api.key = made.apiKey;
    expect(runtimeOf(b).owns(familyId)).to.equal(false);
    watcher = await connect({ servers: nats.urls });
    log = await JetStreamLog.open(watcher, 3);
  });

  after(async () => {
    await watcher?.close();
    for (const n of [a, b]) {
      if (!n) continue;
      await n.daemon.close().catch(() => undefined);
      rmSync(n.dataDir, { recursive: true, force: true });
    }
    await nats?.stop();
  });

  it('appends a burst of 24 writes (half forwarded) as fewer messages than writes, each change once', async () => {
    const before = (await logged()).length;
    const titles = Array.from({ length: 24 }, (_, i) => `burst ${i}`);
    const answers = await Promise.all(
      titles.map((title, i) => (i % 2 ? b! : a!).api.post(ENTRIES, { title })),
    );
    expect(answers.map((r) => r.status)).to.deep.equal(titles.map(() => 201));
    const batches = (await logged()).slice(before).filter((e) => e.kind === 'batch');
    const changes = batches.flatMap((e) => (e.kind === 'batch' ? (e.batch.log ?? []) : []));
    // While one batch is being appended the next requests queue, and go out as one message.
    expect(batches.length).to.be.lessThan(titles.length);
    expect(batches.some((e) => e.kind === 'batch' && (e.batch.log?.length ?? 0) > 1)).to.equal(
      true,
    );
    const seqs = changes.map((c) => c.seq);
    expect(seqs).to.deep.equal(seqs.map((_, i) => seqs[0] + i));
    expect(changes.length).to.equal(titles.length);
  });

  it("applies a batch's shared part on the follower of a node that does not own the family", async () => {
    const patched = await a!.api.patch('', { name: 'Home, renamed' });
    expect(patched.status).to.equal(200);
    const seen = await until(
      () => b!.daemon.store.getFamilyBySlug(SLUG)?.name,
      (name) => name === 'Home, renamed',
    );
    expect(seen).to.equal('Home, renamed');
  });

  it('has every batched entry once, in order, on the node that takes the family after the owner crashed', async () => {
    const runtime = runtimeOf(a!);
    await runtime.halt();
    await a!.daemon.scheduler.stop();
    a!.daemon.server.closeAllConnections();
    await new Promise<void>((resolve) => a!.daemon.server.close(() => resolve()));
    // B's first write after A's lease lapsed takes the family: the catch-up replays the batches.
    const written = await until(
      () => b!.api.post(ENTRIES, { title: 'after the crash' }),
      (r) => r.status === 201,
    );
    expect(written.status).to.equal(201);
    const list = await b!.api.get(`${ENTRIES}?limit=50`);
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    const titles = (list.body.entries as { title: string }[]).map((e) => e.title);
    for (let i = 0; i < 24; i++) {
      expect(
        titles.filter((t) => t === `burst ${i}`),
        `burst ${i}`,
      ).to.have.length(1);
    }
    expect(titles.filter((t) => t === 'after the crash')).to.have.length(1);
    const changes = await b!.api.get('/changes?after=0&limit=500');
    expect(changes.status, JSON.stringify(changes.body)).to.equal(200);
    const seqs = (changes.body.changes as { seq: number }[]).map((c) => c.seq);
    expect(seqs).to.deep.equal(seqs.map((_, i) => i + 1));
  });
});
