/**
 * The daemon: opens the store, creates the first family on an empty store, wires the family
 * registry and the HTTP server, and stops in order (stop accepting, finish in-flight requests,
 * commit, close LMDB).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type Router from '@koa/router';
import type { Config } from './config.js';
import { Store } from './store/store.js';
import { FamilyRegistry } from './family/registry.js';
import { createFamily } from './family/keys.js';
import { createIdGenerator, type IdGenerator } from './domain/shared/ids.js';
import type { FamilyInfo } from './domain/shared/state.js';
import type { ChangeRecord } from './store/types.js';
import { createApp } from './http/app.js';
import { buildOpenApi } from './http/openapi.js';
import systemRoutes from './http/routes/system.js';
import { areaRoutes } from './http/routes/index.js';
import type { RouteDef, Services } from './http/route.js';
import { createLogger } from './logger.js';
import { Scheduler } from './scheduler/scheduler.js';
import { jobHandlers } from './scheduler/jobs.js';
import { createEgress, type Egress } from './integrations/egress.js';
import { closeSharedFeedReader } from './integrations/icsFeed.js';
import { VERSION } from './version.js';
import './domain/register.js';

export interface DaemonOptions {
  logger?: Logger;
  now?: () => Date;
  /** Called with the first family's key when the store was empty (default: print it). */
  onBootstrap?: (family: FamilyInfo, apiKey: string) => void;
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
  /** Nudged when a family's change log has grown (durably) up to `lastSeq` (webhooks, scheduler). */
  onCommitted: Set<(family: FamilyInfo, lastSeq: number) => void>;
  close(): Promise<void>;
}

export async function startDaemon(config: Config, opts: DaemonOptions = {}): Promise<Daemon> {
  const logger = opts.logger ?? createLogger(config.log.level);
  const now = opts.now ?? (() => new Date());
  const newId: IdGenerator = createIdGenerator(() => now().getTime(), (n) => randomBytes(n));
  const store = Store.open(config.storage.dataDir, { mapSizeBytes: config.storage.mapSizeMiB * 1024 * 1024 });
  // A full disk is logged once when writes start failing and once when they work again.
  store.onWriteHealth((state, error) => {
    if (state === 'failing') logger.error({ kind: error?.kind, reason: error?.message }, 'writes are failing; reads go on');
    else logger.info('writes work again');
  });

  // 1. First start on an empty store: a family and its admin key, printed once.
  const slug = config.families.bootstrapSlug;
  if (slug && store.listFamilies().length === 0) {
    const made = await createFamily(store, { slug, name: 'Home' }, {
      now: now(), newId, defaultTimezone: config.families.defaultTimezone, withKey: 'admin (first start)',
    });
    (opts.onBootstrap ?? printBootstrap)(made.family, made.apiKey!);
    logger.info({ family: made.family.slug }, 'created the first family');
  }

  // 2. Actors, routes, app.
  const onCommitted = new Set<(family: FamilyInfo, lastSeq: number) => void>();
  let scheduler: Scheduler | undefined;
  const registry = new FamilyRegistry({
    onAgendaChanged: (dueAt) => scheduler?.jobAdded(dueAt),
    store, now, newId, publicUrl: config.server.publicUrl.replace(/\/+$/, ''),
    onCommitted: (family, lastSeq) => {
      for (const fn of onCommitted) {
        try { fn(family, lastSeq); } catch (err) { logger.error({ err }, 'change-log observer failed'); }
      }
    },
  }, { idleMs: config.families.actorIdleMinutes * 60_000, maxActive: config.families.maxActiveActors });
  const egress = opts.egress ?? createEgress();
  const services: Services = { config, registry, store, now, logger, egress };
  scheduler = new Scheduler({
    store, registry, now, logger, catchUpMinutes: config.scheduler.catchUpMinutes,
    handlers: jobHandlers({ store, registry, config, now, logger, egress }),
  });
  let document: unknown;
  const routes: RouteDef[] = [];
  routes.push(...systemRoutes(() => document, VERSION), ...areaRoutes());
  document = buildOpenApi(routes, { version: VERSION, serverUrl: config.server.publicUrl });
  const { app, router } = createApp(services, routes);

  // 3. HTTP server with timeouts so slow clients cannot hold connections forever.
  const server = createServer(app.callback());
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ address: `${config.server.host}:${port}`, url, version: VERSION }, `listening on ${config.server.host}:${port}`);

  // 4. The agenda: what came due while the daemon was down runs now (or is recorded as missed).
  scheduler.start();

  // 5. Housekeeping: expired idempotency records, in bounded passes that follow each other
  //    while there is more to remove, then once a minute.
  let sweep: NodeJS.Timeout;
  const sweepPass = (): void => {
    store.sweepIdempotency(now().getTime(), 500).then(
      (removed) => { sweep = setTimeout(sweepPass, removed === 500 ? 50 : 60_000); sweep.unref(); },
      (err) => { logger.warn({ err }, 'idempotency sweep failed'); sweep = setTimeout(sweepPass, 60_000); sweep.unref(); },
    );
  };
  sweep = setTimeout(sweepPass, 1_000);
  sweep.unref();

  let closing: Promise<void> | null = null;
  const close = () => (closing ??= (async () => {
    clearTimeout(sweep);
    closeSharedFeedReader(egress); // a slow feed must not hold the stop up
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
    await scheduler!.stop();
    await registry.shutdown();
    await store.close();
    logger.info('stopped');
    logger.flush?.();
  })());

  return { url, port, store, registry, scheduler, egress, routes, router, server, onCommitted, close };
}

function printBootstrap(family: FamilyInfo, apiKey: string): void {
  process.stdout.write(
    `\nCreated the first family "${family.slug}" (time zone ${family.timezone}).\n` +
    `Its admin API key is shown only this once; keep it somewhere safe:\n\n    ${apiKey}\n\n` +
    `Try: curl -H 'x-api-key: ${apiKey}' http://localhost:<port>/api/v1/families/${family.slug}/changes\n\n`);
}
