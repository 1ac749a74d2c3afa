/**
 * Every kind of agenda job and the handler that runs it, composed in one place: the daemon
 * builds this table once and hands it to the scheduler. A kind that an area puts on the agenda
 * but that has no handler here would be logged and dropped — so each area that schedules work
 * adds its kind and handler to this table in the same change.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { FamilyRegistry } from '../family/registry.js';
import type { Store } from '../store/store.js';
import type { Egress } from '../integrations/egress.js';
import type { JobHandler } from './scheduler.js';
import { FEED_REFRESH } from '../domain/feeds/types.js';
import { feedRefreshHandler } from './feedRefresh.js';

export interface JobDeps {
  store: Store;
  registry: FamilyRegistry;
  config: Config;
  now: () => Date;
  logger: Logger;
  egress: Egress;
}

export function jobHandlers(deps: JobDeps): Readonly<Record<string, JobHandler>> {
  return {
    [FEED_REFRESH]: feedRefreshHandler(deps),
  };
}
