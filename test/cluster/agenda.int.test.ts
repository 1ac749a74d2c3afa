/**
 * Time in a cluster, across a failover: two daemons in this process over three real clustered
 * JetStream servers on loopback, sharing one fake clock (the scheduler's time; the leases run
 * on real time). Node A owns the family; it "crashes" the way the others see a crash — it
 * stops renewing its lease, its NATS connection drops, its scheduler and HTTP server stop, and
 * no lease is released — and node B takes the family by its sweep. A reminder A fired does not
 * fire again on B; one due after the failover fires exactly once, on B. Of the webhooks, the
 * retry of a delivery A saw fail and the first delivery of a change A wrote but never read
 * (B's outbox resumes from the replicated checkpoint) reach the receiver from B, each with the
 * `webhook-id` A used or would have used, and nothing arrives twice.
 *
 * The tests run in order on one failover: each builds on what the one before left.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { deepMerge, loadConfig, type Config, type DeepPartial } from '../../src/config.js';
import type { ClusterTopology } from '../../src/cluster/topology.js';
import { startDaemon, type Daemon } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { DELIVER_KIND } from '../../src/domain/webhooks/types.js';
import { Client, tempDataDir } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { changesAfter } from '../helpers/changes.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/fakes/receiver.js';
import { clusterFamily } from '../helpers/clusterFamily.js';
import { hasNatsServer, NO_NATS, startNatsCluster, type NatsCluster } from '../helpers/nats.js';

const LEASE_S = 2;
const SLUG = 'home';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Node {
  daemon: Daemon;
  dataDir: string;
  /** The family's REST API on this node, with the family's admin key. */
  api: Client;
  http: Client;
}

