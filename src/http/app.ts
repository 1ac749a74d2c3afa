/**
 * The Koa application: request id and log line, request metrics, CORS (preflights answered
 * here, before any key is asked for), error mapping, then the router built from the route
 * declarations, then 405/501 and a JSON 404 for everything else.
 *
 * Per family route the chain is: authenticate (key, family, scope; a failed key spends its
 * address's budget of failures, past which it is answered 429) → rate limit per key or grant
 * (the daemon's one limiter, shared with every door) → body (middleware/body.ts: JSON or 415, 413
 * over the limit, 400 for malformed or hostile JSON) → idempotency → validate query and body
 * → handler on the family's actor. Public routes are rate limited per client address (and per
 * link, once the route has found what its token opens).
 */
import Koa from 'koa';
import Router from '@koa/router';
import { Invalid, issuesMessage } from '../domain/shared/errors.js';
import { HttpError } from './errors.js';
import { errorBody, errorMiddleware } from './middleware/errors.js';
import { requestLog } from './middleware/requestLog.js';
import { requestMetrics } from './middleware/metrics.js';
import { cors } from './middleware/cors.js';
import type { Metrics } from '../metrics.js';
import { authenticate, KeyCache } from './middleware/auth.js';
import { failedCredentials, publicRateLimit, rateLimit } from './middleware/rateLimit.js';
import { jsonBody } from './middleware/body.js';
import {
  idempotency,
  keptAnswer,
  keptUnder,
  type IdempotencyIntent,
} from './middleware/idempotency.js';
import type { FamilyActor } from '../family/actor.js';
import type { Caller } from '../domain/shared/state.js';
import { validateInput } from './validate.js';
import {
  fullPath,
  isWithStatus,
  JsonText,
  requiredScope,
  type FamilyHandle,
  type RouteDef,
  type Services,
} from './route.js';

export function createApp(
  services: Services,
  routes: RouteDef[],
  metrics?: Metrics,
  /** Runs first inside the error mapping, before any route or door (a cluster node's). */
  front?: Koa.Middleware,
): { app: Koa; router: Router } {
  // Koa's own proxy setting trusts every peer or none; which peers may speak for the client
  // (server.trustedProxies) is decided per request in src/addresses.ts instead, first of all.
  const app = new Koa({ proxy: false });
  app.silent = true;
  const router = new Router();
  const limit = rateLimit(services.limits);
  const publicLimit = publicRateLimit(services.limits);
  // A repeat is looked for once the family runs here (a cluster takeover caught it up).
  const idem = idempotency(services.store, services.now, (family) => services.registry.get(family));
  const keyCache = new KeyCache(services.store);
  const body = jsonBody(services.config.server.bodyLimitBytes);

  for (const def of routes) {
    const scope = requiredScope(def);
    const chain: Koa.Middleware[] = [];
    if (scope === 'public') chain.push(publicLimit);
    else
      chain.push(
        failedCredentials(services.limits, authenticate(services, scope, keyCache, def.ticketed)),
        limit,
      );
    if (def.method !== 'get') chain.push(body);
    if (scope !== 'public' && def.method !== 'get') chain.push(idem);
    chain.push(handle(def, services, scope !== 'public'));
    router.register(fullPath(def), [def.method.toUpperCase()], chain, {
      name: `${def.method} ${fullPath(def)}`,
    });
  }

  app.use(async (ctx, next) => {
    ctx.request.ip = services.addresses.clientIp(ctx);
    await next();
  });
  app.use(requestLog(services.logger));
  if (metrics?.enabled) app.use(requestMetrics(metrics));
  if (services.config.server.corsOrigins.length) app.use(cors(services.config.server.corsOrigins));
  app.use(errorMiddleware());
  if (front) app.use(front);
  app.use(async (ctx, next) => {
    await next();
    // The router answers 405 (with Allow) and 501 in plain text; every answer is JSON here.
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new HttpError(404, 'not_found', `No such path: ${ctx.method} ${ctx.path}`);
    }
    // A door that answers 405 itself (CalDAV, in XML) keeps its body.
    if (ctx.status === 405 && ctx.body === undefined) {
      ctx.body = errorBody(
        `${ctx.method} is not allowed on this path; it takes ${ctx.response.get('Allow')}`,
        'method_not_allowed',
      );
    } else if (ctx.status === 501 && typeof ctx.body !== 'object') {
      ctx.body = errorBody(`The method ${ctx.method} is not supported`, 'not_implemented');
    }
  });
  app.use(router.routes());
  // CalDAV answers every method under /dav/ itself (a 404 there is not a method to refuse 501).
  const allowedMethods = router.allowedMethods();
  app.use((ctx, next) =>
    ctx.path.startsWith('/dav/')
      ? next()
      : allowedMethods(ctx as Parameters<typeof allowedMethods>[0], next),
  );
  return { app, router };
}

