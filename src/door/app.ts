/**
 * The Koa application every door stands in: request id and log line, request metrics, CORS
 * (preflights answered here, before any credential is asked for), then the error boundary —
 * which knows the door of the request's path and writes whatever is thrown below it as that
 * door's answer — then the topology's front (a cluster node passes a request for a family
 * another node owns to that node), the doors' own handlers, and the one route chain of every
 * door's routes (routes.ts). What nobody answers is the path's door's 404 (unknown path), 405
 * (with Allow) or 501.
 */
import Koa from 'koa';
import type Router from '@koa/router';
import { answerFor, answerOf, DoorError } from './errors.js';
import { requestLog } from './requestLog.js';
import { requestMetrics, type RequestObserver } from './requestMetrics.js';
import { cors } from './cors.js';
import { doorFinder, type Door, type FamilyFinder, type Mounted } from './door.js';
import { credentialOf, type Credentials } from './credentials.js';
import type { CoreServices, Route } from './route.js';
import { routeRouter } from './routes.js';
import type { DoorContext, DoorMiddleware, DoorState } from './state.js';
import type { Directory } from '../store/ports.js';
import type { RequestOrigin } from '../addresses.js';

/** How the topology's front finds a request's family: its door asks the request. */
export type FamilyOfRequest = (ctx: Koa.Context) => string | null;

/** What the topology's front is told of a request, without reading its body. */
export interface FrontParts {
  /** The family the request is for, as its door tells it. */
  familyOf: FamilyOfRequest;
  /** The origin the client addressed (src/addresses.ts), passed on with a forward. */
  originOf: (ctx: Koa.Context) => RequestOrigin | null;
}

export interface AppParts<S extends CoreServices> {
  services: S;
  /** Every door; the first answers (in its form) the paths no door owns. */
  doors: readonly Door<S>[];
  /** Where the front finds families by slug. */
  directory: Pick<Directory, 'getFamilyBySlug'>;
  /** Request metrics, when they are on. */
  metrics?: RequestObserver | undefined;
  /** The topology's front (a cluster node's), given what it may know of a request. */
  front?: ((parts: FrontParts) => DoorMiddleware | null) | undefined;
  baseUrl: () => string;
  version: string;
}

export interface App {
  app: Koa<DoorState>;
  router: Router<DoorState>;
  /** Every door's routes, in the order they are matched. */
  routes: readonly Route<never>[];
}

export function createApp<S extends CoreServices>(parts: AppParts<S>): App {
  const { services, doors } = parts;
  // Koa's own proxy setting trusts every peer or none; which peers may speak for the client
  // (server.trustedProxies) is decided per request in src/addresses.ts instead, first of all.
  const app = new Koa<DoorState>({ proxy: false });
  app.silent = true;
  const routes = doors.flatMap((d) => d.routes ?? []);
  const router = routeRouter(routes, services);
  const byName = new Map(doors.map((d) => [d.name, d]));

  app.use((ctx, next) => {
    ctx.request.ip = services.addresses.clientIp(ctx);
    return next();
  });
  app.use(requestLog(services.logger));
  if (parts.metrics) app.use(requestMetrics(parts.metrics, (ctx) => labelOf(byName, ctx)));
  if (services.config.server.corsOrigins.length) app.use(cors(services.config.server.corsOrigins));
  app.use(boundary(doors));
  const front = parts.front?.({
    familyOf: familyOfRequest(byName, finder(services.credentials, parts.directory)),
    originOf: (ctx) => services.addresses.origin(ctx),
  });
  if (front) app.use(front);
  const mounted: Mounted<S> = {
    services,
    routes,
    baseUrl: parts.baseUrl,
    version: parts.version,
  };
  // One middleware finds the request's door's own handler: a layer per door cost every
  // request an async frame per door it was not for.
  const handlers = new Map<string, DoorMiddleware>();
  for (const door of doors) if (door.handler) handlers.set(door.name, door.handler(mounted));
  app.use((ctx, next): Promise<void> => {
    const handler = handlers.get(ctx.state.door ?? '');
    return handler ? (handler(ctx, next) as Promise<void>) : next();
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return { app, router, routes };
}

/**
 * The error boundary: the door of the request is known before anything runs, and whatever is
 * thrown below is answered through the error table in that door's form. A bug is logged with
 * the request id (the request log) and answered `internal`, without details.
 */
function boundary<S>(doors: readonly Door<S>[]): DoorMiddleware {
  const find = doorFinder(doors);
  return async (ctx, next) => {
    const door = find(ctx.method, ctx.path);
    ctx.state.door = door.name;
    try {
      await next();
      // Only what reached the router (it leaves its match on the context); a door's own
      // handler answers in its own way.
      if ((ctx as { matched?: unknown }).matched) unanswered(ctx);
    } catch (err) {
      let answer = answerOf(err);
      if (!answer) {
        ctx.state.error = err;
        answer = answerFor('internal');
      }
      door.render(answer, ctx);
    }
  };
}

/**
 * What no door or route answered: the path's door's 404, 405 (with Allow) or 501. Checked by
 * the boundary once everything below it is done (a middleware of its own cost every request an
 * async frame).
 */
function unanswered(ctx: DoorContext): void {
  if (ctx.status === 404 && ctx.body === undefined) {
    throw new DoorError('unknown_path', `No such path: ${ctx.method} ${ctx.path}`);
  }
  // The router answers 405 (with Allow) and 501 in plain text: every door writes its own.
  if (ctx.status === 405 && ctx.body === undefined) {
    const allow = ctx.response.get('Allow');
    throw new DoorError(
      'method_not_allowed',
      `${ctx.method} is not allowed on this path; it takes ${allow}`,
      { headers: { Allow: allow } },
    );
  } else if (ctx.status === 501 && typeof ctx.body !== 'object') {
    throw new DoorError('not_implemented', `The method ${ctx.method} is not supported`);
  }
}

function finder(
  credentials: Credentials,
  directory: Pick<Directory, 'getFamilyBySlug'>,
): FamilyFinder {
  return {
    bySlug: (slug) => directory.getFamilyBySlug(slug)?.id ?? null,
    byCredential: (c) => credentials.familyIdOf(c),
    credentialOf: (ctx) => credentialOf(ctx),
  };
}

/** The metrics label a request's door gives its path, when the router matched none. */
function labelOf<S>(byName: Map<string, Door<S>>, ctx: Koa.Context): string | null {
  const door = byName.get((ctx.state as DoorState).door ?? '');
  return door?.routeLabel?.(ctx.path) ?? null;
}

function familyOfRequest<S>(byName: Map<string, Door<S>>, find: FamilyFinder): FamilyOfRequest {
  return (ctx) => {
    const door = byName.get((ctx.state as DoorState).door ?? '');
    return door ? door.familyOf(ctx, find) : null;
  };
}
