/**
 * A process's cluster membership (docs/scaling.md): the NATS connection, the store the process
 * works with (its LMDB's reads, writes through the replicated log: `store`, wired once here),
 * the follower that keeps the directory current, and the ownership the family registry asks
 * before it runs an actor. The cluster topology (topology.ts) starts one for `serve`; the CLI
 * starts one to act on a cluster (cliStore.ts). Its parts stay inside: callers ask it.
 *
 * A node holds a family's lease from the moment it wins it; it owns the family once it holds
 * the lease and its copy has caught up with the family's log (`owns`, `ownedFamilies`).
 */
import type { Logger } from 'pino';
import type { ClusterConfig } from '../config.js';
import { StartupError } from '../startup.js';
import { OwnedElsewhere, type Ownership } from '../family/ownership.js';
import { withWrites, type Store } from '../store/store.js';
import { StoreWriteError } from '../store/errors.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import type { HouseholdStore, WholeFamily } from '../store/ports.js';
import { ClusterNode } from './node.js';
import { natsServerWarning } from './connection.js';
import { Follower } from './follower.js';
import { ReplicatedDirectory } from './directory.js';
import type { LeaseValue } from './lease.js';
import { importWholeFamily } from './whole.js';

/**
 * NATS did not answer (a server died, JetStream is electing a leader): the request fails as a
 * write the store could not make — 503 with Retry-After — and a retry finds the cluster settled.
 */
function unavailable(what: string, err: unknown): StoreWriteError {
  if (err instanceof StoreWriteError) return err;
  const why = err instanceof Error ? err.message : String(err);
  return new StoreWriteError('failed', `${what}: ${why}`, err);
}

export interface ClusterRuntimeOptions {
  /** Copies of the log and the leases: at most the number of NATS servers (default 3). */
  replicas?: number;
  now?: () => number;
}

/** Forwarding figures for /metrics (counted by the door that forwards). */
export interface ForwardStats {
  forwarded: number;
  forwardFailures: number;
  received: number;
}

export class ClusterRuntime implements Ownership {
  readonly forwards: ForwardStats = { forwarded: 0, forwardFailures: 0, received: 0 };
  private readonly owners = new Map<string, LeaseValue>();
  private readonly takenListeners: ((familyId: string) => void)[] = [];
  private readonly lostListeners: ((familyId: string) => void)[] = [];
  private sweeper: NodeJS.Timeout | undefined;

  /** The store this process works with: its LMDB's reads, its writes through the log. */
  readonly store: HouseholdStore;

  private constructor(
    readonly config: ClusterConfig,
    private readonly node: ClusterNode,
    private readonly follower: Follower,
    private readonly directory: ReplicatedDirectory,
    local: Store,
    private readonly now: () => number,
  ) {
    this.store = withWrites(local, {
      commit: (familyId, batch, guard) => node.commits.commit(familyId, batch, guard),
      createFamily: (family, seed, firstKey) => directory.createFamily(family, seed, firstKey),
      queueFamilyUpdate: (...args) => directory.queueFamilyUpdate(...args),
      putKey: (key) => directory.putKey(key),
      transactKeys: (fn) => directory.transactKeys(fn),
      transactOAuth: (fn) => directory.transactOAuth(fn),
      putWholeFamily: (doc) => this.putWholeFamily(doc),
    });
  }

  /**
   * Joins the cluster: connects, follows the log until this node's copy of the directory (in
   * `local`, the node's LMDB) is current; `store` then sends every write through the log.
   */
  static async start(
    config: ClusterConfig,
    local: Store,
    logger: Pick<Logger, 'error' | 'warn'>,
    opts: ClusterRuntimeOptions = {},
  ): Promise<ClusterRuntime> {
    const now = opts.now ?? Date.now;
    const replicas = opts.replicas ?? config.replicas;
    const node = await ClusterNode.start(config, local, { replicas, now }).catch((err: unknown) => {
      throw new StartupError(
        `could not join the cluster through ${config.natsServers.join(', ')}: ` +
          `${err instanceof Error ? err.message : String(err)}`,
      );
    });
    const warning = natsServerWarning(node.nc.info?.version);
    if (warning) logger.warn({ natsVersion: node.nc.info?.version }, warning);
    try {
      const follower = new Follower(local, node.log, logger);
      await follower.start();
      // Appends learn from the follower which message came before theirs (log.ts, `confirm`).
      node.log.predecessors = follower;
      await follower.reached(await node.log.head());
      const directory = new ReplicatedDirectory(local, node.log, follower);
      const runtime = new ClusterRuntime(config, node, follower, directory, local, now);
      node.commits.events = {
        taken: (id) => runtime.takenListeners.forEach((fn) => fn(id)),
        lost: (id) => runtime.lostListeners.forEach((fn) => fn(id)),
      };
      return runtime;
    } catch (err) {
      await node.close();
      throw err;
    }
  }

  get nodeName(): string {
    return this.config.nodeName;
  }

  /**
   * The server listens on `port`: an `advertiseUrl` whose port is 0 (the server's port is
   * chosen at listen, as in the tests) takes that port.
   */
  listening(port: number): void {
    const advertised = new URL(this.config.advertiseUrl);
    if (advertised.port !== '0') return;
    advertised.port = String(port);
    this.node.leases.url = advertised.toString().replace(/\/$/, '');
  }

