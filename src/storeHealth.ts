/**
 * The store's health in the daemon's log: a full disk is logged once when writes start failing
 * and once when they work again, and each reopen after a failed commit once.
 */
import type { Logger } from 'pino';
import type { StoreHealth } from './store/ports.js';

export function logStoreHealth(
  store: Pick<StoreHealth, 'onReopen' | 'onWriteHealth'>,
  logger: Logger,
): void {
  store.onWriteHealth((state, error) => {
    if (state === 'failing')
      logger.error(
        { kind: error?.kind, reason: error?.message },
        'writes are failing; reads go on',
      );
    else logger.info('writes work again');
  });
  // Each failed commit is followed by a fresh LMDB environment (store.ts: reopen); lmdb-js
  // prints each failure on stderr too, so this adds one line per failure at most.
  store.onReopen((failed) => {
    if (failed)
      logger.error({ err: failed }, 'could not reopen the store; trying again in a second');
    else logger.info('reopened the store after a failed commit');
  });
}
