/**
 * Three clustered JetStream nats-server processes on loopback, for the cluster tests. No fixed
 * port: each server listens on `-p -1` and a cluster port `127.0.0.1:-1`, and the ports are read
 * back from its log. Every server runs under `timeout` (a forgotten one dies on its own), with
 * its own temporary store folder, and is killed by its PID.
 *
 * A JetStream cluster needs a route at start, and the first server cannot know the others'
 * ports yet: it is given a route to port 1 on loopback (refused at once, retried quietly), and
 * the two others route to the first server's cluster port; the servers then learn each other.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';

export interface NatsServer {
  name: string;
  proc: ChildProcess;
  /** `nats://127.0.0.1:<port>` for clients. */
  url: string;
  routePort: number;
  log: () => string;
  exited: Promise<void>;
}

export interface NatsCluster {
  servers: NatsServer[];
  /** The client URLs of the servers as they are now (a restarted server has a new port). */
  readonly urls: string[];
  /**
   * Starts server `i` again after it died, with its name and store folder (so it rejoins the
   * cluster with its JetStream state), routed to the first other server not in `avoid`. It
   * listens on a new port: clients learn it from the servers they are connected to.
   */
  restart(i: number, avoid?: number[]): Promise<NatsServer>;
  /** Stops every server still running and removes their folders. */
  stop(): Promise<void>;
}

