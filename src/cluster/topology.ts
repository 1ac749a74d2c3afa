/**
 * The cluster topology (docs/scaling.md): a node of a cluster, behind the same interface as the
 * embedded daemon (src/topology/topology.ts). What differs, and stays here:
 *
 * - the store: the node's LMDB, its writes through the replicated log (runtime.ts);
 * - ownership: the families whose lease the node holds and whose log it has caught up with;
 * - the agenda: the jobs of the families the node owns (the others run on their owners);
 * - the front: requests for a family another node owns are forwarded there (front.ts);
 * - taking a family drops any stale actor, wakes the scheduler for the family's jobs and
 *   resumes its webhook outbox from the replicated checkpoint; losing one drops its actor;
 * - the sweep that takes families nobody holds, the leases given up at an orderly stop, the
 *   node's health and its figures on /metrics.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ClusterConfig } from '../config.js';
import type { AgendaReads } from '../store/ports.js';
import type { Store } from '../store/store.js';
import type { StoredAgendaJob } from '../store/types.js';
import type { Topology, TopologyParts } from '../topology/topology.js';
import { clusterFront } from './front.js';
import { registerClusterMetrics } from './metrics.js';
import { ClusterRuntime } from './runtime.js';

/** The agenda of the families this node owns (each is small: a family's own timetable). */
function ownedAgenda(
  store: Pick<AgendaReads, 'familyJobs'>,
  cluster: ClusterRuntime,
): Pick<AgendaReads, 'dueJobs' | 'earliestDue'> {
  const jobs = (): StoredAgendaJob[] =>
    cluster.ownedFamilies().flatMap((id) => store.familyJobs(id));
  return {
    dueJobs: (uptoMs, limit) =>
      jobs()
        .filter((j) => j.dueAt <= uptoMs)
        .sort((a, b) => a.dueAt - b.dueAt)
        .slice(0, limit),
    earliestDue: () => {
      let earliest: number | null = null;
      for (const j of jobs()) if (earliest === null || j.dueAt < earliest) earliest = j.dueAt;
      return earliest;
    },
  };
}

/** What a node does when it takes or loses a family. */
function followOwnership(cluster: ClusterRuntime, parts: TopologyParts): void {
  const { store } = cluster;
  const { registry, scheduler, webhooks, logger } = parts;
  cluster.onTaken((familyId) => {
    registry.drop(familyId);
    const family = store.getFamily(familyId);
    logger.info({ familyId, family: family?.slug, node: cluster.nodeName }, 'took a family');
    // After the request that took it has its actor: the outbox and the agenda need one too.
    setImmediate(() => {
      for (const job of store.familyJobs(familyId)) scheduler.jobAdded(job.dueAt);
      if (family) void webhooks.resume(family);
    });
  });
  cluster.onLost((familyId) => {
    registry.drop(familyId);
    logger.warn({ familyId, node: cluster.nodeName }, 'lost a family to another node');
  });
}

/** A cluster node's topology; `runtime` is its membership (tests stop it as a crash would). */
export interface ClusterTopology extends Topology {
  readonly runtime: ClusterRuntime;
}

/**
 * Joins the cluster with `local` (this node's LMDB) and answers as a topology. `bodyLimitBytes`
 * bounds the bodies the front reads to forward.
 */
export async function clusterTopology(
  config: ClusterConfig,
  local: Store,
  opts: { logger: Logger; bodyLimitBytes: number },
): Promise<ClusterTopology> {
  const cluster = await ClusterRuntime.start(config, local, opts.logger);
  const store = cluster.store;
  return {
    runtime: cluster,
    store,
    ownership: cluster,
    agenda: ownedAgenda(store, cluster),
    front: (parts) => clusterFront(cluster, parts, opts.bodyLimitBytes),
    listening: (port) => cluster.listening(port),
    attach: (parts) => followOwnership(cluster, parts),
    start: () => {
      cluster.startSweeping((err) =>
        opts.logger.warn({ err }, 'the sweep for unowned families failed'),
      );
      // The node owns no family yet: each family's outbox resumes when the node takes it.
      return Promise.resolve();
    },
    health: () => ({
      cluster: {
        node: cluster.nodeName,
        connected: cluster.connected,
        ownedFamilies: cluster.ownedFamilies().length,
      },
    }),
    metrics: (registry: Registry) => registerClusterMetrics(registry, cluster),
    // The next node takes this one's families at once rather than after their leases expire.
    release: () => cluster.releaseAll(),
    close: async () => {
      await cluster.close();
      await local.close();
    },
  };
}
