/**
 * The `Door` contract: one shape for every front door of the daemon — REST, the live stream,
 * the public pages and the family display, CalDAV, OAuth, MCP, and the ones to come. A door
 * says
 *
 * - which paths are its own (`prefixes`): a request under one is answered by this door, in
 *   this door's form, whatever its method and whether or not the resource exists;
 * - how to find a request's family from the request itself (`familyOf`: a slug in the path, a
 *   key, a Basic user, a bearer token…), so that a cluster node's front asks the doors instead
 *   of knowing their paths and credential formats;
 * - how it writes an error answer of the table (errors.ts) in its own form (`render`);
 * - what it serves: routes (through the core's one route chain: credentials, limits, body,
 *   idempotency, validation) and/or a handler of its own.
 */
import type Koa from 'koa';
import type { ErrorAnswer } from './errors.js';
import type { Credential } from './credentials.js';
import type { Route } from './route.js';
import type { DoorMiddleware } from './state.js';
import { keptBy } from './kept.js';

/** How a door turns what a request names into a family id (the front's view of the directory). */
export interface FamilyFinder {
  /** The family of a slug, or null. */
  bySlug(slug: string): string | null;
  /** The family a credential names, without verifying it (the owner does), or null. */
  byCredential(c: Credential): string | null;
  /** The credential the request presents in its headers, or null. */
  credentialOf(ctx: Koa.Context): Credential | null;
}

/** What a door's own handler is built with, once every door's routes are known. */
export interface Mounted<S> {
  services: S;
  /** Every route of every door, in the order they are matched (MCP builds its tools from them). */
  routes: readonly Route<never>[];
  /** The daemon's own address, known once it listens. */
  baseUrl: () => string;
  version: string;
}

export interface Door<S = unknown> {
  readonly name: string;
  /**
   * The paths this door answers. A prefix ending in `/` owns everything under it; one without
   * owns that path and everything under `<prefix>/`. `:name` matches one segment. The longest
   * match wins, so a door may own a part of another's space (the live stream under REST's).
   */
  readonly prefixes: readonly string[];
  /** Requests the door takes beyond its prefixes (CalDAV's PROPFIND of `/`). */
  claims?(method: string, path: string): boolean;
  /** The family the request is for, told by the request itself without reading its body. */
  familyOf(ctx: Koa.Context, find: FamilyFinder): string | null;
  /**
   * The metrics label of a path this door answers outside the router: one of a small fixed set
   * (never the path itself), so a client cannot grow the number of series by inventing paths.
   * Null (or absent) leaves it `unmatched`.
   */
  routeLabel?(path: string): string | null;
  /** Writes an answer of the error table in the door's form. */
  render(answer: ErrorAnswer, ctx: Koa.Context): void;
  /** Routes served through the core's route chain. */
  readonly routes?: readonly Route<S>[];
  /** A handler of its own; what it passes on (`next`) falls to the routes, then to 404. */
  handler?(mounted: Mounted<S>): DoorMiddleware;
}

/** A prefix read once: its segments, whether it owns a folder, its length (the longest wins). */
interface Prefix {
  segments: string[];
  length: number;
}

function compile(prefix: string): Prefix {
  const segments = prefix.split('/');
  // `/dav/` owns `/dav` too (the collection without its slash): its empty last segment is not
  // compared.
  if (prefix.endsWith('/')) segments.pop();
  return { segments, length: prefix.length };
}

function matches(p: Prefix, have: readonly string[]): boolean {
  if (have.length < p.segments.length) return false;
  for (let i = 0; i < p.segments.length; i++) {
    const want = p.segments[i];
    if (want.startsWith(':') ? have[i] === '' : want !== have[i]) return false;
  }
  return true;
}

/**
 * Finds the door a request is under: the longest prefix its path matches, or one that claims
 * it; else the fallback (the first door: REST, whose form answers paths nobody owns). The
 * prefixes are read once; each request splits its path once.
 */
export function doorFinder<D extends Door<never>>(
  doors: readonly D[],
): (method: string, path: string) => D {
  const prefixes = doors.flatMap((door) => door.prefixes.map((p) => ({ door, p: compile(p) })));
  // A path's door by prefix, kept for the paths clients repeat; `claims` looks at the method.
  const kept = keptBy<D | undefined>(DOORS_KEPT);
  return (method, path) =>
    kept(path, () => byPrefix(path)) ?? doors.find((d) => d.claims?.(method, path)) ?? doors[0];

  function byPrefix(path: string): D | undefined {
    const have = path.split('/');
    let best: D | undefined;
    let length = -1;
    for (const { door, p } of prefixes) {
      if (p.length > length && matches(p, have)) {
        best = door;
        length = p.length;
      }
    }
    return best;
  }
}

/** How many paths `doorFinder` keeps the door of. */
const DOORS_KEPT = 512;

const FAMILY_PATH = /^\/api\/v1\/families\/([^/]+)(?:\/|$)/;

/**
 * The family of a request under the family prefix (`/api/v1/families/:familySlug`) (by its slug), else of the key it presents:
 * `familyOf` of every door whose routes are family routes.
 */
export function familyOfRoute(ctx: Koa.Context, find: FamilyFinder): string | null {
  const m = FAMILY_PATH.exec(ctx.path);
  if (m) {
    try {
      return find.bySlug(decodeURIComponent(m[1]));
    } catch {
      return null; // a malformed escape: the router answers it
    }
  }
  const c = find.credentialOf(ctx);
  return c ? find.byCredential(c) : null;
}
