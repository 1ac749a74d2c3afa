/**
 * Two daemons in this process over three real clustered JetStream servers on loopback: A owns
 * the family, B forwards its requests to A.
 *
 * - Forwards carry the client: B signs the client's address into every forward, and A counts
 *   a forwarded 401 under that address (and logs it), not under B's — so one client's bad keys
 *   sent through B spend that client's budget of failures only, not every client's B forwards.
 *   Distinct clients are distinct loopback source addresses (127.0.0.2, 127.0.0.3).
 * - Exactly once across a failover: A answers a write, then "crashes" (as the others see a
 *   crash: no renewal, no NATS, no HTTP, its lease left to expire). The client, which never got
 *   the answer, retries with the same Idempotency-Key through B, whose copy of the family is
 *   behind the log until the request itself makes B take the family over. The retry is
 *   answered with the first answer, and the family holds the write once.
 *
 * The tests run in order: the failover comes last.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { deepMerge, loadConfig, type Config, type DeepPartial } from '../../src/config.js';
import type { ClusterTopology } from '../../src/cluster/topology.js';
import { startDaemon, type Daemon } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { Client, tempDataDir } from '../helpers/server.js';
import { clusterFamily } from '../helpers/clusterFamily.js';
import { hasNatsServer, NO_NATS, startNatsCluster, type NatsCluster } from '../helpers/nats.js';

const LEASE_S = 2;
const SLUG = 'home';
/** 401s an address may collect in a minute before it is refused outright. */
const PUBLIC_PER_MINUTE = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Node {
  daemon: Daemon;
  dataDir: string;
  api: Client;
  /** The node's JSON log lines. */
  log: string[];
}