  /** Where this node answers HTTP, as other nodes reach it. */
  get url(): string {
    return this.node.leases.url;
  }

  /** Whether the NATS connection is up (for /healthz). */
  get connected(): boolean {
    return this.node.connected;
  }

  /**
   * Whether the family runs here: its lease is held and the takeover is complete. While the
   * catch-up runs, this node's copy of the family (records, agenda) is behind the log: its
   * scheduler must not see that agenda nor an actor be built from it.
   */
  owns(familyId: string): boolean {
    return this.node.commits.ready(familyId);
  }

  async take(familyId: string): Promise<void> {
    const lease = await this.node.commits.own(familyId).catch((err: unknown) => {
      throw unavailable(`could not take family ${familyId}`, err);
    });
    if (!lease) throw new OwnedElsewhere(familyId, await this.ownerOf(familyId, true));
  }

  /** Called (after the catch-up, before the family's first request) when this node takes one. */
  onTaken(fn: (familyId: string) => void): void {
    this.takenListeners.push(fn);
  }

  /** Called when this node learns it lost a family (a failed renewal, a fenced append). */
  onLost(fn: (familyId: string) => void): void {
    this.lostListeners.push(fn);
  }

  /**
   * The node holding the family's lease now, or null (nobody: the first node it reaches takes
   * it). Kept until the lease's expiry, so forwarding asks NATS once per lease period.
   */
  async ownerOf(familyId: string, fresh = false): Promise<LeaseValue | null> {
    const known = this.owners.get(familyId);
    if (!fresh && known && known.expiresAt > this.now()) return known;
    const owner = await this.node.leases.owner(familyId).catch((err: unknown) => {
      throw unavailable(`could not learn who holds family ${familyId}`, err);
    });
    if (owner) this.owners.set(familyId, owner);
    else this.owners.delete(familyId);
    return owner;
  }

  /** Forgets a cached owner (its node did not answer). */
  forgetOwner(familyId: string): void {
    this.owners.delete(familyId);
  }

  /** Families this node owns: their lease is held and their takeover is complete. */
  ownedFamilies(): string[] {
    return this.node.leases.heldFamilies().filter((id) => this.owns(id));
  }

  /** Replays a family's log into this node's copy, without taking its lease (the CLI). */
  async catchUp(family: FamilyInfo): Promise<void> {
    await this.node.commits.catchUp(family.id);
  }

  /** Gives up one family's lease, if held (the CLI, after it put a whole family in). */
  release(familyId: string): Promise<void> {
    return this.node.leases.release(familyId);
  }

  /** The figures /metrics shows of this node (cluster/metrics.ts). */
  figures() {
    const stats = this.node.commits.stats;
    return {
      connected: this.connected,
      ownedFamilies: this.ownedFamilies().length,
      ...this.forwards,
      takeovers: stats.takeovers,
      fenced: stats.fenced,
      lostLeases: this.node.lostLeases,
      ignoredEntries: stats.ignored + this.follower.ignored,
      followedSequence: this.follower.position,
    };
  }

  /** An imported family: its directory part, then its records and log on its own subject. */
  putWholeFamily(doc: WholeFamily): Promise<'ok' | 'slug' | 'id' | 'key'> {
    return importWholeFamily(doc, {
      directory: this.directory,
      commits: this.node.commits,
      maxPayload: this.node.log.maxPayload,
    });
  }

  /**
   * Every lease period (plus a random share of one, so nodes do not all race at once), takes
   * the families nobody holds: a dead node's families move within about two lease times even
   * when no request arrives for them, and their agenda runs on the new owner.
   */
  startSweeping(onError: (err: unknown) => void): void {
    const leaseMs = this.config.leaseSeconds * 1000;
    const sweep = async () => {
      for (const familyId of await this.node.leases.orphans()) {
        await this.take(familyId).catch(() => undefined); // another node was quicker
      }
    };
    const next = () => {
      this.sweeper = setTimeout(
        () => {
          sweep()
            .catch(onError)
            .finally(() => {
              if (this.sweeper) next();
            });
        },
        leaseMs * (0.5 + Math.random() * 0.5),
      );
      this.sweeper.unref();
    };
    next();
  }

  /**
   * What a crash looks like to the other nodes: no more renewals and no NATS connection, its
   * leases left to expire (tests).
   */
  async halt(): Promise<void> {
    this.node.stopRenewing();
    await this.node.nc.close();
  }

  /** Renews held leases again (after `releaseAll`: a node that gave up its families goes on). */
  resumeRenewing(): void {
    this.node.resumeRenewing();
  }

  /** Gives up every held lease (an orderly stop: the others need not wait for them to expire). */
  async releaseAll(): Promise<void> {
    if (this.sweeper) clearTimeout(this.sweeper);
    this.sweeper = undefined;
    this.node.stopRenewing();
    await Promise.all(this.node.leases.heldFamilies().map((id) => this.node.leases.release(id)));
  }

  async close(): Promise<void> {
    if (this.sweeper) clearTimeout(this.sweeper);
    this.sweeper = undefined;
    await this.follower.stop();
    await this.node.close();
  }
}
