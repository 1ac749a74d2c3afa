/**
 * `family update` from the command line reaches a running daemon: the CLI queues the change in
 * the store (it must not write a family whose state a daemon holds in memory) and bumps a
 * version; the daemon reads that one number every POLL_MS and runs each queued update on its
 * family's actor, which re-plans everything the change moves and removes it from the queue in
 * the same transaction. A family nobody holds applies its queued update when it next loads
 * (FamilyActor.activate), so a daemon started later does the same.
 */
import type { Logger } from 'pino';
import type { Directory } from '../store/ports.js';
import type { FamilyRegistry } from './registry.js';
import { OwnedElsewhere } from './ownership.js';

/** How often the daemon looks for queued updates: the CLI sees its change applied within this. */
export const POLL_MS = 100;

export function followQueuedFamilyUpdates(
  store: Pick<Directory, 'familyUpdatesVersion' | 'getFamily' | 'queuedFamilyUpdates'>,
  registry: FamilyRegistry,
  logger: Logger,
  everyMs = POLL_MS,
): { stop(): void } {
  let seen = -1;
  let running = false;
  const tick = async (): Promise<void> => {
    const version = store.familyUpdatesVersion();
    if (version === seen || running) return;
    running = true;
    try {
      let failed = false;
      for (const queued of store.queuedFamilyUpdates()) {
        const family = store.getFamily(queued.familyId);
        if (!family) continue;
        try {
          const applied = await (await registry.get(family)).applyQueuedUpdate();
          if (applied)
            logger.info(
              { family: applied.slug, timezone: applied.timezone },
              'applied a family update from the command line',
            );
        } catch (err) {
          // Another cluster node runs the family: it applies the update there.
          if (err instanceof OwnedElsewhere) continue;
          failed = true; // a full disk, a stop: it stays queued and the next tick tries again
          logger.warn(
            { err, familyId: queued.familyId },
            'a queued family update could not be applied yet',
          );
        }
      }
      if (!failed) seen = version;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => {
    void tick();
  }, everyMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
