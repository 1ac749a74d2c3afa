/**
 * The daemon: opens the store, wires the family registry and the HTTP server, listens, and only
 * then creates the first family on an empty store (so a start that cannot listen leaves no
 * family whose key nobody saw); stops in order (stop accepting, finish in-flight requests,
 * commit, close LMDB).
 * The first start is in bootstrap.ts, the background sweeps in housekeeping.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomFillSync } from 'node:crypto';
import type { Logger } from 'pino';
import type Router from '@koa/router';
import type { Config } from './config.js';
import { Store } from './store/store.js';
import { FamilyRegistry } from './family/registry.js';
import { areaReactions } from './domain/areas.js';
import { followQueuedFamilyUpdates } from './family/queuedUpdates.js';
import { listen } from './listen.js';
import { createIdGenerator, pooledRandom, type IdGenerator } from './domain/shared/ids.js';
import type { FamilyInfo } from './domain/shared/state.js';
import { createApp } from './http/app.js';
import { DoorLimits } from './http/middleware/rateLimit.js';
import { daemonOpenApi } from './http/apiDocument.js';
import systemRoutes from './http/routes/system.js';
import { areaRoutes } from './http/routes/index.js';
import type { Door, RouteDef, Services } from './http/route.js';
import { publicRoutes } from './public/index.js';
import { createLogger } from './logger.js';
import { Scheduler } from './scheduler/scheduler.js';
import { jobHandlers } from './scheduler/jobs.js';
import { createEgress, type Egress } from './integrations/egress.js';
import { Notifier } from './notifications/sender.js';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.js';
import { InFlightGauge } from './webhooks/budget.js';
import { webhookCheckpoint } from './domain/webhooks/destinations.js';
import { closeSharedFeedReader } from './integrations/icsFeed.js';
import { VERSION } from './version.js';
import { Metrics } from './metrics.js';
import { addressWarnings, publicUrlWarning } from './banner.js';
import { MCP_PATH, mcpEndpoint } from './mcp/endpoint.js';
import { OAuthAuthority } from './oauth/authority.js';
import { oauthDoor } from './oauth/endpoints.js';
import { looksLikeAccessToken } from './oauth/credentials.js';
import { LocalFollowedLog } from './stream/log.js';
import { StreamHub } from './stream/hub.js';
import streamRoutes from './stream/routes.js';
import { StreamTickets } from './stream/tickets.js';
import { DisplayWeatherCache } from './public/displayWeather.js';
import { DisplayStreams } from './public/displayStream.js';
import { RateLimiter } from './http/middleware/rateLimit.js';
import { idempotencyGate } from './http/middleware/idempotency.js';
import { caldavDoor } from './caldav/door.js';
import { bootstrap, type BootstrapHooks } from './bootstrap.js';
import { startHousekeeping } from './housekeeping.js';
import { ClusterRuntime } from './cluster/runtime.js';
import { followOwnership, ownedAgenda } from './cluster/daemon.js';
import { clusterDoor } from './cluster/door.js';
import { registerClusterMetrics } from './cluster/metrics.js';
import { logStoreHealth } from './storeHealth.js';
import { Addresses } from './addresses.js';
import { scheduledBackups, type ScheduledBackups } from './backup/scheduled.js';
import { HouseholdAccess } from './family/access.js';
import { deviceRoutes } from './http/routes/devices.js';
import { householdPages } from './pages/index.js';

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
  store: Store;
  registry: FamilyRegistry;
  routes: RouteDef[];
  /** The Koa router, so tests can walk every registered route. */
  router: Router;
  server: Server;
  /** Observers of committed change-log records (webhooks, scheduler). */
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
  onCommitted: Set<(family: FamilyInfo, lastSeq: number) => void>;
  /** The live change stream's fan-out (open streams: `openCount`). */
  streams: StreamHub;
  /**
   * Prometheus metrics (no-ops unless metrics.enabled): webhookOutcome, followChangeLog
   * (src/metrics.ts).
   */
  metrics: Metrics;
  logger: Logger;
  /** This node's cluster membership, when the configuration has a `cluster` section. */
  cluster?: ClusterRuntime;
  /** Where links point and who a request's client is (src/addresses.ts). */
  addresses: Addresses;
  /** Scheduled backups, when `backup.every` is set. */
  backups: ScheduledBackups | null;
  close(): Promise<void>;
}