/** Whether Debian's nats-server is on PATH (tests skip visibly without it). */
export function hasNatsServer(): boolean {
  return spawnSync('nats-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** The nats-server on PATH's version (`[2, 15, 1]`), or null without one. */
export const natsServerVersion: () => [number, number, number] | null = (() => {
  let known: [number, number, number] | null | undefined;
  return () => {
    if (known !== undefined) return known;
    const out = spawnSync('nats-server', ['--version'], { encoding: 'utf8' }).stdout ?? '';
    const m = /v(\d+)\.(\d+)\.(\d+)/.exec(out);
    known = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
    return known;
  };
})();

/**
 * Whether the server knows `jetstream { sync_interval }` (2.10 and later): the tests then run it
 * as compose.cluster.yaml does, syncing every write before acknowledging it (config/nats.conf).
 */
export function natsSyncsAlways(): boolean {
  const v = natsServerVersion();
  return v !== null && (v[0] > 2 || (v[0] === 2 && v[1] >= 10));
}

/** The message a test skips with when nats-server is missing. */
export const NO_NATS =
  'nats-server is not installed (Debian package nats-server; .ci/run installs it)';

/** `always`: as shipped (config/nats.conf), where the server knows it; `default`: NATS's own. */
export type NatsSync = 'always' | 'default';

function startOne(
  name: string,
  dir: string,
  route: string,
  lifetimeS: number,
  sync: NatsSync,
): Promise<NatsServer> {
  // The store folder comes from -sd below.
  const conf = join(dir, `${name}.conf`);
  const always = sync === 'always' && natsSyncsAlways();
  writeFileSync(conf, always ? 'jetstream { sync_interval: always }\n' : '');
  const args = [
    '--kill-after=2',
    String(lifetimeS),
    'nats-server',
    '-c',
    conf,
    '-js',
    '-a',
    '127.0.0.1',
    '-p',
    '-1',
    '-sd',
    join(dir, name),
    '-n',
    name,
    '--cluster_name',
    'household-test',
    '--cluster',
    'nats://127.0.0.1:-1',
    '--routes',
    route,
  ];
  const proc = spawn('timeout', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  return new Promise((resolve, reject) => {
    // Generous: three servers and a daemon starting on a loaded two-core machine take a while.
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const client = /client connections on 127\.0\.0\.1:(\d+)/.exec(out);
      const routes = /route connections on 127\.0\.0\.1:(\d+)/.exec(out);
      if (client && routes) {
        clearTimeout(timer);
        resolve({
          name,
          proc,
          url: `nats://127.0.0.1:${client[1]}`,
          routePort: Number(routes[1]),
          log: () => out,
          exited,
        });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited:\n${out}`));
    });
  });
}

/** Starts three clustered JetStream servers; they die on their own after `lifetimeS`. */
export async function startNatsCluster(
  lifetimeS = 120,
  sync: NatsSync = 'always',
): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'household-nats-'));
  const servers: NatsServer[] = [];
  const stop = async () => {
    for (const s of servers) {
      if (s.proc.exitCode !== null || s.proc.signalCode !== null) continue;
      // SIGKILL to the server itself: `timeout` forwards SIGTERM only, and exits after it.
      try {
        process.kill(serverPid(s), 'SIGKILL');
      } catch {
        s.proc.kill('SIGTERM');
      }
    }
    await Promise.all(servers.map((s) => s.exited));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    servers.push(await startOne('n1', dir, 'nats://127.0.0.1:1', lifetimeS, sync));
    const seed = `nats://127.0.0.1:${servers[0].routePort}`;
    servers.push(
      ...(await Promise.all(['n2', 'n3'].map((n) => startOne(n, dir, seed, lifetimeS, sync)))),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  // JetStream answers only once the servers elected a metadata leader. Only the servers that
  // were routed when it was elected log it (one joining later may never say so), so: a leader in
  // some log, then JetStream answering through every server. Generous: a loaded CI machine
  // has taken over 15 s.
  const electing = Date.now();
  const until = electing + 40_000;
  const fail = async (why: string) => {
    await stop();
    return new Error(`${why}:\n${servers.map((s) => s.log()).join('\n')}`);
  };
  while (!servers.some((s) => /metadata leader/.test(s.log()))) {
    if (Date.now() > until) throw await fail('no JetStream metadata leader');
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const s of servers) {
    if (!(await jetStreamAnswers(s.url, until))) throw await fail(`JetStream silent at ${s.name}`);
  }
  // Usually a second or two; a slow election is worth seeing in the run's output.
  if (Date.now() - electing > 10_000)
    console.warn(
      `      (the NATS test cluster took ${Date.now() - electing} ms to elect and answer)`,
    );
  const restart = async (i: number, avoid: number[] = []): Promise<NatsServer> => {
    const old = servers[i];
    if (old.proc.exitCode === null && old.proc.signalCode === null)
      throw new Error(`${old.name} is still running`);
    const peer = servers.find((s, j) => j !== i && !avoid.includes(j)) ?? servers[(i + 1) % 3];
    const fresh = await startOne(
      old.name,
      dir,
      `nats://127.0.0.1:${peer.routePort}`,
      lifetimeS,
      sync,
    );
    servers[i] = fresh;
    return fresh;
  };
  return {
    servers,
    get urls() {
      return servers.map((s) => s.url);
    },
    restart,
    stop,
  };
}

/** Whether JetStream answers an account-info request through `url` before `until`. */
async function jetStreamAnswers(url: string, until: number): Promise<boolean> {
  while (Date.now() < until) {
    const nc = await connect({ servers: url, timeout: 2_000 }).catch(() => null);
    if (nc) {
      try {
        await (await jetstreamManager(nc, { timeout: 2_000 })).getAccountInfo();
        return true;
      } catch {
        // No leader known to this server yet, or the request timed out: ask again.
      } finally {
        await nc.close();
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/**
 * The PID of the nats-server itself (the child is `timeout`, which forwards SIGTERM but not
 * SIGKILL): what a test kills to lose one server abruptly.
 */
export function serverPid(server: NatsServer): number {
  const r = spawnSync('pgrep', ['-P', String(server.proc.pid), '-x', 'nats-server'], {
    encoding: 'utf8',
  });
  const pid = Number(r.stdout.trim().split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0)
    throw new Error(`no nats-server under PID ${server.proc.pid}`);
  return pid;
}
