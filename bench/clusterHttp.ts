/**
 * `npm run bench:cluster-http`: API writes (POST an entry) through a 3-node cluster of daemons
 * over 3 clustered JetStream servers, against one embedded daemon, in the same run, all on this
 * machine over loopback. Clients spread their writes over the three nodes, as a load balancer
 * would: two thirds of them reach a node that does not own the family and are forwarded.
 *
 *   npm run bench:cluster-http -- --seconds=5 --families=6 --inflight=4 [--sync=default]
 *
 * The NATS servers sync every write before acknowledging it, as compose.cluster.yaml ships them
 * (config/nats.conf); `--sync=default` runs them on NATS's default (a sync every two minutes),
 * to measure what `always` costs. A server before 2.10 knows neither: it runs its default.
 *
 * Reported per case: writes/s, p50/p99 latency, and CPU milliseconds per write of the daemons
 * and of the NATS servers (from /proc: the stable figure on a shared 2-core machine).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnDaemon, type ChildDaemon } from '../test/helpers/child.js';
import {
  hasNatsServer,
  natsServerVersion,
  natsSyncsAlways,
  serverPid,
  startNatsCluster,
} from '../test/helpers/nats.js';

function arg(name: string, fallback: number): number {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split('=')[1]) : fallback;
}
const SECONDS = arg('seconds', 5);
const FAMILIES = arg('families', 6);
const INFLIGHT = arg('inflight', 4);
const SYNC = process.argv.includes('--sync=default') ? 'default' : 'always';
/** `--profile=DIR`: every daemon writes a V8 CPU profile into DIR/<case> (node --cpu-prof). */
const BREAKDOWN = process.argv.includes('--breakdown');
const PROFILE = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const profiled = (name: string): Record<string, string> =>
  PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(PROFILE, name)}` } : {};
const TICK_MS = 1000 / 100; // USER_HZ on Linux

function cpuMs(pid: number | undefined, only?: 'system'): number {
  if (!pid) return 0;
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const system = Number(f[12]);
    return (only ? system : Number(f[11]) + system) * TICK_MS; // utime + stime
  } catch {
    return 0;
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
function post(url: string, key: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Result {
  writes: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
  daemonCpuMsPerWrite: number;
  natsCpuMsPerWrite: number;
  /** Each daemon's share: CPU ms per write (of all writes) by process, in the order given. */
  perDaemon: number[];
  /** The kernel's part of the daemons' CPU (system time), a share of it. */
  daemonSystemShare: number;
}

/** The last log stream sequence a node applied (its /metrics): messages in the stream so far. */
async function followed(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /household_cluster_followed_sequence\{[^}]*\} (\d+)/.exec(text);
  return m ? Number(m[1]) : NaN;
}

async function load(
  targets: { slug: string; key: string }[],
  urls: string[],
  daemonPids: number[],
  natsPids: number[],
): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  const cpu0 = daemonPids.map((pid) => cpuMs(pid));
  const sys0 = daemonPids.map((pid) => cpuMs(pid, 'system'));
  const nats0 = natsPids.map((pid) => cpuMs(pid));
  const end = performance.now() + SECONDS * 1000;
  let n = 0;
  const writer = async (t: { slug: string; key: string }) => {
    while (performance.now() < end) {
      const url = urls[n++ % urls.length];
      const t0 = performance.now();
      const status = await post(
        `${url}/api/v1/families/${t.slug}/trackers/chores/entries`,
        t.key,
        JSON.stringify({ title: `Take out the recycling ${n}` }),
      ).catch(() => 0);
      if (status === 201) latencies.push(performance.now() - t0);
      else errors++;
    }
  };
  const started = performance.now();
  await Promise.all(targets.flatMap((t) => Array.from({ length: INFLIGHT }, () => writer(t))));
  const seconds = (performance.now() - started) / 1000;
  const perDaemon = daemonPids.map((pid, i) => cpuMs(pid) - cpu0[i]);
  const daemonCpu = perDaemon.reduce((sum, ms) => sum + ms, 0);
  const daemonSys = daemonPids.reduce((sum, pid, i) => sum + cpuMs(pid, 'system') - sys0[i], 0);
  const natsCpu = natsPids.reduce((sum, pid, i) => sum + cpuMs(pid) - nats0[i], 0);
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return {
    writes: latencies.length,
    errors,
    perSecond: latencies.length / seconds,
    p50: q(0.5),
    p99: q(0.99),
    daemonCpuMsPerWrite: daemonCpu / Math.max(1, latencies.length),
    natsCpuMsPerWrite: natsCpu / Math.max(1, latencies.length),
    perDaemon: perDaemon.map((ms) => ms / Math.max(1, latencies.length)),
    daemonSystemShare: daemonSys / Math.max(1, daemonCpu),
  };
}

/**
 * Where a clustered write's CPU goes: one more family, taken by node a with its first write,
 * then written by `INFLIGHT` writers sent only to its owner, then only to node b (every write
 * forwarded to a). Says each node's CPU per write in both phases: the owner's own cost, the
 * forwarding node's, and what the third node (a follower of the log only) pays.
 */
async function breakdown(
  nodes: ChildDaemon[],
  env: Record<string, string>,
  dataDir: string,
  natsPids: number[],
): Promise<string> {
  const [target] = await families(1, env, dataDir, 'split');
  await post(
    `${nodes[0].url}/api/v1/families/${target.slug}/trackers/chores/entries`,
    target.key,
    '{"title":"take"}',
  );
  const pids = nodes.map((d) => d.proc.pid!);
  const phase = async (name: string, url: string) => {
    const r = await load([target], [url], pids, natsPids);
    return (
      `| ${name} | ${Math.round(r.perSecond)} | ${r.perDaemon.map((ms) => ms.toFixed(2)).join(' | ')} | ` +
      `${r.daemonCpuMsPerWrite.toFixed(2)} | ${r.natsCpuMsPerWrite.toFixed(2)} |`
    );
  };
  // What the nodes spend with no writes at all (timers, leases, the followers' pulls): a cost
  // per second, not per write, that a lower write rate spreads over fewer writes.
  const idle0 = pids.map((pid) => cpuMs(pid));
  const nats0 = natsPids.map((pid) => cpuMs(pid));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const idle = pids.map((pid, i) => (cpuMs(pid) - idle0[i]) / SECONDS);
  const natsIdle = natsPids.reduce((sum, pid, i) => sum + cpuMs(pid) - nats0[i], 0) / SECONDS;
  return [
    `idle, CPU ms per second: daemons ${idle.map((ms) => ms.toFixed(1)).join(', ')}; ` +
      `NATS servers together ${natsIdle.toFixed(1)}`,
    '',
    `one family owned by node a, ${INFLIGHT} writers, CPU ms per write by process:`,
    '',
    '| writes sent to | writes/s | node a (owner) | node b | node c | daemons | NATS |',
    '|---|---|---|---|---|---|---|',
    await phase('node a, the owner', nodes[0].url),
    await phase('node b (forwarded to a)', nodes[1].url),
  ].join('\n');
}

/** Makes `count` families through the CLI (on the cluster when `env` names one). */
async function families(
  count: number,
  env: Record<string, string>,
  dataDir: string,
  prefix = 'bench',
): Promise<{ slug: string; key: string }[]> {
  const out: { slug: string; key: string }[] = [];
  for (let i = 0; i < count; i++) {
    const slug = `${prefix}-${i}`;
    const r = await runCli(['family', 'create', slug, '--json', '--data-dir', dataDir], env);
    if (r.code !== 0) throw new Error(`family create: ${r.stderr}`);
    out.push({ slug, key: (JSON.parse(r.stdout) as { apiKey: string }).apiKey });
  }
  return out;
}

async function main(): Promise<void> {
  if (!hasNatsServer()) {
    console.log('nats-server is not installed: the cluster case cannot run');
    return;
  }
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'household-bench-'));
    dirs.push(d);
    return d;
  };
  const daemons: ChildDaemon[] = [];
  // A benchmark's writers are far above a household's rate limit: lift it for both cases.
  const configFile = join(dir(), 'bench.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      rateLimit: { perMinute: 1_000_000 },
      metrics: { enabled: true, token: null },
    }),
  );
  const base = { HOUSEHOLD_CONFIG: configFile };
  const nats = await startNatsCluster(SECONDS * 4 + 120, SYNC);
  try {
    // Embedded: one daemon, its own LMDB.
    const embeddedDir = dir();
    const embedded = await spawnDaemon(embeddedDir, { ...base, ...profiled('embedded') });
    daemons.push(embedded);
    const embeddedFamilies = await families(FAMILIES, base, embeddedDir);
    const e = await load(embeddedFamilies, [embedded.url], [embedded.proc.pid!], []);
    // The breakdown's one-family load on the embedded daemon: what the owner's row compares to.
    const one = BREAKDOWN
      ? await load(embeddedFamilies.slice(0, 1), [embedded.url], [embedded.proc.pid!], [])
      : null;
    embedded.proc.kill('SIGTERM');
    await embedded.exited;

    // Cluster: three daemons over the three JetStream servers.
    const env = (name: string) => ({
      ...base,
      HOUSEHOLD_NATS_SERVERS: nats.urls.join(','),
      HOUSEHOLD_NODE_NAME: name,
      HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:0',
      HOUSEHOLD_CLUSTER_SECRET: 'bench-cluster-secret-'.repeat(2),
    });
    const nodes: ChildDaemon[] = [];
    for (const name of ['a', 'b', 'c']) {
      nodes.push(await spawnDaemon(dir(), { ...env(name), ...profiled(`node-${name}`) }));
    }
    daemons.push(...nodes);
    const clusterFamilies = await families(FAMILIES, env('bench-cli'), dir());
    const streamBefore = await followed(nodes[0].url);
    const c = await load(
      clusterFamilies,
      nodes.map((d) => d.url),
      nodes.map((d) => d.proc.pid!),
      nats.servers.map((s) => serverPid(s)),
    );
    // Followers apply asynchronously: the count is read once the stream is quiet.
    await new Promise((r) => setTimeout(r, 1000));
    const messages = (await followed(nodes[0].url)) - streamBefore;
    const pct = (x: number) => `${Math.round(100 * x)} %`;
    const row = (name: string, r: Result) =>
      `| ${name} | ${Math.round(r.perSecond)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ` +
      `${r.daemonCpuMsPerWrite.toFixed(2)} | ${r.natsCpuMsPerWrite.toFixed(2)} | ${r.errors} |`;
    console.log(
      `${SECONDS} s, ${FAMILIES} families x ${INFLIGHT} writers, POST an entry, keep-alive; ` +
        `nats-server ${natsServerVersion()?.join('.')}, JetStream sync ` +
        `${SYNC === 'always' && natsSyncsAlways() ? 'always' : "the server's default"}\n\n` +
        '| case | writes/s | p50 ms | p99 ms | daemon CPU ms/write | NATS CPU ms/write | errors |\n' +
        '|---|---|---|---|---|---|---|\n' +
        `${row('embedded (1 daemon, LMDB)', e)}\n` +
        `${row('cluster (3 daemons, JetStream R3 on 3 servers)', c)}\n` +
        `\nratio cluster/embedded: throughput ${(c.perSecond / e.perSecond).toFixed(2)}, ` +
        `p99 ${(c.p99 / e.p99).toFixed(1)}x, CPU per write (daemons + NATS) ` +
        `${((c.daemonCpuMsPerWrite + c.natsCpuMsPerWrite) / e.daemonCpuMsPerWrite).toFixed(1)}x, ` +
        `daemons alone ${(c.daemonCpuMsPerWrite / e.daemonCpuMsPerWrite).toFixed(1)}x\n` +
        `system (kernel) share of the daemons' CPU: embedded ${pct(e.daemonSystemShare)}, ` +
        `cluster ${pct(c.daemonSystemShare)}\n` +
        `log messages per cluster write: ${(messages / Math.max(1, c.writes)).toFixed(2)}\n` +
        `cluster daemons' CPU ms/write by node: ${c.perDaemon.map((ms) => ms.toFixed(2)).join(', ')}`,
    );
    if (one) {
      const split = await breakdown(
        nodes,
        env('bench-cli'),
        dir(),
        nats.servers.map((s) => serverPid(s)),
      );
      console.log(
        `\n${split}\n| (embedded daemon, one family) | ${Math.round(one.perSecond)} | ` +
          `${one.daemonCpuMsPerWrite.toFixed(2)} | | | ${one.daemonCpuMsPerWrite.toFixed(2)} | |`,
      );
    }
    if (PROFILE) {
      // A profile is written at a clean exit only.
      for (const d of nodes) d.proc.kill('SIGTERM');
      await Promise.all(nodes.map((d) => d.exited));
    }
  } finally {
    for (const d of daemons) d.proc.kill('SIGKILL');
    agent.destroy();
    await nats.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
