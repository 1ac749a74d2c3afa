/**
 * How an API area declares its routes. One declaration feeds both the router and the
 * published OpenAPI document, so the document cannot forget a route (a test walks the router
 * to make sure).
 *
 *   export default defineRoutes([{ method: 'post', path: '/trackers', scope: 'write', ... }]);
 *
 * Paths under `/api/v1/families/:familySlug` are written relative to it with `family: true`
 * (the default); the auth middleware has then resolved the key, checked the family and the
 * scope, and activated the family's actor before the handler runs.
 */
import type Koa from 'koa';
import type { Config } from '../config.js';
import type { FamilyRegistry } from '../family/registry.js';
import type { Store } from '../store/store.js';
import type { Caller, Command, FamilyInfo, FamilyState } from '../domain/shared/state.js';
import type { ApiKeyRecord, Scope } from '../store/types.js';
import type { JsonSchema, SomeStruct } from './schema.js';
import type { Logger } from 'pino';
import type { Notifier } from '../notifications/sender.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import type { ClusterRuntime } from '../cluster/runtime.js';
import type { Egress } from '../integrations/egress.js';
import type { OAuthGrant } from '../domain/oauth/grants.js';
import type { StreamHub } from '../stream/hub.js';
import type { StreamTickets } from '../stream/tickets.js';
import type { FollowedLog } from '../stream/log.js';
import type { DisplayWeatherCache } from '../public/displayWeather.js';
import type { DisplayStreams } from '../public/displayStream.js';
import type { Addresses } from '../addresses.js';
import type { DoorLimits, RateLimiter } from './middleware/rateLimit.js';
import type { IdempotencyGate } from './middleware/idempotency.js';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** Everything a handler may use; routes never touch the store directly. */
export interface Services {
  config: Config;
  /**
   * The daemon's own addresses: the base of links in an answer (`forRequest`), of stored
   * links (`stored`), and the client of a request (src/addresses.ts).
   */
  addresses: Addresses;
  registry: FamilyRegistry;
  /** Only for the auth middleware and the system routes (changes feed). */
  store: Store;
  now: () => Date;
  logger: Logger;
  /** Sends notifications' pending deliveries after their record is durable. */
  notifier: Notifier;
  /** Test deliveries of webhook destinations (they leave the machine). */
  webhooks: Webhooks;
  /** The one outbound HTTP client (egress guard), for routes that fetch (feeds). */
  egress: Egress;
  /** Assistants' OAuth grants (src/oauth): forwarded MCP tool calls, and the admin routes. */
  grants?: GrantAccess;
  /** The live change stream: its fan-out, its browser tickets and the log it follows. */
  stream: { hub: StreamHub; tickets: StreamTickets; log: FollowedLog };
  /** The one limiter of every door: budgets per key, grant, link and client address. */
  limits: DoorLimits;
  /**
   * The family displays: the weather they show, their open streams, and for their actions a
   * limiter of their own (`display.actionsPerMinute`, bucket `display:<id>`) and the
   * Idempotency-Key rules scoped to the display.
   */
  display: {
    weather: DisplayWeatherCache;
    streams: DisplayStreams;
    limiter: RateLimiter;
    replays: IdempotencyGate;
  };
  /** A cluster node's membership (docs/scaling.md); absent on the embedded daemon. */
  cluster?: ClusterRuntime;
}

/** What REST needs of the OAuth door; its authority (src/oauth/authority.ts) is one. */
export interface GrantAccess {
  /**
   * An access token as a tool call of /mcp sends it to REST (with the inner-call proof the
   * auth middleware checks first: the token itself is good for /mcp alone). `resource` null:
   * /mcp checked the token's audience before it made the call.
   */
  verifyAccess(
    token: string,
    resource: string | null,
  ): { key: ApiKeyRecord; family: FamilyInfo; grant: OAuthGrant } | null;
  listGrants(familyId: string): OAuthGrant[];
  revokeGrant(
    grantId: string,
    by: Caller,
  ): Promise<{ grant: OAuthGrant; already: boolean } | undefined>;
}

/**
 * A front door of the daemon (the REST API, the public pages, MCP, and the ones to come), as
 * the server composes them side by side: a door either declares routes, served through the
 * one Koa app (keys, limits, validation, OpenAPI), or mounts a handler of its own once every
 * route is known (MCP builds its tool catalog from them and calls them back over HTTP).
 */
export interface Door {
  name: string;
  routes?: RouteDef[];
  mount?: (ctx: DoorContext) => Koa.Middleware;
}

