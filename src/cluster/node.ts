/**
 * One cluster node's parts put together: its NATS connection, the replicated log, the leases
 * it holds (renewed at a third of their length) and the replicated write path over its LMDB.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { ClusterConfig } from '../config.js';
import { connectCluster } from './connection.js';
import { JetStreamLog } from './log.js';
import { Leases, type Clock } from './lease.js';
import { ReplicatedCommits, type LocalStore } from './replicated.js';

/**
 * Tries again for a while: right after a server died, JetStream answers nothing until its
 * servers elected a new metadata leader (a few seconds).
 */
async function retrying<T>(work: () => Promise<T>, forMs = 15_000): Promise<T> {
  const until = Date.now() + forMs;
  for (;;) {
    try {
      return await work();
    } catch (err) {
      if (Date.now() >= until) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export interface ClusterNodeOptions {
  /** Copies of the log and the leases: 3 on a cluster of 3 servers, at most the servers. */
  replicas: number;
  now?: Clock;
}

export class ClusterNode {
  private renewTimer: NodeJS.Timeout | undefined;
  /** Leases lost at renewal (taken by another node): a figure for /metrics. */
  lostLeases = 0;

  private constructor(
    readonly nc: NatsConnection,
    readonly log: JetStreamLog,
    readonly leases: Leases,
    readonly commits: ReplicatedCommits,
    private readonly leaseMs: number,
  ) {}

  static async start(
    cfg: ClusterConfig,
    local: LocalStore,
    opts: ClusterNodeOptions,
  ): Promise<ClusterNode> {
    const nc = await connectCluster(cfg);
    try {
      const log = await retrying(() => JetStreamLog.open(nc, opts.replicas));
      const leases = await retrying(() =>
        Leases.open(nc, cfg.nodeName, cfg.advertiseUrl, cfg.leaseSeconds, opts.replicas, opts.now),
      );
      const node = new ClusterNode(
        nc,
        log,
        leases,
        new ReplicatedCommits(local, log, leases),
        cfg.leaseSeconds * 1000,
      );
      node.resumeRenewing();
      return node;
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /** Whether the connection to NATS is up (for /healthz). */
  get connected(): boolean {
    return !this.nc.isClosed() && this.nc.info !== undefined;
  }

  /** Renews every held lease every third of a lease; a lease another node took is dropped. */
  resumeRenewing(): void {
    this.stopRenewing();
    this.renewTimer = setInterval(
      () => {
        for (const familyId of this.leases.heldFamilies()) {
          void this.leases.renew(familyId).then(
            (ok) => {
              if (ok) return;
              this.lostLeases += 1;
              this.commits.events.lost(familyId);
            },
            () => undefined,
          );
        }
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    this.renewTimer.unref();
  }

  /** Stops renewing (what a paused process looks like to the others; also on close). */
  stopRenewing(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = undefined;
  }

  async close(): Promise<void> {
    this.stopRenewing();
    await this.nc.drain().catch(() => this.nc.close());
  }
}
