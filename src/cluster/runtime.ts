/**
 * A daemon's cluster membership (docs/scaling.md): the NATS connection, the replicated write
 * path under the store (`Store.replicateWith`), the follower that keeps the directory current,
 * and the ownership the family registry asks before it runs an actor. `serve` starts one when
 * the configuration has a `cluster` section; the CLI starts one to act on a cluster.
 */
import type { Logger } from 'pino';
import type { ClusterConfig } from '../config.js';
import { StartupError } from '../startup.js';
import { OwnedElsewhere, type Ownership } from '../family/ownership.js';
import { StoreWriteError, type Store } from '../store/store.js';
import type { WholeFamily } from '../store/ports.js';
import { ClusterNode } from './node.js';
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

  private constructor(
    readonly config: ClusterConfig,
    readonly node: ClusterNode,
    readonly follower: Follower,
    readonly directory: ReplicatedDirectory,
    private readonly now: () => number,
  ) {}

  /**
   * Joins the cluster: connects, follows the log until this node's directory is current, and
   * from then on sends every write of `store` through the replicated log.
   */
  static async start(
    config: ClusterConfig,
    store: Store,
    logger: Pick<Logger, 'error' | 'warn'>,
    opts: ClusterRuntimeOptions = {},
  ): Promise<ClusterRuntime> {
    const now = opts.now ?? Date.now;
    const local = {
      commit: store.local.commit,
      lastSeq: (familyId: string) => store.lastSeq(familyId),
      getCheckpoint: (consumer: string, familyId: string) =>
        store.getCheckpoint(consumer, familyId),
    };
    const replicas = opts.replicas ?? config.replicas;
    const node = await ClusterNode.start(config, local, { replicas, now }).catch((err: unknown) => {
      throw new StartupError(
        `could not join the cluster through ${config.natsServers.join(', ')}: ` +
          `${err instanceof Error ? err.message : String(err)}`,
      );
    });
    try {
      const follower = new Follower(store, node.log, logger);
      await follower.start();
      // Appends learn from the follower which message came before theirs (log.ts, `confirm`).
      node.log.predecessors = follower;
      await follower.reached(await node.log.head());
      const directory = new ReplicatedDirectory(store, node.log, follower);
      const runtime = new ClusterRuntime(config, node, follower, directory, now);
      node.commits.events = {
        taken: (id) => runtime.takenListeners.forEach((fn) => fn(id)),
        lost: (id) => runtime.lostListeners.forEach((fn) => fn(id)),
      };
      store.replicateWith({
        commit: (familyId, batch, guard) => node.commits.commit(familyId, batch, guard),
        createFamily: (family, seed, firstKey) => directory.createFamily(family, seed, firstKey),
        queueFamilyUpdate: (...args) => directory.queueFamilyUpdate(...args),
        putKey: (key) => directory.putKey(key),
        transactOAuth: (fn) => directory.transactOAuth(fn),
        putWholeFamily: (doc) => runtime.putWholeFamily(doc),
      });
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

  /** Families whose lease this node holds. */
  heldFamilies(): string[] {
    return this.node.leases.heldFamilies().filter((id) => this.owns(id));
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
