/**
 * `npm run bench:cluster`: the write path of a 3-node cluster over 3 clustered JetStream
 * servers (all on this machine, loopback) against the embedded LMDB store, in the same run.
 * It measures the store seam (`BatchCommits.commit`), not HTTP: the daemon does not run cluster
 * mode yet (docs/scaling.md, "State").
 *
 *   npm run bench:cluster -- --seconds=5 --families=30 --inflight=4
 *
 * Each family gets `inflight` writers that commit one change after another (a change is one
 * record and one log entry, as a small API write makes); families are spread over the nodes,
 * each node owning its share. Throughput is commits per second; latency is per commit.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../src/store/store.js';
import type { BatchCommits } from '../src/store/ports.js';
import type { ChangeRecord } from '../src/store/types.js';
import { ClusterNode } from '../src/cluster/node.js';
import { hasNatsServer, startNatsCluster } from '../test/helpers/nats.js';

function arg(name: string, fallback: number): number {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split('=')[1]) : fallback;
}
const SECONDS = arg('seconds', 5);
const FAMILIES = arg('families', 30);
const INFLIGHT = arg('inflight', 4);

function change(seq: number) {
  const record: ChangeRecord = {
    id: `event_${String(seq).padStart(20, '0')}`,
    seq,
    at: new Date().toISOString(),
    type: 'tracker.entry.created',
    actor: { keyId: 'key_bench', personId: null },
    object: { id: `e${seq}`, text: 'Take out the recycling', done: false },
  };
  return { records: [{ table: 'entries', id: `e${seq}`, value: record.object }], log: [record] };
}

interface Result {
  commits: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Runs the writers against `commitsOf(family)` for SECONDS; seq is per family, in order. */
async function run(families: string[], commitsOf: (f: string) => BatchCommits): Promise<Result> {
  const latencies: number[] = [];
  const seqs = new Map(families.map((f) => [f, commitsOf(f).lastSeq(f)]));
  const end = performance.now() + SECONDS * 1000;
  const writer = async (f: string) => {
    while (performance.now() < end) {
      const seq = seqs.get(f)! + 1;
      seqs.set(f, seq);
      const t0 = performance.now();
      await commitsOf(f).commit(f, change(seq));
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(families.flatMap((f) => Array.from({ length: INFLIGHT }, () => writer(f))));
  const took = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))];
  return {
    commits: latencies.length,
    perSecond: latencies.length / took,
    p50: pct(50),
    p99: pct(99),
  };
}

function line(name: string, r: Result): string {
  return `| ${name} | ${r.commits} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`;
}

async function main(): Promise<void> {
  if (!hasNatsServer())
    throw new Error('nats-server is not installed (Debian package nats-server)');
  const families = Array.from({ length: FAMILIES }, (_, i) => `fam_bench${i}`);
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'household-bench-cluster-'));
    dirs.push(d);
    return d;
  };

  const embedded = Store.open(dir());
  const single = await run(families, () => embedded);
  await embedded.close();

  const nats = await startNatsCluster(SECONDS * 4 + 60);
  const stores: Store[] = [];
  const nodes: ClusterNode[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const store = Store.open(dir());
      stores.push(store);
      nodes.push(
        await ClusterNode.start(
          {
            natsServers: [nats.urls[i]],
            nodeName: `bench${i}`,
            advertiseUrl: 'http://127.0.0.1:1',
            secret: 'b'.repeat(32),
            leaseSeconds: 10,
            replicas: 3,
            credsFile: null,
            tls: null,
          },
          store,
          { replicas: 3 },
        ),
      );
    }
    const ownerOf = new Map(families.map((f, i) => [f, nodes[i % 3].commits]));
    for (const [f, commits] of ownerOf) {
      if (!(await commits.own(f))) throw new Error(`could not take ${f}`);
    }
    const cluster = await run(families, (f) => ownerOf.get(f)!);
    process.stdout.write(
      [
        `${FAMILIES} families × ${INFLIGHT} writers each, ${SECONDS} s per case, one change per commit`,
        '',
        '| case | commits | commits/s | p50 ms | p99 ms |',
        '|---|---|---|---|---|',
        line('embedded (LMDB, one process)', single),
        line('cluster (3 nodes, JetStream R3 on 3 servers)', cluster),
        '',
      ].join('\n'),
    );
  } finally {
    for (const n of nodes) await n.close().catch(() => undefined);
    for (const s of stores) await s.close().catch(() => undefined);
    await nats.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
