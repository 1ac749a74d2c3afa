/**
 * The one route chain every route of every door goes through. Per family route: the caller's
 * credential (a failed one spends its address's budget of failures) → the caller's budget →
 * the body (body.ts: JSON or 415, 413 over the limit, 400 for malformed or hostile JSON) →
 * idempotency → validate query and body → the handler on the family's actor. Public routes
 * are counted per client address instead, and take no credential.
 */
import Router, { type MatchResult } from '@koa/router';
import { Invalid, issuesMessage } from '../domain/shared/errors.js';
import type { FamilyActor } from '../family/actor.js';
import type { Caller as ChangeCaller } from '../domain/shared/state.js';
import { authenticator } from './auth.js';
import { jsonBody } from './body.js';
import { idempotency, keptAnswer, keptUnder, type IdempotencyIntent } from './idempotency.js';
import { authenticated, publicRateLimit } from './limits.js';
import {
  fullPath,
  isWithStatus,
  JsonText,
  requiredScope,
  type CoreServices,
  type FamilyHandle,
  type Route,
} from './route.js';
import type { DoorContext, DoorMiddleware, DoorState } from './state.js';
import { validateInput } from './validate.js';
import { keptBy } from './kept.js';

/** A router serving `routes` with `services` through the one chain. */
export function routeRouter<S extends CoreServices>(
  routes: readonly Route<S>[],
  services: S,
): Router<DoorState> {
  const router = keepMatches(new Router<DoorState>());
  const limits = services.limits;
  const publicLimit = publicRateLimit(limits);
  // A repeat is looked for once the family runs here (a cluster takeover caught it up).
  const idem = idempotency(services.store, services.now, (family) => services.registry.get(family));
  const body = jsonBody(services.config.server.bodyLimitBytes);
  const auth = {
    credentials: services.credentials,
    directory: services.store,
    now: services.now,
  };

  for (const def of routes) {
    const scope = requiredScope(def);
    const chain: DoorMiddleware[] = [];
    if (scope === 'public') chain.push(publicLimit);
    else chain.push(authenticated(limits, authenticator(auth, scope, def.ticketed)));
    if (def.method !== 'get') chain.push(body);
    if (scope !== 'public' && def.method !== 'get') chain.push(idem);
    chain.push(handle(def, services, scope !== 'public'));
    router.register(fullPath(def), [def.method.toUpperCase()], chain, {
      name: `${def.method} ${fullPath(def)}`,
    });
  }
  return router;
}

/** How many (method, path) matches the router keeps; past it, it starts over. */
const MATCHES_KEPT = 512;

/**
 * @koa/router tests a request against every route's pattern in turn (some 180 of them here),
 * a visible share of every request's cost. Clients repeat the same few paths (a list, a
 * collection's entries), so the match of a method and path is kept, bounded; the router's own
 * rules decide every first match. Each request gets its own copy of the matched-layers list,
 * which the router may extend.
 */
function keepMatches(router: Router<DoorState>): Router<DoorState> {
  const match = router.match.bind(router);
  const kept = keptBy<MatchResult<DoorState>>(MATCHES_KEPT);
  router.match = (path, method) => {
    const hit = kept(`${method} ${path}`, () => match(path, method));
    return { path: [...hit.path], pathAndMethod: hit.pathAndMethod, route: hit.route };
  };
  return router;
}

/** The request's body as the body middleware left it: a JSON object, or undefined. */
function parsedBody(ctx: DoorContext): Record<string, unknown> | undefined {
  return (ctx.request as { body?: Record<string, unknown> }).body;
}

/** The body a route takes, validated; a route that takes none refuses every field. */
function validBody<S>(def: Route<S>, ctx: DoorContext): unknown {
  const raw = parsedBody(ctx);
  if (def.body) return validateInput(raw ?? {}, def.body);
  if (raw && Object.keys(raw).length) {
    const issues = Object.keys(raw).map((k) => ({ path: [k], message: 'is not a known field' }));
    throw new Invalid(
      `${issues[0].path[0]} is not a known field: this endpoint takes no body`,
      issues,
    );
  }
  return undefined;
}

function handle<S extends CoreServices>(
  def: Route<S>,
  services: S,
  familyRoute: boolean,
): DoorMiddleware {
  // Validated queries by query string: clients repeat the same few queries (a dashboard's
  // list), and validation is a visible share of a read's cost. Handlers never mutate them.
  const queries = keptBy<unknown>(256);
  const validQuery = (ctx: DoorContext): unknown => {
    const struct = def.query;
    if (!struct) return refuseUndeclaredQuery(ctx, familyRoute);
    return queries(ctx.querystring, () => validateInput(ctx.query, struct, ['query']));
  };
  return async (ctx) => {
    const query = validQuery(ctx);
    const body = def.method !== 'get' ? validBody(def, ctx) : undefined;
    const caller = ctx.state.caller;
    const family =
      familyRoute && caller
        ? familyHandle(
            services.registry.ready(caller.family) ?? (await services.registry.get(caller.family)),
            caller,
            ctx.state.idempotency,
            def.status ?? 200,
          )
        : (undefined as never);
    const result = await def.handler({
      koa: ctx,
      params: ctx.params as Record<string, string>,
      query,
      body,
      services,
      family,
      caller: caller ?? (undefined as never),
    });
    answer(ctx, result, def.status ?? 200, def.produces);
  };
}

/** Writes a handler's result: a body, a body with its own status, or JSON text made earlier. */
function answer(ctx: DoorContext, result: unknown, okStatus: number, produces?: string): void {
  if (isWithStatus(result)) {
    ctx.status = result.status;
    if (result.headers) ctx.set(result.headers);
    ctx.body = result.body;
  } else if (result instanceof JsonText) {
    ctx.status = okStatus;
    ctx.body = result.text;
    ctx.type = 'application/json';
  } else {
    ctx.status = okStatus;
    ctx.body = result;
  }
  if (produces && typeof ctx.body === 'string') ctx.type = produces;
}

/**
 * The family as a handler sees it: the actor bound to the caller and the request's
 * Idempotency-Key. The actor decides whether a command repeats an answered request; once one
 * command of this request kept its answer, the request's later commands replace that answer
 * instead of being taken for repeats of it.
 */
function familyHandle(
  actor: FamilyActor,
  caller: ChangeCaller,
  intent: IdempotencyIntent | undefined,
  okStatus: number,
): FamilyHandle {
  const who: ChangeCaller = {
    keyId: caller.keyId,
    personId: caller.personId,
    ...(caller.keyName !== undefined ? { keyName: caller.keyName } : {}),
    ...(caller.grantId ? { grantId: caller.grantId } : {}),
  };
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
      const result = await actor.execute(command, who, {
        ...(answer ? { answer } : {}),
        ...(idempotency ? { idempotency } : {}),
      });
      if (keeping) keptOwn = true;
      return result;
    },
  };
}

/** Family routes without a query declaration refuse query parameters (typos must not pass). */
function refuseUndeclaredQuery(ctx: DoorContext, strict: boolean): Record<string, never> {
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