/** A node's cluster membership, behind its topology. */
const runtimeOf = (n: Node) => (n.daemon.topology as ClusterTopology).runtime;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request from the given loopback source address (the client's address as nodes see it). */
function from(
  source: string,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        localAddress: source,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? JSON.parse(text) : null,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('cluster: two nodes, one owner', function () {
  this.timeout(90_000);
  let nats: NatsCluster | undefined;
  let a: Node | undefined;
  let b: Node | undefined;
  let apiKey = '';
  let familyId = '';

  async function startNode(name: string): Promise<Node> {
    const dataDir = tempDataDir();
    const config: Config = loadConfig({
      env: {},
      overrides: deepMerge(
        {
          server: { host: '127.0.0.1', port: 0, publicUrl: 'http://share.test' },
          storage: { dataDir },
          log: { level: 'info' },
          rateLimit: { perMinute: 100_000, publicPerMinute: PUBLIC_PER_MINUTE },
          families: { bootstrapSlug: null, defaultTimezone: 'UTC' },
        },
        {
          cluster: {
            natsServers: nats!.urls,
            nodeName: name,
            advertiseUrl: 'http://127.0.0.1:0',
            secret: 'failover-cluster-secret-'.padEnd(40, 'x'),
            leaseSeconds: LEASE_S,
            replicas: 3,
            credsFile: null,
            tls: null,
          },
        },
      ) as DeepPartial<Config>,
    });
    const log: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void log.push(line) });
    const daemon = await startDaemon(config, { logger });
    return {
      daemon,
      dataDir,
      api: new Client(`${daemon.url}/api/v1/families/${SLUG}`, null),
      log,
    };
  }

  /** What a crash of `n` looks like to the others: no renewal, no NATS, no HTTP answer. */
  async function crash(n: Node): Promise<void> {
    await runtimeOf(n).halt();
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
    a = await startNode('a');
    ({ apiKey, familyId } = await clusterFamily(a.daemon.store, SLUG));
    a.api.key = apiKey;
    // The first request takes the family on A; B starts only once A holds it.
    expect((await a.api.get('/people')).status).to.equal(200);
    b = await startNode('b');
    b.api.key = apiKey;
    expect(runtimeOf(b).owns(familyId)).to.equal(false);
  });

  after(async () => {
    for (const n of [a, b]) {
      if (!n) continue;
      await n.daemon.close();
      rmSync(n.dataDir, { recursive: true, force: true });
    }
    await nats?.stop();
  });

  describe('forwarded requests carry the client', () => {
    it("counts a forwarded 401 under the client's address: another client's bad key through the same node is still a 401", async () => {
      const people = '/api/v1/families/home/people';
      const badKey = `hk_${'x'.repeat(12)}_${'y'.repeat(32)}`;
      const guess = (source: string, id: string) =>
        from(source, b!.daemon.url, 'GET', people, { 'x-api-key': badKey, 'x-request-id': id });
      for (let i = 0; i < PUBLIC_PER_MINUTE; i++) {
        expect((await guess('127.0.0.2', `bad-${i}`)).status, `bad key ${i}`).to.equal(401);
      }
      expect(runtimeOf(b!).forwards.forwarded).to.be.at.least(PUBLIC_PER_MINUTE);
      // The guessing client has spent its address's failures on the owner…
      const spent = await guess('127.0.0.2', 'bad-spent');
      expect(spent.status).to.equal(429);
      expect(spent.body.error).to.match(/missing or invalid API key from this address/);
      // …another client sending through the same node has not: its mistake is a plain 401, and
      // its valid key is served.
      expect((await guess('127.0.0.3', 'bad-other')).status).to.equal(401);
      const other = await from('127.0.0.3', b!.daemon.url, 'GET', people, { 'x-api-key': apiKey });
      expect(other.status, JSON.stringify(other.body)).to.equal(200);
      // The owner's request log names the client, not the node that forwarded it.
      const lines = a!.log.map((l) => JSON.parse(l) as { requestId?: string; ip?: string });
      expect(lines.find((l) => l.requestId === 'bad-0')).to.include({
        status: 401,
        ip: '127.0.0.2',
      });
      expect(lines.find((l) => l.requestId === 'bad-other')).to.include({ ip: '127.0.0.3' });
    });
  });

  describe('Idempotency-Key across a failover', () => {
    it('answers a retry that reaches the next owner before it caught up with the first answer, and writes once', async () => {
      const headers = { 'x-api-key': apiKey, 'idempotency-key': 'failover-once' };
      const first = await from(
        '127.0.0.4',
        a!.daemon.url,
        'POST',
        '/api/v1/families/home/people',
        headers,
        {
          name: 'Written Once',
        },
      );
      expect(first.status).to.equal(201);
      // A dies before the client reads its answer; B must not sweep the family up on its own,
      // so that the retry is what makes B take it (and B's copy is behind the log until then).
      await crash(a!);
      const bc = runtimeOf(b!);
      await bc.releaseAll();
      bc.resumeRenewing();
      const until = Date.now() + 8_000;
      while ((await bc.ownerOf(familyId, true)) !== null) {
        if (Date.now() > until) throw new Error("A's lease did not expire");
        await sleep(50);
      }
      expect(bc.owns(familyId)).to.equal(false);
      const retry = await from(
        '127.0.0.4',
        b!.daemon.url,
        'POST',
        '/api/v1/families/home/people',
        headers,
        {
          name: 'Written Once',
        },
      );
      expect(retry.status, JSON.stringify(retry.body)).to.equal(201);
      expect(retry.headers['idempotent-replayed']).to.equal('true');
      expect(retry.body).to.deep.equal(first.body);
      expect(bc.owns(familyId)).to.equal(true);
      const named = (await b!.api.get('/people')).body.people.filter(
        (p: any) => p.name === 'Written Once',
      );
      expect(named).to.have.length(1);
      // The same key with another body is still refused, on the new owner.
      const other = await from(
        '127.0.0.4',
        b!.daemon.url,
        'POST',
        '/api/v1/families/home/people',
        headers,
        {
          name: 'Someone Else',
        },
      );
      expect(other.status).to.equal(422);
      expect(other.body.code).to.equal('idempotency_mismatch');
    });
  });
});
