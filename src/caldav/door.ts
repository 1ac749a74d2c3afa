/**
 * The CalDAV front door (RFC 4791, 6578 on RFC 4918), beside the REST API:
 *
 *   /.well-known/caldav            → 301 /dav/
 *   /dav/                          → the service root (points at the caller's principal)
 *   /dav/<slug>/                   → the family's principal and calendar home
 *   /dav/<slug>/<collectionKey>/   → a calendar (VEVENT) or to-do list (VTODO)
 *   /dav/<slug>/<key>/<name>.ics   → one object
 *
 * Everything under `/dav/` is this door's, whatever the method and whether or not it exists:
 * answered in CalDAV's form (a missing collection or object is a 404 `DAV:error`, a method a
 * resource does not take a 405 with Allow), never in REST's.
 *
 * Order per request: OPTIONS is answered without credentials (clients probe before they
 * log in); then HTTP Basic with user = family slug and password = an API key of that family,
 * resolved by the door core's credentials (hash, constant time, the one key cache) and counted
 * in that key's budget of the daemon's one limiter (429 past it, docs/caldav.md; failures count
 * per address); then the method's own handler. Bodies are read by the
 * core's body reader: XML or iCalendar, UTF-8, as sent (no Content-Encoding), at most 1 MiB.
 * Every refusal goes to the error table and is written as a `DAV:error` body (errors.ts).
 */
import type { Door } from '../door/door.js';
import { readText } from '../door/body.js';
import { countCaller, limitedError } from '../door/limits.js';
import { basicCredentials, type Caller } from '../door/credentials.js';
import type { DoorContext, DoorMiddleware } from '../door/state.js';
import { hasScope } from '../family/scopes.js';
import { asCalDav, CalDavError, renderDav } from './errors.js';
import { handleMethod } from './methods.js';
import { ALLOW, DAV_ROOT, MAX_BODY, type CalDavServices, type Depth } from './request.js';

const REALM = 'Basic realm="Household Organizer CalDAV", charset="UTF-8"';
const FAMILY_PATH = /^\/dav\/([^/]+)(?:\/|$)/;
const WELL_KNOWN = '/.well-known/caldav';
/** The metrics labels by depth below /dav/: service root, family, collection, object. */
const DAV_TEMPLATES = [
  '/dav/',
  '/dav/:familySlug/',
  '/dav/:familySlug/:collection/',
  '/dav/:familySlug/:collection/:object',
];

/** The metrics label of a CalDAV path: its depth (deeper than an object is an object). */
export function davRouteLabel(path: string): string | null {
  if (path === WELL_KNOWN || path.startsWith(`${WELL_KNOWN}/`)) return WELL_KNOWN;
  if (path !== '/dav' && !path.startsWith('/dav/')) return null;
  const depth = path.split('/').filter(Boolean).length - 1;
  return DAV_TEMPLATES[Math.min(depth, DAV_TEMPLATES.length - 1)];
}

export function caldavDoor(): Door<CalDavServices> {
  return {
    name: 'caldav',
    prefixes: [DAV_ROOT, WELL_KNOWN],
    // A client given only the server's address asks its root for the principal (PROPFIND /).
    claims: (method, path) => path === '/' && (method === 'PROPFIND' || method === 'REPORT'),
    familyOf(ctx, find) {
      const m = FAMILY_PATH.exec(ctx.path);
      if (m) {
        try {
          return find.bySlug(decodeURIComponent(m[1]));
        } catch {
          return null; // a malformed escape: answered here as a 400
        }
      }
      const c = find.credentialOf(ctx);
      return c?.kind === 'basic' ? find.byCredential(c) : null;
    },
    routeLabel: davRouteLabel,
    render: renderDav,
    handler: ({ services }) => davHandler(services),
  };
}

function davHandler(services: CalDavServices): DoorMiddleware {
  return async (ctx) => {
    if (ctx.path === '/.well-known/caldav' || ctx.path === '/.well-known/caldav/') {
      ctx.status = 301;
      ctx.set('Location', DAV_ROOT);
      ctx.body = '';
      return;
    }
    ctx.set('DAV', '1, 3, calendar-access, extended-mkcol');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', ALLOW);
      ctx.status = 200;
      ctx.body = '';
      return;
    }
    // 1. Who is asking. 2. Where. 3. May it.
    const caller = login(ctx, services);
    const segments = segmentsOf(ctx, caller);
    const writes = !['GET', 'HEAD', 'PROPFIND', 'REPORT'].includes(ctx.method);
    if (writes && !hasScope(caller.key, 'write')) {
      throw new CalDavError(403, 'This API key may only read', {
        ns: 'DAV:',
        local: 'need-privileges',
      });
    }
    const body = await readText(ctx, { limitBytes: MAX_BODY, compressed: false });
    const actor = await services.registry.get(caller.family);
    try {
      await handleMethod(
        {
          koa: ctx,
          services,
          actor,
          key: caller.key,
          segments: segments.slice(1),
          body,
          depth: depthOf(ctx),
        },
        segments.length === 0,
      );
    } catch (err) {
      throw asCalDav(err);
    }
  };
}

/**
 * HTTP Basic: user = the family's slug, password = an API key of that family, counted in the
 * key's budget (the one REST and MCP spend too; 429 past it). A valid login is served whatever
 * others sent from its address; a failed one spends the address's budget of failures, past
 * which it is answered 429 — but a request without credentials (clients probe so before they
 * log in) is only challenged.
 */
function login(ctx: DoorContext, services: CalDavServices): Caller {
  const basic = basicCredentials(ctx.get('authorization'));
  const caller = basic ? services.credentials.resolve({ kind: 'basic', ...basic }) : null;
  if (!caller) {
    const l = basic
      ? services.limits.failure(ctx.ip, 'Too many failed logins from this address')
      : null;
    if (l) throw limitedError(l);
    throw new CalDavError(
      401,
      basic
        ? 'The user must be a family slug and the password an API key of that family'
        : 'Log in with the family slug as user and an API key as password',
      undefined,
      { 'WWW-Authenticate': REALM },
    );
  }
  ctx.state.caller = caller;
  ctx.state.family = caller.family;
  countCaller(ctx, services.limits, caller);
  return caller;
}

/** The path's segments after /dav/ (decoded); the first must be the caller's family. */
function segmentsOf(ctx: DoorContext, caller: Caller): string[] {
  const atRoot = ctx.path === '/' || ctx.path === '/dav';
  const raw = atRoot
    ? []
    : ctx.path
        .slice(DAV_ROOT.length)
        .split('/')
        .filter((s) => s !== '');
  let segments: string[];
  try {
    segments = raw.map((s) => decodeURIComponent(s));
  } catch {
    throw new CalDavError(400, 'The path is not valid percent-encoding');
  }
  if (segments.length && segments[0] !== caller.family.slug) {
    throw new CalDavError(
      403,
      `This login belongs to the family ${caller.family.slug}, not ${segments[0]}`,
      { ns: 'DAV:', local: 'need-privileges' },
    );
  }
  if (segments.length > 3) throw new CalDavError(404, `No such resource: ${ctx.path}`);
  return segments;
}

/** The Depth header (RFC 4918 §10.2): PROPFIND defaults to infinity, the rest to 0. */
function depthOf(ctx: DoorContext): Depth {
  const header = (ctx.get('depth') || '').trim().toLowerCase();
  if (header === '0' || header === '1') return header;
  if (header === '') return ctx.method === 'PROPFIND' ? 'infinity' : '0';
  return 'infinity';
}