export interface DoorContext {
  services: Services;
  /** Every route of every door, in the order they are matched. */
  routes: readonly RouteDef[];
  /** The daemon's own address, known once it listens. */
  baseUrl: () => string;
  version: string;
}

/**
 * The path's family as a handler sees it, bound to the calling key: reads see only durable
 * state; a command's answer is rendered from the state right after it and, for a request with
 * an Idempotency-Key, kept in the same transaction as the change.
 */
export interface FamilyHandle {
  readonly info: FamilyInfo;
  read<R>(fn: (state: FamilyState) => R): Promise<R>;
  execute<R, A = R>(command: Command<R>, answer?: (result: R, state: FamilyState) => A): Promise<A>;
}

export interface HandlerContext<Q, B> {
  koa: Koa.Context;
  params: Record<string, string>;
  query: Q;
  body: B;
  services: Services;
  /** Present on family routes. */
  family: FamilyHandle;
  /** Who is calling: the key and the household member it acts for. */
  caller: Caller;
  key: ApiKeyRecord;
}

/**
 * What a handler returns (or a promise of it): the success body (status from the route), or a
 * status and body made with `withStatus`. Any value is a body, so the type is `unknown`.
 */
export type HandlerResult = unknown;

// A list of routes mixes every query and body type, so a RouteDef in a list has them open;
// each handler gets its query and body after the route's structs validated them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above (follow-up: a typed route() helper)
export interface RouteDef<Q = any, B = any> {
  method: Method;
  /** Relative to /api/v1/families/:familySlug when `family` is true (default). */
  path: string;
  family?: boolean;
  /** `public` routes take no key. Default: read for GET, write otherwise. */
  scope?: Scope | 'public';
  summary: string;
  description?: string;
  tags: string[];
  query?: SomeStruct<Q>;
  body?: SomeStruct<B>;
  /** Success status (201 for creating POSTs). */
  status?: number;
  /** JSON Schema of the success body. */
  response: JsonSchema;
  /**
   * An example of the route's own answer (for an error status, the table in openapi.ts is used
   * otherwise).
   */
  example?: unknown;
  /** Content type of a non-JSON success body (e.g. text/calendar). */
  produces?: string;
  /**
   * Other success answers: another status (200 when re-linking where 201 is the rule) or the
   * same status in another media type (a page's JSON form).
   */
  alsoResponses?: {
    status: number;
    description: string;
    schema: JsonSchema;
    contentType?: string;
  }[];
  /** Also authenticated by a one-connection `?ticket=` (the live stream; see src/stream/tickets.ts). */
  ticketed?: boolean;
  /**
   * A public route that requires `Idempotency-Key` and keeps its answers (a display's actions,
   * scoped to the display): the document lists the header as required, and the replay answers.
   */
  idempotencyKey?: 'required';
  /** Extra error statuses this route answers (besides 400/401/403/404 and 409 on writes). */
  errors?: number[];
  handler: (ctx: HandlerContext<Q, B>) => HandlerResult;
}

export const FAMILY_PREFIX = '/api/v1/families/:familySlug';

export function fullPath(def: RouteDef): string {
  return def.family === false ? def.path : FAMILY_PREFIX + def.path;
}

export function requiredScope(def: RouteDef): Scope | 'public' {
  if (def.scope) return def.scope;
  if (def.family === false) return 'public';
  return def.method === 'get' ? 'read' : 'write';
}

export function defineRoutes(defs: RouteDef[]): RouteDef[] {
  return defs;
}

/** Wraps a body with an explicit status (e.g. 200 for re-linking where 201 is the default). */
export function withStatus(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): { status: number; body: unknown; headers?: Record<string, string> } {
  return Object.assign(Object.create(STATUS_TAG), {
    status,
    body,
    ...(headers ? { headers } : {}),
  });
}
const STATUS_TAG = {};
export function isWithStatus(
  v: unknown,
): v is { status: number; body: unknown; headers?: Record<string, string> } {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === STATUS_TAG;
}

/**
 * A JSON body serialized ahead of time, so that a page kept in a family's derived cache is
 * not serialized again on every read (JSON.stringify of 20 entry views is a fifth of a GET's
 * CPU). The text must be exactly `JSON.stringify` of the body the route documents.
 */
export class JsonText {
  constructor(readonly text: string) {}
  static of(body: unknown): JsonText {
    return new JsonText(JSON.stringify(body));
  }
}
