/**
 * The daemon's topology: what differs between one embedded daemon and a node of a cluster,
 * behind one interface, so that the daemon's composition (src/server.ts, src/daemon/) and the
 * command line (src/cli/) hold one and never ask which it is.
 *
 * - the store, wired once at start: the embedded LMDB, or a node's LMDB behind the replicated
 *   log (reads local, writes through the log);
 * - ownership: which families' actors this process runs (the registry asks);
 * - the agenda: which families' jobs this process runs (the scheduler reads it);
 * - the front: what runs before every door (a cluster node forwards a request to its
 *   family's owner);
 * - start, listening, release and close; health and metrics.
 *
 * The embedded implementation is ./embedded.ts, the cluster's src/cluster/topology.ts.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { FrontParts } from '../door/app.js';
import type { DoorMiddleware } from '../door/state.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import type { Ownership } from '../family/ownership.js';
import type { AgendaReads, HouseholdStore } from '../store/ports.js';

/** The parts of the daemon a topology acts on once they exist. */
export interface TopologyParts {
  /** Forgets a family's actor (a node that took or lost it). */
  registry: { drop(familyId: string): void };
  /** Wakes for a family's jobs (a node that took it). */
  scheduler: { jobAdded(dueAt: number): void };
  /** The webhook outbox: all families at start, or one family when a node takes it. */
  webhooks: { start(): Promise<void>; resume(family: FamilyInfo): Promise<void> };
  logger: Logger;
}

/** What /healthz shows of the topology. */
export interface TopologyHealth {
  cluster?: { node: string; connected: boolean; ownedFamilies: number };
}

export interface Topology {
  /** The store the daemon works with (every module is handed the ports it uses). */
  readonly store: HouseholdStore;
  /** Which families' actors this process runs. */
  readonly ownership: Ownership;
  /** The agenda of the families whose jobs this process runs. */
  readonly agenda: Pick<AgendaReads, 'dueJobs' | 'earliestDue'>;
  /** What runs before every door, given what a request tells (its family, its origin); null: nothing. */
  front(parts: FrontParts): DoorMiddleware | null;
  /** The server listens on `port`. */
  listening(port: number): void;
  /** The daemon's parts exist, before it listens: a node follows what it takes and loses. */
  attach(parts: TopologyParts): void;
  /** The daemon serves: start what runs in the background (outboxes, a node's sweeps). */
  start(): Promise<void>;
  health(): TopologyHealth;
  /** Adds the topology's figures to /metrics. */
  metrics(registry: Registry): void;
  /** An orderly stop: gives up what others could take at once (a node's leases). */
  release(): Promise<void>;
  /** Closes what the topology opened (the cluster's connection, the store). */
  close(): Promise<void>;
}
