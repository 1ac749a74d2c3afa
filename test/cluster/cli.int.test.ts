/**
 * The command line on a cluster, run as the real executable with the cluster's environment
 * variables beside a daemon in cluster mode (three clustered JetStream servers on loopback): a
 * family made on the CLI is served by the daemon with the printed key; a revoked key is refused
 * once the revocation reaches it through the log; `family update` reaches the family's actor;
 * `backup` writes one export per family; `cluster restore` puts that backup into a second, fresh
 * cluster whose daemon then serves the same entries, keys and change log; `cluster import` moves
 * an embedded store's
 * family in with its old key; clashes are refused naming the slug. The CLI never makes a local
 * store (its --data-dir stays empty).
 */
import { expect } from 'chai';
import { until } from '../helpers/until.js';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/child.js';
import { hasNatsServer, NO_NATS, startNatsCluster, type NatsCluster } from '../helpers/nats.js';
import { Client, startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { loadConfig } from '../../src/config.js';
import { startDaemon, type Daemon } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';

const SECRET = 's'.repeat(32);

function clusterOverrides(nats: NatsCluster, nodeName: string) {
  return {
    cluster: {
      natsServers: nats.urls,
      nodeName,
      // Nothing is forwarded in these tests: one daemon per cluster.
      advertiseUrl: 'http://127.0.0.1:1',
      secret: SECRET,
      leaseSeconds: 2,
      replicas: 3,
      credsFile: null,
      tls: null,
    },
  };
}

function cliEnv(nats: NatsCluster, dataDir: string): Record<string, string> {
  return {
    HOUSEHOLD_NATS_SERVERS: nats.urls.join(','),
    HOUSEHOLD_NODE_NAME: 'ops',
    HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:1',
    HOUSEHOLD_CLUSTER_SECRET: SECRET,
    HOUSEHOLD_LEASE_SECONDS: '2',
    HOUSEHOLD_DATA_DIR: dataDir,
  };
}

function json(r: CliResult): any {
  expect(r.code, r.stderr).to.equal(0);
  return JSON.parse(r.stdout);
}

describe('cluster: the command line acts on the cluster', function () {
  this.timeout(120_000);
  let nats: NatsCluster | undefined;
  let nats2: NatsCluster | undefined;
  let server: TestServer | undefined;
  let server2: TestServer | undefined;
  let embedded: Daemon | undefined;
  const dirs: string[] = [];
  const dir = () => {
    const d = tempDataDir();
    dirs.push(d);
    return d;
  };
  let cliDir: string;
  let env: Record<string, string>;
  let smithsKey: string;
  let backupDir: string;

  before(async function () {
    if (!hasNatsServer()) {
      console.log(`      skipped: ${NO_NATS}`);
      this.skip();
    }
    nats = await startNatsCluster(90);
    server = await startTestServer({ overrides: clusterOverrides(nats, 'd1') });
    cliDir = dir();
    env = cliEnv(nats, cliDir);
  });

  after(async () => {
    await server?.close();
    await server2?.close();
    await embedded?.close();
    await nats?.stop();
    await nats2?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('family create: the daemon serves the family with the printed key', async () => {
    const made = json(
      await runCli(['family', 'create', 'smiths', '--name', 'The Smiths', '--json'], env),
    );
    smithsKey = made.apiKey;
    const api = new Client(`${server!.url}/api/v1/families/smiths`, smithsKey);
    const got = await api.get('');
    expect(got.status).to.equal(200);
    expect(got.body.family).to.include({ slug: 'smiths', name: 'The Smiths' });
    const list = json(await runCli(['family', 'list', '--json'], env));
    expect(list.families.map((f: { slug: string }) => f.slug).sort()).to.deep.equal([
      'home',
      'smiths',
    ]);
    // The CLI made no store of its own.
    expect(readdirSync(cliDir)).to.deep.equal([]);
  });

  it('key create and revoke: the daemon accepts the key, then refuses it once the revocation reaches it through the log', async () => {
    const made = json(await runCli(['key', 'create', 'smiths', '--scopes', 'read', '--json'], env));
    const api = new Client(`${server!.url}/api/v1/families/smiths`, made.apiKey);
    expect((await api.get('')).status).to.equal(200);
    const keys = json(await runCli(['key', 'list', 'smiths', '--json'], env));
    expect(keys.keys.map((k: { id: string }) => k.id)).to.include(made.key.id);
    json(await runCli(['key', 'revoke', made.key.id, '--json'], env));
    const status = await until('the revoked key refused', async () => {
      const s = (await api.get('')).status;
      return s === 401 ? s : undefined;
    });
    expect(status).to.equal(401);
    const again = await runCli(['key', 'revoke', made.key.id], env);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.match(/already revoked/);
  });

  it("family update: applied on the family's actor, the daemon shows the new zone", async () => {
    const r = json(
      await runCli(['family', 'update', 'smiths', '--timezone', 'Europe/Berlin', '--json'], env),
    );
    expect(r.applied).to.equal(true);
    expect(r.family.timezone).to.equal('Europe/Berlin');
    const api = new Client(`${server!.url}/api/v1/families/smiths`, smithsKey);
    expect((await api.get('')).body.family.timezone).to.equal('Europe/Berlin');
  });

  it('backup: one export per family holding what the daemon wrote, and a manifest', async () => {
    const api = new Client(`${server!.url}/api/v1/families/smiths`, smithsKey);
    for (const title of ['milk', 'bread', 'eggs'])
      expect((await api.post('/trackers/groceries/entries', { title })).status).to.equal(201);
    const changes = (await api.get('/changes?after=0&limit=500')).body.changes as { seq: number }[];
    backupDir = join(dir(), 'backup');
    const r = json(await runCli(['backup', backupDir, '--json'], env));
    expect(r.families.map((f: { slug: string }) => f.slug).sort()).to.deep.equal([
      'home',
      'smiths',
    ]);
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    const smiths = manifest.families.find((f: { slug: string }) => f.slug === 'smiths');
    expect(smiths.lastSeq).to.equal(changes[changes.length - 1].seq);
    expect(smiths.owner).to.equal('d1');
    expect(manifest.nodes).to.include('d1');
    const doc = JSON.parse(readFileSync(join(backupDir, smiths.file), 'utf8'));
    expect(doc.format).to.equal('household-organizer/family-export');
    expect(doc.family.timezone).to.equal('Europe/Berlin');
    const titles = doc.records
      .filter((x: { table: string }) => x.table === 'entries')
      .map((x: { value: { title: string } }) => x.value.title);
    expect(titles).to.include.members(['milk', 'bread', 'eggs']);
    expect(doc.log.map((c: { seq: number }) => c.seq)).to.deep.equal(changes.map((c) => c.seq));
    // A second backup into the same folder is refused.
    expect((await runCli(['backup', backupDir], env)).code).to.equal(1);
  });

  it('cluster restore: a second cluster serves the same entries, keys and change log', async () => {
    nats2 = await startNatsCluster(90);
    const env2 = cliEnv(nats2, dir());
    const r = json(await runCli(['cluster', 'restore', backupDir, '--json'], env2));
    expect(r.counts.families).to.equal(2);
    server2 = await startTestServer({ overrides: clusterOverrides(nats2, 'e1') });
    const before = new Client(`${server!.url}/api/v1/families/smiths`, smithsKey);
    const after = new Client(`${server2.url}/api/v1/families/smiths`, smithsKey);
    const [a, b] = await Promise.all(
      [before, after].map((c) => c.get('/trackers/groceries/entries')),
    );
    expect(b.status).to.equal(200);
    expect(b.body.entries).to.deep.equal(a.body.entries);
    expect(b.body.entries.map((e: { title: string }) => e.title)).to.include('milk');
    const [ca, cb] = await Promise.all(
      [before, after].map((c) => c.get('/changes?after=0&limit=500')),
    );
    expect(cb.body.changes.map((c: { seq: number }) => c.seq)).to.deep.equal(
      ca.body.changes.map((c: { seq: number }) => c.seq),
    );
    expect((await after.get('')).body.family.timezone).to.equal('Europe/Berlin');
    // The daemon can write on it: the restored family's log goes on from where it was.
    expect((await after.post('/trackers/groceries/entries', { title: 'jam' })).status).to.equal(
      201,
    );
    const clash = await runCli(['cluster', 'restore', backupDir], env2);
    expect(clash.code).to.equal(1);
    expect(clash.stderr).to.match(/"smiths"/);
  });

  it("export, key create --person and grant list read the family's records on the cluster", async () => {
    const api = new Client(`${server!.url}/api/v1/families/smiths`, smithsKey);
    const person = (await api.post('/people', { name: 'Ana' })).body.person;
    const changes = (await api.get('/changes?after=0&limit=500')).body.changes as { seq: number }[];
    const [exported, keyed, grants] = await Promise.all([
      runCli(['export', 'smiths'], env),
      runCli(['key', 'create', 'smiths', '--person', person.id, '--json'], env),
      runCli(['grant', 'list', 'smiths', '--json'], env),
    ]);
    const doc = json(exported);
    expect(doc.log.map((c: { seq: number }) => c.seq)).to.deep.equal(changes.map((c) => c.seq));
    expect(doc.checkpoints ?? []).to.deep.equal([]);
    const key = json(keyed);
    expect(key.key.personId).to.equal(person.id);
    const asAna = new Client(`${server!.url}/api/v1/families/smiths`, key.apiKey);
    expect((await asAna.get('')).body.key.personId).to.equal(person.id);
    expect(json(grants).grants).to.deep.equal([]);
  });

  it('cluster import: an embedded store moves in with its entries and old key; clash refused', async () => {
    const source = dir();
    const made = JSON.parse(
      (await runCli(['family', 'create', 'jones', '--json', '--data-dir', source])).stdout,
    );
    const config = loadConfig({
      env: {},
      overrides: {
        server: { host: '127.0.0.1', port: 0 },
        storage: { dataDir: source },
        families: { bootstrapSlug: null },
      },
    });
    embedded = await startDaemon(config, { logger: createLogger('silent') });
    const old = new Client(`${embedded.url}/api/v1/families/jones`, made.apiKey);
    for (const title of ['soap', 'rice'])
      expect((await old.post('/trackers/groceries/entries', { title })).status).to.equal(201);
    const entries = (await old.get('/trackers/groceries/entries')).body.entries;
    await embedded.close();
    embedded = undefined;
    const r = json(await runCli(['cluster', 'import', source, '--json'], env));
    expect(r.families.map((f: { slug: string }) => f.slug)).to.deep.equal(['jones']);
    expect(r.counts.keys).to.equal(1);
    const moved = new Client(`${server!.url}/api/v1/families/jones`, made.apiKey);
    const got = await moved.get('/trackers/groceries/entries');
    expect(got.status).to.equal(200);
    expect(got.body.entries).to.deep.equal(entries);
    const clash = await runCli(['cluster', 'import', source], env);
    expect(clash.code).to.equal(1);
    expect(clash.stderr).to.match(/"jones"/);
    expect(existsSync(join(cliDir, 'household.mdb'))).to.equal(false);
  });

  it('cluster commands without a cluster configuration are a usage error', async () => {
    const r = await runCli(['cluster', 'import', dir()], { HOUSEHOLD_DATA_DIR: dir() });
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/acts on a cluster/);
  });
});
