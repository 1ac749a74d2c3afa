/**
 * Every kind of agenda job and the handler that runs it, composed in one place: the daemon
 * builds this table once and hands it to the scheduler (the scheduler knows no area; each
 * area's handlers know the scheduler's types only). The table is typed by the kinds of
 * src/domain/shared/jobs.ts, so a kind an area puts on the agenda without a handler here does
 * not compile.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { FamilyRegistry } from '../family/registry.js';
import type { Directory } from '../store/ports.js';
import type { Egress } from '../integrations/egress.js';
import type { Notifier } from '../notifications/sender.js';
import { notificationJobs } from '../notifications/jobs.js';
import type { JobHandlers } from '../scheduler/scheduler.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import { DELIVER_KIND } from '../domain/webhooks/types.js';
import { FEED_REFRESH } from '../domain/feeds/types.js';
import { feedRefreshHandler } from '../feeds/jobs.js';

export interface JobDeps {
  store: Pick<Directory, 'getFamily'>;
  registry: FamilyRegistry;
  config: Config;
  now: () => Date;
  logger: Logger;
  egress: Egress;
  /** Sends notifications' pending deliveries (the notifications area's jobs). */
  notifier: Notifier;
  webhooks: Webhooks;
}

export function jobHandlers(deps: JobDeps): JobHandlers {
  return {
    // notify.*: reminders, leave-by, coverage alerts, checks, routines, sends, pruning.
    ...notificationJobs(deps),
    // A delivery's retry, or a lease that ran out (src/webhooks/webhooks.ts).
    [DELIVER_KIND]: deps.webhooks.handleJob,
    [FEED_REFRESH]: feedRefreshHandler(deps),
  };
}
