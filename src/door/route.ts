/**
 * How a door declares its routes (REST's areas, the live stream, the public pages). One
 * declaration feeds both the router and the published OpenAPI document, so the document cannot
 * forget a route (a test walks the router to make sure).
 *
 *   const route = routeFor<RestServices>();
 *   export default defineRoutes([route({ method: 'post', path: '/trackers', scope: 'write', ... })]);
 *
 * `route` infers the handler's query and body types from the route's structs, so a handler
 * reads validated input with its real type. Paths under `/api/v1/families/:familySlug` are
 * written relative to it with `family: true` (the default); the core's key check has then
 * resolved the caller, checked the family and the scope, and activated the family's actor
 * before the handler runs.
 */
import type { Addresses } from '../addresses.js';
import type { Config } from '../config.js';
import type { FamilyRegistry } from '../family/registry.js';
import type { Command, FamilyInfo, FamilyState } from '../domain/shared/state.js';
import type { Scope } from '../store/types.js';
import type { JsonSchema, SomeStruct } from './schema.js';
import type { Logger } from 'pino';
import type { Caller, Credentials } from './credentials.js';
import type { DoorLimits } from './limits.js';
import type { Directory, IdempotencyRecords } from '../store/ports.js';
import type { DoorContext } from './state.js';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * What every route's handler may use, whatever its door; a door's own services extend it (REST's
 * notifier and webhooks, the live stream's hub, the display's weather). Routes never touch the
 * store directly.
 */
export interface CoreServices {
  config: Config;
  /**
   * The daemon's own addresses: the base of links in an answer (`forRequest`), of stored
   * links (`stored`), and the client of a request (src/addresses.ts).
   */
  addresses: Addresses;
  registry: FamilyRegistry;
  now: () => Date;
  logger: Logger;
  /** Who is asking, for every door: one key cache, every kind of credential. */
  credentials: Credentials;
  /** The one limiter of every door. */
  limits: DoorLimits;
  /** What the core itself reads and notes: kept idempotent answers, a key's last use. */
  store: CoreStore;
}

export type CoreStore = Pick<IdempotencyRecords, 'getIdempotency'> & Pick<Directory, 'touchKey'>;

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

export interface HandlerContext<Q, B, S> {
  koa: DoorContext;
  params: Record<string, string>;
  query: Q;
  body: B;
  services: S;
  /** Present on family routes. */
  family: FamilyHandle;
  /** Who is calling (family routes): the key, its family and scopes, the household member. */
  caller: Caller;
}

/**
 * What a handler returns (or a promise of it): the success body (status from the route), or a
 * status and body made with `withStatus`. Any value is a body, so the type is `unknown`.
 */
export type HandlerResult = unknown;

/** A route as written: its query and body types are those of its structs. */
export interface RouteDef<Q, B, S> {
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
  handler: (ctx: HandlerContext<Q, B, S>) => HandlerResult;
}

/**
 * A route as a list holds it: a list mixes every query and body type, so they are known only
 * to the route's own handler, which gets them after the route's structs validated them.
 * `Route<never>` is any door's route (what the OpenAPI document and MCP's catalog read).
 */
export type Route<S> = RouteDef<unknown, unknown, S>;

/**
 * The `route` helper of a door whose handlers use services `S`: it infers a route's query and
 * body types from its structs (none → an empty query, no body) and erases them for the list.
 */
export function routeFor<S>() {
  return function route<Q = Record<string, never>, B = undefined>(
    def: RouteDef<Q, B, S>,
  ): Route<S> {
    return def as unknown as Route<S>;
  };
}

export const FAMILY_PREFIX = '/api/v1/families/:familySlug';

/** A route of any door, as the OpenAPI document and MCP's catalog read it. */
export type AnyRoute = Route<never>;

/** What the router and the document read of any route. */
type RouteShape = Pick<AnyRoute, 'family' | 'path' | 'scope' | 'method'>;

export function fullPath(def: RouteShape): string {
  return def.family === false ? def.path : FAMILY_PREFIX + def.path;
}

export function requiredScope(def: RouteShape): Scope | 'public' {
  if (def.scope) return def.scope;
  if (def.family === false) return 'public';
  return def.method === 'get' ? 'read' : 'write';
}

export function defineRoutes<S>(defs: Route<S>[]): Route<S>[] {
  return defs;
}

/** Wraps a body with an explicit status (e.g. 200 for re-linking where 201 is the default). */
export function withStatus(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): { status: number; body: unknown; headers?: Record<string, string> } {
  return Object.assign(Object.create(STATUS_TAG) as object, {
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
