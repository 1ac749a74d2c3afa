/**
 * What changes in the daemon on a cluster node (docs/scaling.md): the scheduler sees only the
 * agenda of the families this node owns; taking a family drops any stale actor, wakes the
 * scheduler for the family's jobs and resumes its webhook outbox from the replicated
 * checkpoint; losing one drops its actor. Everything else runs as on the embedded daemon.
 */
import type { Logger } from 'pino';
import type { FamilyRegistry } from '../family/registry.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { AgendaReads } from '../store/ports.js';
import type { Store } from '../store/store.js';
import type { StoredAgendaJob } from '../store/types.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import type { ClusterRuntime } from './runtime.js';

/** The agenda of the families this node owns (each is small: a family's own timetable). */
export function ownedAgenda(
  store: Store,
  cluster: ClusterRuntime,
): Pick<AgendaReads, 'dueJobs' | 'earliestDue'> {
  const jobs = (): StoredAgendaJob[] =>
    cluster.heldFamilies().flatMap((id) => store.familyJobs(id));
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

export function followOwnership(
  cluster: ClusterRuntime,
  parts: {
    store: Store;
    registry: FamilyRegistry;
    scheduler: () => Scheduler | undefined;
    webhooks: Webhooks;
    logger: Logger;
  },
): void {
  const { store, registry, webhooks, logger } = parts;
  cluster.onTaken((familyId) => {
    registry.drop(familyId);
    const family = store.getFamily(familyId);
    logger.info({ familyId, family: family?.slug, node: cluster.nodeName }, 'took a family');
    // After the request that took it has its actor: the outbox and the agenda need one too.
    setImmediate(() => {
      for (const job of store.familyJobs(familyId)) parts.scheduler()?.jobAdded(job.dueAt);
      if (family) void webhooks.resume(family);
    });
  });
  cluster.onLost((familyId) => {
    registry.drop(familyId);
    logger.warn({ familyId, node: cluster.nodeName }, 'lost a family to another node');
  });
}