describe('cluster: the agenda across a failover', function () {
  this.timeout(90_000); // its before hook starts three NATS servers: generous on a loaded machine
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  let nats: NatsCluster | undefined;
  let receiver: Receiver | undefined;
  let a: Node | undefined;
  let b: Node | undefined;
  let apiKey = '';
  let familyId = '';
  /** The first reminder (fired on A before the failover) and the second (due after it). */
  let early = '';
  let late = '';
  let hook = { id: '', secret: '' };
  /** The change A wrote last, whose delivery A never started. */
  let unsent = '';

  async function startNode(name: string): Promise<Node> {
    const dataDir = tempDataDir();
    const config: Config = loadConfig({
      env: {},
      overrides: deepMerge(
        {
          server: { host: '127.0.0.1', port: 0, publicUrl: 'http://share.test' },
          storage: { dataDir },
          log: { level: 'silent' },
          rateLimit: { perMinute: 100_000, publicPerMinute: 100_000 },
          egress: { webPages: 'any', calendarFeeds: 'any', webhooks: 'any', transports: 'any' },
          families: { bootstrapSlug: null, defaultTimezone: 'UTC' },
        },
        {
          cluster: {
            natsServers: nats!.urls,
            nodeName: name,
            advertiseUrl: 'http://127.0.0.1:0',
            secret: 'agenda-cluster-secret-'.padEnd(40, 'x'),
            leaseSeconds: LEASE_S,
            replicas: 3,
            credsFile: null,
            tls: null,
          },
        },
      ) as DeepPartial<Config>,
    });
    const daemon = await startDaemon(config, { logger: createLogger('silent'), now: clock.now });
    return {
      daemon,
      dataDir,
      api: new Client(`${daemon.url}/api/v1/families/${SLUG}`, null),
      http: new Client(daemon.url, null),
    };
  }

  const owned = async (n: Node): Promise<number> =>
    (await n.http.get('/healthz')).body.cluster.ownedFamilies as number;
  const reminders = async (api: Client, eventId: string) =>
    (await api.get('/notifications?limit=50')).body.notifications.filter(
      (n: any) => n.kind === 'reminder' && n.eventId === eventId,
    );
  const jobs = (n: Node) => n.daemon.store.familyJobs(familyId);

  /**
   * What a crash of `n` looks like to the other nodes: no more renewals, the NATS connection
   * gone, no timer of its own running, no HTTP answer — and its leases left to expire.
   */
  async function crash(n: Node): Promise<void> {
    await (n.daemon.topology as ClusterTopology).runtime.halt();
    await n.daemon.scheduler.stop();
    n.daemon.server.closeAllConnections();
    await new Promise<void>((resolve) => n.daemon.server.close(() => resolve()));
  }

  before(async function () {
    if (!hasNatsServer()) {
      console.log(`      skipped: ${NO_NATS}`);
      this.skip();
    }
    nats = await startNatsCluster(90);
    receiver = await startReceiver();
    a = await startNode('a');
    ({ apiKey, familyId } = await clusterFamily(a.daemon.store, SLUG, () => clock.now()));
    a.api.key = apiKey;
    // The first request takes the family on A; B starts only once A holds it.
    expect((await a.api.get('/people')).status).to.equal(200);
    expect(await owned(a)).to.equal(1);
    b = await startNode('b');
    b.api.key = apiKey;
  });

  after(async () => {
    for (const n of [a, b]) {
      if (!n) continue;
      await n.daemon.close();
      rmSync(n.dataDir, { recursive: true, force: true });
    }
    await receiver?.close();
    await nats?.stop();
  });

  it('fires a reminder due before the failover once on A, and B does not fire it again', async function () {
    const { api } = a!;
    const event = async (title: string, time: string) => {
      const r = await api.post('/calendar/events', {
        title,
        date: '2026-11-22',
        time,
        responsibilityRequired: false,
        reminders: [{ offsetMinutes: 60 }],
      });
      expect(r.status, r.text).to.equal(201);
      return r.body.entryId as string;
    };
    early = await event('Dentist', '10:00'); // reminder at 09:00
    late = await event('Piano', '12:00'); // reminder at 11:00
    // A webhook whose first attempt fails: its retry is on A's agenda when A dies.
    const made = await api.post('/webhook-destinations', {
      name: 'Receiver',
      url: receiver!.url,
      eventTypes: ['person.created'],
    });
    expect(made.status, made.text).to.equal(201);
    hook = { id: made.body.destination.id, secret: made.body.signingSecret };
    receiver!.answer = (_d, n) => ({ status: n === 0 ? 500 : 200 });

    clock.set('2026-11-22T09:00:00.000Z');
    await a!.daemon.scheduler.runDue();
    expect(await reminders(api, early)).to.have.length(1);
    expect(jobs(a!).find((j) => j.id === `rem:${early}:0`)).to.equal(undefined);
    expect(await api.post('/people', { name: 'Ana' })).to.have.property('status', 201);
    await receiver!.waitFor(1);
    await a!.daemon.webhooks.idle();
    expect(jobs(a!).filter((j) => j.kind === DELIVER_KIND)).to.have.length(1);
    // A dies right after its last write, before its outbox read it (the outbox stops first, so
    // that nothing of that write goes out from A).
    await a!.daemon.webhooks.stop();
    expect(await api.post('/people', { name: 'Bea' })).to.have.property('status', 201);
    unsent = (await changesAfter(api, 0)).at(-1).id;
    await sleep(100);
    expect(receiver!.deliveries).to.have.length(1);
    // B forwards the family's requests to A while A owns it.
    expect(await reminders(b!.api, early)).to.have.length(1);
    expect(await owned(b!)).to.equal(0);

    await crash(a!);
    const t0 = Date.now();
    while ((await owned(b!)) !== 1) {
      if (Date.now() - t0 > 8_000) throw new Error('B did not take the family within 8 s');
      await sleep(20);
    }
    // Owned means caught up: A's last write (the webhook's retry) is in B's copy already.
    expect(jobs(b!).filter((j) => j.kind === DELIVER_KIND)).to.have.length(1);
    await b!.daemon.scheduler.runDue();
    await b!.daemon.webhooks.idle();
    const once = await reminders(b!.api, early);
    expect(once).to.have.length(1);
    expect(once[0]).to.include({ title: 'Dentist', createdAt: '2026-11-22T09:00:00.000Z' });
    expect(jobs(b!).find((j) => j.id === `rem:${early}:0`)).to.equal(undefined);
  });

  it('delivers from B what A could not, with the same webhook-ids and nothing twice', async function () {
    // B's outbox resumes from the replicated checkpoint: the change A never sent goes out now,
    // under the webhook-id A would have used (the change's id).
    await receiver!.waitFor(2);
    await b!.daemon.webhooks.idle();
    expect(receiver!.deliveries.map((d) => [d.id, d.answered])).to.deep.equal([
      [receiver!.deliveries[0].id, 500],
      [unsent, 200],
    ]);
    // A recorded its failed first attempt and put the retry, leased to nobody, before dying.
    const retry = jobs(b!).find((j) => j.kind === DELIVER_KIND);
    expect(retry?.data).to.include({ attempt: 1, lease: null });
    clock.set(new Date(retry!.dueAt));
    await b!.daemon.scheduler.runDue();
    await b!.daemon.webhooks.idle();
    await receiver!.waitFor(3);
    // Past the lease B took on the retry: a delivery whose answer is recorded is not sent again.
    clock.advance(5 * 60_000);
    await b!.daemon.scheduler.runDue();
    await b!.daemon.webhooks.idle();
    await sleep(300); // anything sent twice would have arrived by now
    const got = receiver!.deliveries;
    const first = got[0].id;
    expect(got.map((d) => [d.id, d.answered])).to.deep.equal([
      [first, 500],
      [unsent, 200],
      [first, 200],
    ]);
    const payloads = got.map((d) => verifyDelivery(hook.secret, d, new Date(d.timestamp * 1000)));
    expect(payloads.map((p) => [p.id, p.type, p.data.object.name])).to.deep.equal([
      [first, 'person.created', 'Ana'],
      [unsent, 'person.created', 'Bea'],
      [first, 'person.created', 'Ana'],
    ]);
    expect(jobs(b!).filter((j) => j.kind === DELIVER_KIND)).to.deep.equal([]);
    const history = (await b!.api.get('/webhook-destinations')).body.destinations.find(
      (d: any) => d.id === hook.id,
    ).history;
    expect(history.map((h: any) => [h.eventId, h.attempt, h.status])).to.have.deep.members([
      [first, 2, 'succeeded'],
      [unsent, 1, 'succeeded'],
      [first, 1, 'retrying'],
    ]);
  });

  it('fires a reminder due after the failover exactly once, on B, and takes it off the agenda', async function () {
    const job = jobs(b!).find((j) => j.id === `rem:${late}:0`);
    expect(job?.dueAt).to.equal(Date.parse('2026-11-22T11:00:00.000Z'));
    clock.set('2026-11-22T11:00:00.000Z');
    await b!.daemon.scheduler.runDue();
    await b!.daemon.scheduler.runDue(); // a second pass finds nothing left to fire
    const fired = await reminders(b!.api, late);
    expect(fired).to.have.length(1);
    expect(fired[0]).to.include({ title: 'Piano', createdAt: '2026-11-22T11:00:00.000Z' });
    expect(jobs(b!).find((j) => j.id === `rem:${late}:0`)).to.equal(undefined);
    const all = (await b!.api.get('/notifications?limit=50')).body.notifications.filter(
      (n: any) => n.kind === 'reminder',
    );
    expect(all.map((n: any) => n.eventId).sort()).to.deep.equal([early, late].sort());
    await b!.daemon.webhooks.idle();
    expect(receiver!.deliveries).to.have.length(3);
  });
});
