/**
 * The daemon: opens its topology (the store, wired once: embedded LMDB or a cluster node's LMDB
 * behind the replicated log), makes its parts (daemon/parts.ts) and its doors
 * (daemon/doors.ts), listens, and only then creates the first family on an empty store (so a
 * start that cannot listen leaves no family whose key nobody saw); stops in order (stop
 * accepting, finish in-flight requests, commit, give up what others can take, close the
 * store). Nothing here knows which topology it runs on. The first start is in bootstrap.ts, the
 * background sweeps in housekeeping.ts.
 */
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type Router from '@koa/router';
import type { Config } from './config.js';
import type { FamilyRegistry } from './family/registry.js';
import type { AnyRoute } from './door/route.js';
import type { Door } from './door/door.js';
import type { DoorState } from './door/state.js';
import { createLogger } from './logger.js';
import type { Scheduler } from './scheduler/scheduler.js';
import type { Egress } from './integrations/egress.js';
import type { Notifier } from './notifications/sender.js';
import type { Webhooks } from './webhooks/webhooks.js';
import type { Metrics } from './metrics.js';
import type { StreamHub } from './stream/hub.js';
import type { HouseholdStore } from './store/ports.js';
import type { Topology } from './topology/topology.js';
import { followQueuedFamilyUpdates } from './family/queuedUpdates.js';
import { closeSharedFeedReader } from './integrations/icsFeed.js';
import { VERSION } from './version.js';
import { bootstrap, type BootstrapHooks } from './bootstrap.js';
import { startHousekeeping } from './housekeeping.js';
import { HouseholdAccess } from './family/access.js';
import { openTopology } from './daemon/topology.js';
import { buildParts, type CommitObservers, type DaemonParts } from './daemon/parts.js';
import { composeDoors, type ComposedDoors } from './daemon/doors.js';
import type { Addresses } from './addresses.js';
import { scheduledBackups, type ScheduledBackups } from './backup/scheduled.js';
import { serveHttp, stopHttp, type Served } from './daemon/http.js';

/** Options of the daemon; the first start's hooks (onBootstrap, onNoKey) are in bootstrap.ts. */
export interface DaemonOptions extends BootstrapHooks {
  logger?: Logger;
  now?: () => Date;
  /** The outbound client (default: a guard over the system resolver); tests pass their own. */
  egress?: Egress;
}

export interface Daemon {
  url: string;
  port: number;
  /** The store as the daemon works with it (every port at once). */
  store: HouseholdStore;
  registry: FamilyRegistry;
  routes: readonly AnyRoute[];
  /** Every front door (REST first): its name, prefixes and form. */
  doors: readonly Door<never>[];
  /** The Koa router, so tests can walk every registered route. */
  router: Router<DoorState>;
  server: Server;
  /** Runs the agenda's due jobs. */
  scheduler: Scheduler;
  /** The one outbound HTTP client (egress guard). */
  egress: Egress;
  /** Sends notifications through their transports. */
  notifier: Notifier;
  /** The webhook outbox and sender. */
  webhooks: Webhooks;
  /**
   * Nudged when a family's change log has grown (durably) up to `lastSeq` (webhooks, scheduler).
   */
  onCommitted: CommitObservers;
  /** The live change stream's fan-out (open streams: `openCount`). */
  streams: StreamHub;
  /**
   * Prometheus metrics (no-ops unless metrics.enabled): webhookOutcome, followChangeLog
   * (src/metrics.ts).
   */
  metrics: Metrics;
  logger: Logger;
  /** Embedded, or a node of a cluster (src/topology/). */
  topology: Topology;
  /** Where links point and who a request's client is (src/addresses.ts). */
  addresses: Addresses;
  /** Scheduled backups, when `backup.every` is set. */
  backups: ScheduledBackups | null;
  close(): Promise<void>;
}