export async function startDaemon(config: Config, opts: DaemonOptions = {}): Promise<Daemon> {
  const logger = opts.logger ?? createLogger(config.log.level, undefined, config.log.format);
  const now = opts.now ?? (() => new Date());
  const newId: IdGenerator = createIdGenerator(
    () => now().getTime(),
    pooledRandom((b) => randomFillSync(b)),
  );
  const store = Store.open(config.storage.dataDir, {
    mapSizeBytes: config.storage.mapSizeMiB * 1024 * 1024,
  });
  logStoreHealth(store, logger);
  // Links follow the address each request came to unless publicUrl fixes one; stored links
  // use publicUrl or the listening address (known once it listens).
  const addresses = new Addresses(config.server);
  // A cluster node (docs/scaling.md): writes go through the replicated log, families run on
  // the node that holds their lease.
  const cluster = config.cluster
    ? await ClusterRuntime.start(config.cluster, store, logger).catch(async (err: unknown) => {
        await store.close();
        throw err;
      })
    : undefined;

  // 1. Actors, routes, app.
  const onCommitted = new Set<(family: FamilyInfo, lastSeq: number) => void>();
  let scheduler: Scheduler | undefined;
  const registry = new FamilyRegistry(
    {
      onAgendaChanged: (dueAt) => scheduler?.jobAdded(dueAt),
      store,
      now,
      newId,
      // Read at each command: what the change log records is built on it, never on a Host.
      get publicUrl() {
        return addresses.stored;
      },
      react: areaReactions(),
      transports: {
        email: config.email.smtpUrl !== null,
        push: config.push.ntfyUrl !== null,
        sms: config.sms.gatewayUrl !== null,
      },
      onCommitted: (family, lastSeq) => {
        for (const fn of onCommitted) {
          try {
            fn(family, lastSeq);
          } catch (err) {
            logger.error({ err }, 'change-log observer failed');
          }
        }
      },
    },
    {
      idleMs: config.families.actorIdleMinutes * 60_000,
      maxActive: config.families.maxActiveActors,
      ...(cluster ? { ownership: cluster } : {}),
    },
  );
  const egress = opts.egress ?? createEgress();
  const notifier = new Notifier({ config, egress, logger });
  // The webhook outbox follows every family's log from its checkpoint.
  const metrics = new Metrics(config.metrics.enabled, { store, registry, now, version: VERSION });
  // Requests being answered: while they queue, deliveries keep only a small share of the
  // thread (docs/webhooks.md, "Sharing the thread").
  const requests = new InFlightGauge();
  const webhooks = createWebhooks({
    store,
    registry,
    egress,
    config,
    now,
    logger,
    newId,
    requestsInFlight: () => requests.meanSinceLastAsked(),
    onOutcome: (outcome, status) => metrics.webhookOutcome(outcome, status),
  });
  metrics.followChangeLog('webhooks', (actor) => webhookCheckpoint(actor.state));
  onCommitted.add((family, lastSeq) => webhooks.nudge(family, lastSeq));
  // The live streams follow the log through one small interface (src/stream/log.ts).
  const followed = new LocalFollowedLog({
    readLog: (familyId, after, limit) => store.readLog(familyId, after, limit),
    durableHead: (familyId) => registry.peek(familyId)?.lastDurableSeq ?? store.lastSeq(familyId),
  });
  onCommitted.add((family, lastSeq) => followed.committed(family.id, lastSeq));
  const hub = new StreamHub(followed, {
    heartbeatMs: config.stream.heartbeatSeconds * 1000,
    maxBacklog: config.stream.maxBacklog,
    perKey: config.stream.perKey,
    keyValid: (keyId) => {
      const k = store.getKey(keyId);
      return k !== undefined && !k.revokedAt;
    },
    // An open stream is not a request being answered: it must not count as load (webhooks'
    // share of the thread follows that count).
    onOpen: () => requests.add(-1),
    onClose: () => requests.add(1),
  });
  const stream = { hub, log: followed, tickets: new StreamTickets(() => now().getTime()) };
  const display = {
    weather: new DisplayWeatherCache({ egress, config, now }),
    streams: new DisplayStreams({
      log: followed,
      heartbeatMs: config.stream.heartbeatSeconds * 1000,
      onOpen: () => requests.add(-1),
      onClose: () => requests.add(1),
    }),
    // An interactive display's actions: counted per display, idempotent per display.
    limiter: new RateLimiter(config.display.actionsPerMinute, () => now().getTime()),
    replays: idempotencyGate(store, now),
  };
  // Assistants authorize the OAuth way (docs/oauth.md); the daemon is its own authorization server.
  const authority = new OAuthAuthority({ store, registry, now, newId });
  const services: Services = {
    config,
    addresses,
    registry,
    store,
    now,
    logger,
    notifier,
    webhooks,
    egress,
    grants: authority,
    stream,
    limits: new DoorLimits(config.rateLimit, () => now().getTime()),
    display,
    ...(cluster ? { cluster } : {}),
  };
  scheduler = new Scheduler({
    store,
    registry,
    now,
    logger,
    catchUpMinutes: config.scheduler.catchUpMinutes,
    handlers: jobHandlers({ store, registry, config, now, logger, egress, notifier, webhooks }),
    ...(cluster ? { agenda: ownedAgenda(store, cluster) } : {}),
  });
  if (cluster)
    followOwnership(cluster, { store, registry, scheduler: () => scheduler, webhooks, logger });
  let document: unknown;
  const oauth = oauthDoor(services, store, authority, MCP_PATH);
  // Setup codes, sign-in links, browser sessions and devices: key records of their kinds.
  const access = new HouseholdAccess(store);
  // The front doors, side by side; a new door is one more line here.
  const doors: Door[] = [
    { name: 'system', routes: systemRoutes(() => document, VERSION, metrics) },
    { name: 'rest', routes: [...areaRoutes(), ...deviceRoutes(access)] },
    { name: 'public', routes: publicRoutes() },
    { name: 'stream', routes: streamRoutes },
    // Assistants' OAuth (docs/oauth.md): metadata, registration, consent page, tokens.
    { name: 'oauth', mount: () => oauth.middleware },
    // The assistant surface: tool calls come back in as REST requests to this daemon's address.
    {
      name: 'mcp',
      mount: (c) =>
        mcpEndpoint({
          ...c,
          grants: {
            verifyAccess: (token, resource) => authority.verifyAccess(token, resource),
            urlsFor: (ctx) => oauth.urlsFor(ctx),
            isAccessToken: looksLikeAccessToken,
          },
        }),
    },
    // Calendar apps (CalDAV): /.well-known/caldav and /dav/…, in their own XML and iCalendar.
    { name: 'caldav', mount: ({ services: s }) => caldavDoor(s) },
    // The household's own pages (docs/pages.md): setup, sign-in, devices, people, family.
    { name: 'pages', mount: (c) => householdPages({ ...c, access }) },
  ];
  const routes: RouteDef[] = doors.flatMap((d) => d.routes ?? []);
  document = daemonOpenApi(routes, addresses.publicBase ?? '/');
  // A cluster node passes requests for families another node owns to that node first.
  const front = cluster
    ? clusterDoor(services, cluster, {
        bearerFamily: (token) => authority.verifyAccess(token, null)?.family.id,
      })
    : undefined;
  if (cluster) metrics.extend((registry) => registerClusterMetrics(registry, cluster));
  const { app, router } = createApp(services, routes, metrics, front);
  for (const door of doors) {
    if (door.mount) app.use(door.mount({ services, routes, baseUrl: () => url, version: VERSION }));
  }

  // 2. HTTP server with timeouts so slow clients cannot hold connections forever. A failed
  //    listen (port in use, foreign address) closes the store and throws a one-line ListenError.
  const handle = app.callback();
  // `void`: Koa's request handler settles every request itself — a rejection is answered by
  // ctx.onerror (our error middleware's 500) — so its promise has nothing left to report.
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('request', (_req, res) => {
    requests.add(1);
    res.once('close', () => requests.add(-1));
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  try {
    await listen(server, config.server.host, config.server.port);
  } catch (err) {
    await registry.shutdown();
    await cluster?.close();
    await store.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  cluster?.listening(port);
  addresses.listening(port);
  const url = addresses.local;
  const warnings = addressWarnings(config.server, port);
  for (const w of warnings) logger.warn({ publicUrl: config.server.publicUrl }, w);

  // 3. First start on an empty store: a family and its admin key, printed once — only now that
  //    the server listens, so the key is never printed by a start that then fails. A store whose
  //    first family has no usable key says how to make one, at every start.
  const slug = config.families.bootstrapSlug;
  if (slug) {
    try {
      await bootstrap(store, slug, {
        config,
        now,
        newId,
        logger,
        addresses,
        opts,
        publicUrlUnusable:
          publicUrlWarning(config.server.host, config.server.publicUrl, port) !== null,
      });
    } catch (err) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.shutdown();
      await cluster?.close();
      await store.close();
      throw err;
    }
  }
  logger.info(
    {
      address: `${config.server.host}:${port}`,
      url,
      publicUrl: config.server.publicUrl,
      addresses: addresses.shareable,
      version: VERSION,
    },
    `listening on ${config.server.host}:${port}`,
  );

  // 4. The agenda: what came due while the daemon was down runs now (or is recorded as missed).
  scheduler.start();
  cluster?.startSweeping((err) => logger.warn({ err }, 'the sweep for unowned families failed'));
  // A cluster node owns no family yet: each family's outbox resumes when the node takes it.
  if (!cluster) await webhooks.start();
  // `family update` from the command line, applied on the family's actor within POLL_MS.
  const queuedUpdates = followQueuedFamilyUpdates(store, registry, logger);

  // 5. Housekeeping: expired idempotency records, OAuth codes, tokens and unused registrations;
  //    scheduled backups of the store when backup.every is set.
  const housekeeping = startHousekeeping(store, authority, now, logger);
  const backups = scheduledBackups(config, { store, now, logger, metrics });

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      housekeeping.stop();
      await backups?.stop();
      queuedUpdates.stop();
      closeSharedFeedReader(egress); // a slow feed must not hold the stop up
      hub.close(); // open streams end now, or the server would wait for them
      display.streams.close();
      // Stop accepting; idle keep-alive sockets go now, busy ones once their request finishes.
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive socket turns idle when its last response is sent; close those as they do.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 25);
      const forced = setTimeout(() => server.closeAllConnections(), 8_000);
      forced.unref();
      await stopped;
      clearInterval(idle);
      clearTimeout(forced);
      await scheduler.stop();
      // Sends in flight record their outcome; what they leave pending goes out at the next start.
      await notifier.close();
      await webhooks.stop();
      await registry.shutdown();
      // The next node takes this one's families at once rather than after their leases expire.
      await cluster?.releaseAll();
      await cluster?.close();
      await store.close();
      logger.info('stopped');
      logger.flush?.();
    })());

  return {
    url,
    port,
    store,
    registry,
    scheduler,
    egress,
    notifier,
    webhooks,
    routes,
    router,
    server,
    onCommitted,
    metrics,
    logger,
    close,
    streams: hub,
    addresses,
    backups,
    ...(cluster ? { cluster } : {}),
  };
}
