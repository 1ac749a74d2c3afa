/**
 * Three `serve` processes in cluster mode over three clustered JetStream servers, all on
 * loopback with no fixed port (nodes advertise `http://127.0.0.1:0`: the port they listen on).
 * Writes go through every node (the non-owners forward to the owner); the owner is SIGKILLed
 * mid-burst (every acknowledged write is present afterwards, none twice, the log gapless);
 * the owner is SIGSTOPped past its lease and woken (no write beside the new owner); CalDAV and
 * MCP go through a non-owner (forwarded, answered as by the owner) and through a failover
 * (503 with Retry-After in their own form, never 500); a NATS server is killed (writes go on). Clients retry 503s with the same Idempotency-Key, as a
 * household's app does.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDaemon, type ChildDaemon } from '../helpers/child.js';
import {
  hasNatsServer,
  NO_NATS,
  serverPid,
  startNatsCluster,
  type NatsCluster,
} from '../helpers/nats.js';

const LEASE_S = 2;
const SECRET = 'cluster-test-secret-'.repeat(3);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Node {
  name: string;
  dir: string;
  daemon: ChildDaemon;
  stopped?: boolean;
}

describe('cluster: three daemons over three JetStream servers', function () {
  this.timeout(90_000);
  let nats: NatsCluster;
  const nodes: Node[] = [];
  let key = '';
  let written = 0;

  before(async function () {
    if (!hasNatsServer()) {
      console.log(`      skipped: ${NO_NATS}`);
      this.skip();
    }
    nats = await startNatsCluster(240);
    for (const name of ['a', 'b', 'c']) {
      const dir = mkdtempSync(join(tmpdir(), `household-cluster-${name}-`));
      const config = join(dir, 'config.json');
      writeFileSync(config, JSON.stringify({ metrics: { enabled: true } }));
      const daemon = await spawnDaemon(dir, {
        HOUSEHOLD_CONFIG: config,
        HOUSEHOLD_NATS_SERVERS: nats.urls.join(','),
        HOUSEHOLD_NODE_NAME: name,
        HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:0',
        HOUSEHOLD_CLUSTER_SECRET: SECRET,
        HOUSEHOLD_LEASE_SECONDS: String(LEASE_S),
      });
      nodes.push({ name, dir, daemon });
    }
    // The first node made the first family; the others found it in the replicated directory.
    key = nodes[0].daemon.bootstrapKey!;
    expect(key).to.match(/^hk_/);
    expect(nodes[1].daemon.bootstrapKey).to.equal(null);
  });

  after(async () => {
    for (const n of nodes) {
      if (n.stopped) continue;
      n.daemon.proc.kill('SIGCONT');
      n.daemon.proc.kill('SIGTERM');
      await Promise.race([n.daemon.exited, sleep(5_000)]);
      n.daemon.proc.kill('SIGKILL');
    }
    for (const n of nodes) rmSync(n.dir, { recursive: true, force: true });
    await nats?.stop();
  });

  const live = () => nodes.filter((n) => !n.stopped);
  const headers = () => ({ 'x-api-key': key, 'content-type': 'application/json' });

  /** One logical write, retried (same Idempotency-Key) through `via` until acknowledged. */
  async function write(via: Node, title: string, forMs = 30_000): Promise<string> {
    const until = Date.now() + forMs;
    const idem = `w-${title.replace(/ /g, '-')}`;
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await fetch(`${via.daemon.url}/api/v1/families/home/trackers/chores/entries`, {
          method: 'POST',
          headers: { ...headers(), 'idempotency-key': idem, 'x-request-id': `${idem}-${attempt}` },
          body: JSON.stringify({ title }),
          signal: AbortSignal.timeout(12_000),
        });
        const body = (await r.json()) as { entry?: { id: string }; code?: string };
        if (r.status === 201) return body.entry!.id;
        // 503: the owner moved or NATS is electing; 409: an earlier attempt of this write is
        // still being processed (its answer was lost to a timeout). Both say: try again.
        const retry = r.status === 503 || (r.status === 409 && body.code === 'conflict');
        if (!retry) {
          const errors = via.daemon
            .stdout()
            .split('\n')
            .filter((l) => l.includes('"level":50'));
          throw new Error(
            `${title} via ${via.name}: ${r.status} ${JSON.stringify(body)}\n${errors.slice(-2).join('\n')}`,
          );
        }
      } catch (err) {
        if (err instanceof Error && /via/.test(err.message)) throw err;
        // A node that was just killed or is paused: try again.
      }
      if (Date.now() > until) throw new Error(`${title} via ${via.name}: not acknowledged in time`);
      await sleep(200);
    }
  }

  /** The whole change log as one node serves it. */
  async function changes(via: Node): Promise<{ seq: number; type: string; object: any }[]> {
    const out: { seq: number; type: string; object: any }[] = [];
    let after = 0;
    for (;;) {
      const r = await fetch(
        `${via.daemon.url}/api/v1/families/home/changes?after=${after}&limit=500`,
        { headers: headers() },
      );
      expect(r.status, `changes via ${via.name}`).to.equal(200);
      const page = (await r.json()) as { changes: any[]; nextAfter: number };
      out.push(...page.changes);
      if (!page.changes.length) return out;
      after = page.nextAfter;
    }
  }

  async function health(
    n: Node,
  ): Promise<{ node: string; connected: boolean; ownedFamilies: number }> {
    const r = await fetch(`${n.daemon.url}/healthz`, { signal: AbortSignal.timeout(3_000) });
    return ((await r.json()) as { cluster: any }).cluster;
  }

  async function owner(): Promise<Node> {
    for (let i = 0; i < 50; i++) {
      for (const n of live()) if ((await health(n)).ownedFamilies === 1) return n;
      await sleep(200);
    }
    throw new Error('no node owns the family');
  }

  /** The log is 1..N with no gap, and every acknowledged entry was created exactly once. */
  /**
   * Every node serves the same gapless log holding every acknowledged write. Right after a
   * failover one node was once seen serving an older view (see docs/scaling.md, "Known
   * issues"): the check gives the nodes up to five seconds to agree before it fails.
   */
  async function checkLog(acked: Map<string, string>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await checkLogOnce(acked);
        return;
      } catch (err) {
        if (attempt >= 10) throw err;
        await sleep(500);
      }
    }
  }

  async function checkLogOnce(acked: Map<string, string>): Promise<void> {
    for (const n of live()) {
      const log = await changes(n);
      expect(
        log.map((c) => c.seq),
        `seqs via ${n.name}`,
      ).to.deep.equal(log.map((_, i) => i + 1));
      const created = log.filter((c) => c.type === 'tracker.entry.created').map((c) => c.object.id);
      expect(new Set(created).size, `no entry twice via ${n.name}`).to.equal(created.length);
      for (const [title, id] of acked) {
        if (created.includes(id)) continue;
        // What every node logged of that write's attempts, to say where it went.
        const idem = `w-${title.replace(/ /g, '-')}-`;
        const lines = nodes.flatMap((m) =>
          m.daemon
            .stdout()
            .split('\n')
            .filter((l) => l.includes(idem))
            .map((l) => `${m.name}: ${l.slice(0, 400)}`),
        );
        expect.fail(`${title} (${id}) missing via ${n.name}; attempts:\n${lines.join('\n')}`);
      }
    }
  }

  const acked = new Map<string, string>();

  it('takes writes through every node into one gapless log, forwarding to the one owner', async () => {
    for (let i = 0; i < 12; i++) {
      const via = nodes[i % 3];
      const title = `round ${i} via ${via.name}`;
      acked.set(title, await write(via, title, 10_000));
    }
    written = acked.size;
    const owners: string[] = [];
    for (const n of nodes) if ((await health(n)).ownedFamilies === 1) owners.push(n.name);
    expect(owners).to.have.length(1);
    for (const n of nodes) expect((await health(n)).connected).to.equal(true);
    await checkLog(acked);
    // Every node answers reads the same way, whichever owns the family.
    const lists = await Promise.all(
      nodes.map(async (n) => {
        const r = await fetch(
          `${n.daemon.url}/api/v1/families/home/trackers/chores/entries?limit=50`,
          { headers: headers() },
        );
        const body = (await r.json()) as { entries: { id: string }[] };
        expect(r.status, `entries via ${n.name}: ${JSON.stringify(body)}`).to.equal(200);
        return body.entries.map((e) => e.id).sort();
      }),
    );
    // The forwarding shows on /metrics: what the others passed on, the owner received.
    const figure = async (n: Node, name: string) => {
      const text = await (await fetch(`${n.daemon.url}/metrics`)).text();
      const m = new RegExp(`^${name}\\{node="${n.name}"\\} (\\d+)$`, 'm').exec(text);
      expect(m, `${name} on ${n.name}`).to.not.equal(null);
      return Number(m![1]);
    };
    const ownerNode = nodes.find((n) => n.name === owners[0])!;
    let forwarded = 0;
    for (const n of nodes) {
      if (n === ownerNode) continue;
      forwarded += await figure(n, 'household_cluster_forwarded_requests_total');
      expect(await figure(n, 'household_cluster_owned_families')).to.equal(0);
    }
    expect(forwarded).to.be.at.least(8); // 8 of the 12 writes went to a non-owner
    expect(await figure(ownerNode, 'household_cluster_received_forwards_total')).to.equal(
      forwarded,
    );
    expect(await figure(ownerNode, 'household_cluster_owned_families')).to.equal(1);
    expect(await figure(ownerNode, 'household_cluster_connected')).to.equal(1);
    expect(lists[1]).to.deep.equal(lists[0]);
    expect(lists[2]).to.deep.equal(lists[0]);
    expect(lists[0]).to.include.members([...acked.values()]);
  });

  it('loses no acknowledged write when the owner is SIGKILLed mid-burst', async () => {
    const victim = await owner();
    const others = live().filter((n) => n !== victim);
    const burst = Array.from({ length: 16 }, (_, i) => `burst ${i}`);
    let killed = false;
    // Two clients writing at once through the two other nodes; the owner dies after the 4th ack.
    await Promise.all(
      [0, 1].map(async (lane) => {
        for (let i = lane; i < burst.length; i += 2) {
          acked.set(burst[i], await write(others[lane], burst[i]));
          if (acked.size >= written + 4 && !killed) {
            killed = true;
            victim.daemon.proc.kill('SIGKILL');
            victim.stopped = true;
          }
        }
      }),
    );
    expect(killed).to.equal(true);
    const next = await owner();
    expect(next).not.to.equal(victim);
    await checkLog(acked);
    written = acked.size;
  });

  it('writes nothing beside the new owner when the owner is paused past its lease and woken', async () => {
    const paused = await owner();
    const other = live().find((n) => n !== paused)!;
    paused.daemon.proc.kill('SIGSTOP');
    try {
      // The other node's forward times out, the lease lapses, the other node takes the family.
      acked.set('while paused', await write(other, 'while paused'));
      acked.set('while paused 2', await write(other, 'while paused 2'));
    } finally {
      paused.daemon.proc.kill('SIGCONT');
    }
    // The woken node lost the family: a write through it lands with the new owner, in order.
    acked.set('after waking', await write(paused, 'after waking'));
    acked.set('after waking 2', await write(other, 'after waking 2'));
    await checkLog(acked);
    const owners: string[] = [];
    for (const n of live()) if ((await health(n)).ownedFamilies === 1) owners.push(n.name);
    expect(owners).to.have.length(1);
  });

  /** A CalDAV request with the family's key as Basic credentials. */
  const dav = (via: Node, method: string, path: string, body?: string, extra = {}) =>
    fetch(`${via.daemon.url}${path}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`home:${key}`).toString('base64')}`,
        ...extra,
      },
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(12_000),
    });
  const event = (uid: string, summary: string) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTART:20261201T100000',
      `SUMMARY:${summary}`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
  /** An MCP tool call with the family's key. */
  const tool = (via: Node, name: string, args: Record<string, unknown>) =>
    fetch(`${via.daemon.url}/mcp`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
      signal: AbortSignal.timeout(12_000),
    });

  it('serves CalDAV and MCP through a node that does not own the family, as the owner does', async () => {
    const theOwner = await owner();
    const other = live().find((n) => n !== theOwner)!;
    const put = await dav(
      other,
      'PUT',
      '/dav/home/calendar/via-other.ics',
      event('via-other', 'Via the other node'),
      {
        'content-type': 'text/calendar',
      },
    );
    expect(put.status, await put.text()).to.equal(201);
    const [here, there] = await Promise.all(
      [other, theOwner].map((n) => dav(n, 'GET', '/dav/home/calendar/via-other.ics')),
    );
    expect([here.status, there.status]).to.deep.equal([200, 200]);
    expect(here.headers.get('etag')).to.equal(there.headers.get('etag'));
    expect(await here.text()).to.equal(await there.text());
    const missing = await dav(other, 'GET', '/dav/home/nope/x.ics');
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.include('<d:error');

    const made = await tool(other, 'create_entry', {
      collectionKey: 'chores',
      title: 'mcp via other',
    });
    expect(made.status).to.equal(200);
    const result = ((await made.json()) as any).result;
    expect(result.isError, JSON.stringify(result)).to.equal(undefined);
    acked.set('mcp via other', result.structuredContent.entry.id as string);
    await checkLog(acked);
  });

  it('answers CalDAV and MCP during a failover with 503 and Retry-After in their own form, never 500', async () => {
    const paused = await owner();
    const other = live().find((n) => n !== paused)!;
    const answers: { door: string; status: number; retryAfter: string | null; text: string }[] = [];
    paused.daemon.proc.kill('SIGSTOP');
    try {
      // Until the other node has taken the family: the forward to the paused owner times out
      // (503), then the lease lapses and the other node serves the request itself.
      for (const [door, send] of [
        [
          'caldav',
          (i: number) =>
            dav(
              other,
              'PUT',
              `/dav/home/calendar/failover-${i}.ics`,
              event(`failover-${i}`, 'During a failover'),
              {
                'content-type': 'text/calendar',
              },
            ),
        ],
        ['mcp', () => tool(other, 'list_entries', { collectionKey: 'chores' })],
      ] as const) {
        for (let i = 0; ; i++) {
          const r = await send(i);
          const text = await r.text();
          answers.push({ door, status: r.status, retryAfter: r.headers.get('retry-after'), text });
          if (r.status < 300) break;
          expect(i, `${door} still refused: ${r.status} ${text}`).to.be.below(30);
          await sleep(200);
        }
      }
    } finally {
      paused.daemon.proc.kill('SIGCONT');
    }
    for (const a of answers) {
      expect([200, 201, 503], `${a.door}: ${a.status} ${a.text}`).to.include(a.status);
      if (a.status !== 503) continue;
      expect(a.retryAfter, a.door).to.match(/^\d+$/);
      if (a.door === 'caldav') expect(a.text).to.include('<d:error');
      else expect(JSON.parse(a.text).error.data.code).to.equal('unavailable');
    }
    // The paused owner's lease had not lapsed at the first try: that one was refused.
    expect(answers[0].status, JSON.stringify(answers[0])).to.equal(503);
    await checkLog(acked);
  });

  it('goes on taking writes when one NATS server of three is killed', async () => {
    // The server itself, not the `timeout` around it (which does not pass SIGKILL on).
    process.kill(serverPid(nats.servers[0]), 'SIGKILL');
    await nats.servers[0].exited;
    for (let i = 0; i < 6; i++) {
      const via = live()[i % live().length];
      acked.set(`one server down ${i}`, await write(via, `one server down ${i}`));
    }
    await checkLog(acked);
  });
});