function handle(def: RouteDef, services: Services, familyRoute: boolean): Koa.Middleware {
  // Validated queries by query string: clients repeat the same few queries (a dashboard's
  // list), and validation is a visible share of a read's cost. Handlers never mutate them.
  const queries = new Map<string, unknown>();
  const validQuery = (ctx: Koa.Context): unknown => {
    if (!def.query) return refuseUndeclaredQuery(ctx, familyRoute);
    const hit = queries.get(ctx.querystring);
    if (hit !== undefined) return hit;
    const valid = validateInput(ctx.query, def.query, ['query']);
    if (queries.size >= 256) queries.clear();
    queries.set(ctx.querystring, valid);
    return valid;
  };
  return async (ctx) => {
    const query = validQuery(ctx);
    let body: unknown = undefined;
    if (def.method !== 'get') {
      // The body middleware leaves a JSON object or undefined (no body).
      const raw = (ctx.request as Koa.Request & { body?: Record<string, unknown> }).body;
      if (def.body) {
        body = validateInput(raw ?? {}, def.body);
      } else if (raw && Object.keys(raw).length) {
        const issues = Object.keys(raw).map((k) => ({
          path: [k],
          message: 'is not a known field',
        }));
        throw new Invalid(
          `${issues[0].path[0]} is not a known field: this endpoint takes no body`,
          issues,
        );
      }
    }
    const key = ctx.state.key;
    const grantId = ctx.state.grantId as string | undefined;
    const caller = key
      ? {
          keyId: key.id,
          personId: key.personId,
          keyName: key.name,
          ...(grantId ? { grantId } : {}),
        }
      : { keyId: null, personId: null };
    const family = familyRoute
      ? familyHandle(
          await services.registry.get(ctx.state.family),
          caller,
          ctx.state.idempotency,
          def.status ?? 200,
        )
      : (undefined as never);
    const result = await def.handler({
      koa: ctx,
      params: ctx.params,
      query,
      body,
      services,
      family,
      key,
      caller,
    });
    if (isWithStatus(result)) {
      ctx.status = result.status;
      if (result.headers) ctx.set(result.headers);
      ctx.body = result.body;
    } else if (result instanceof JsonText) {
      ctx.status = def.status ?? 200;
      ctx.body = result.text;
      ctx.type = 'application/json';
    } else {
      ctx.status = def.status ?? 200;
      ctx.body = result;
    }
    if (def.produces && typeof ctx.body === 'string') ctx.type = def.produces;
  };
}

/**
 * The family as a handler sees it: the actor bound to the calling key and the request's
 * Idempotency-Key. The actor decides whether a command repeats an answered request; once one
 * command of this request kept its answer, the request's later commands replace that answer
 * instead of being taken for repeats of it.
 */
function familyHandle(
  actor: FamilyActor,
  caller: Caller,
  intent: IdempotencyIntent | undefined,
  okStatus: number,
): FamilyHandle {
  let keptOwn = false;
  return {
    info: actor.family,
    read: (fn) => actor.read(fn),
    execute: async (command, answer) => {
      let keeping = false;
      const idempotency =
        intent &&
        keptUnder(
          intent,
          (a: unknown) => {
            keeping = true;
            return isWithStatus(a)
              ? keptAnswer(intent, a.status, a.body)
              : keptAnswer(intent, okStatus, a);
          },
          !keptOwn,
        );
      const result = await actor.execute(command, caller, {
        ...(answer ? { answer } : {}),
        ...(idempotency ? { idempotency } : {}),
      });
      if (keeping) keptOwn = true;
      return result;
    },
  };
}

/** Family routes without a query declaration refuse query parameters (typos must not pass). */
function refuseUndeclaredQuery(ctx: Koa.Context, strict: boolean): Record<string, never> {
  const names = Object.keys(ctx.query);
  if (strict && names.length) {
    const issues = names.map((n) => ({
      path: ['query', n],
      message: 'is not a known query parameter',
    }));
    throw new Invalid(issuesMessage(issues), issues);
  }
  return {};
}

export { fullPath };