export async function startDaemon(config: Config, opts: DaemonOptions = {}): Promise<Daemon> {
  const logger = opts.logger ?? createLogger(config.log.level, undefined, config.log.format);
  const now = opts.now ?? (() => new Date());
  // 1. The topology, its store; the parts; the doors. The topology follows what the registry,
  //    the scheduler and the outbox do before the first request can arrive.
  const topology = await openTopology(config, logger);
  const parts = buildParts(config, topology, { logger, now, egress: opts.egress });
  topology.attach(parts);
  let url = '';
  const doors = composeDoors(parts, () => url);

  // 2. The HTTP server (a failed listen closes everything and throws a one-line ListenError).
  const served = await serveHttp(config, parts.addresses, doors.app, parts.requests, () =>
    closeParts(parts),
  );
  url = served.url;
  topology.listening(served.port);
  for (const w of served.addressWarnings) logger.warn({ publicUrl: config.server.publicUrl }, w);

  // 3. First start on an empty store: a family and its admin key, printed once — only now that
  //    the server listens, so the key is never printed by a start that then fails. A store whose
  //    first family has no usable key says how to make one, at every start.
  await firstStart(config, parts, served, opts);
  logger.info(
    {
      address: `${config.server.host}:${served.port}`,
      url,
      publicUrl: config.server.publicUrl,
      addresses: parts.addresses.shareable,
      version: VERSION,
    },
    `listening on ${config.server.host}:${served.port}`,
  );

  // 4. The agenda: what came due while the daemon was down runs now (or is recorded as
  //    missed); then what the topology runs in the background (outboxes, a node's sweeps).
  parts.scheduler.start();
  await topology.start();
  // `family update` from the command line, applied on the family's actor within POLL_MS.
  const queuedUpdates = followQueuedFamilyUpdates(parts.store, parts.registry, logger);
  // 5. Housekeeping: expired idempotency records, OAuth codes, tokens and unused registrations,
  //    ended browser sessions; scheduled backups of the store when backup.every is set.
  const housekeeping = startHousekeeping(
    parts.store,
    parts.authority,
    now,
    logger,
    new HouseholdAccess(parts.store),
  );
  const backups = scheduledBackups(config, {
    store: parts.store,
    now,
    logger,
    metrics: parts.metrics,
  });

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      housekeeping.stop();
      await backups?.stop();
      queuedUpdates.stop();
      closeSharedFeedReader(parts.egress); // a slow feed must not hold the stop up
      doors.hub.close(); // open streams end now, or the server would wait for them
      doors.display.streams.close();
      await stopHttp(served.server);
      await closeParts(parts, true);
      logger.info('stopped');
      logger.flush?.();
    })());
  return daemonOf(parts, doors, served, { close, backups });
}

/** The first family of an empty store (bootstrap.ts); a failure stops what started. */
async function firstStart(
  config: Config,
  parts: DaemonParts,
  served: Served,
  opts: DaemonOptions,
): Promise<void> {
  const slug = config.families.bootstrapSlug;
  if (!slug) return;
  try {
    await bootstrap(parts.store, slug, {
      config,
      now: parts.now,
      newId: parts.newId,
      logger: parts.logger,
      addresses: parts.addresses,
      opts,
      publicUrlUnusable: served.publicUrlWarning !== null,
    });
  } catch (err) {
    await new Promise<void>((resolve) => served.server.close(() => resolve()));
    await closeParts(parts);
    throw err;
  }
}

/**
 * Stops the parts in order: the scheduler and the senders (sends in flight record their
 * outcome; what they leave pending goes out at the next start), the actors (commits in flight
 * finish), then the topology (an orderly stop gives up what others can take at once) and the
 * store.
 */
async function closeParts(parts: DaemonParts, orderly = false): Promise<void> {
  if (orderly) {
    await parts.scheduler.stop();
    await parts.notifier.close();
    await parts.webhooks.stop();
  }
  await parts.registry.shutdown();
  if (orderly) await parts.topology.release();
  await parts.topology.close();
}

function daemonOf(
  parts: DaemonParts,
  doors: ComposedDoors,
  served: Served,
  rest: Pick<Daemon, 'close' | 'backups'>,
): Daemon {
  return {
    url: served.url,
    port: served.port,
    store: parts.store,
    registry: parts.registry,
    scheduler: parts.scheduler,
    egress: parts.egress,
    notifier: parts.notifier,
    webhooks: parts.webhooks,
    routes: doors.routes,
    doors: doors.doors,
    router: doors.router,
    server: served.server,
    onCommitted: parts.onCommitted,
    metrics: parts.metrics,
    logger: parts.logger,
    topology: parts.topology,
    streams: doors.hub,
    addresses: parts.addresses,
    ...rest,
  };
}
