/**
 * The CalDAV front door (RFC 4791, 6578 on RFC 4918), mounted beside the REST API:
 *
 *   /.well-known/caldav            → 301 /dav/
 *   /dav/                          → the service root (points at the caller's principal)
 *   /dav/<slug>/                   → the family's principal and calendar home
 *   /dav/<slug>/<collectionKey>/   → a calendar (VEVENT) or to-do list (VTODO)
 *   /dav/<slug>/<key>/<name>.ics   → one object
 *
 * Order per request: OPTIONS is answered without credentials (clients probe before they
 * log in); then HTTP Basic with user = family slug and password = an API key of that family,
 * checked as REST checks `x-api-key` (hash, constant time, per-address limit on failures),
 * and counted in that key's budget of the daemon's one limiter (429 past it, docs/caldav.md);
 * then the method's own handler. Bodies are read here, not by the JSON body middleware:
 * XML or iCalendar, UTF-8, at most 1 MiB. Every refusal is a `DAV:error` body; anything
 * unexpected is logged and answered 500 without details.
 */
import { basicCredentials } from '../family/keys.js';
import type Koa from 'koa';
import { hasScope } from '../family/scopes.js';
import { KeyCache } from '../http/middleware/auth.js';
import { limitHeaders, type Limited } from '../http/middleware/rateLimit.js';
import type { Services } from '../http/route.js';
import type { ApiKeyRecord, FamilyInfo } from '../store/types.js';
import { DomainError } from '../domain/shared/errors.js';
import { CalDavError, errorXml, fromDomain } from './errors.js';
import { handleMethod } from './methods.js';
import { reasonPhrase } from './reason.js';
import { ALLOW, DAV_ROOT, MAX_BODY } from './request.js';

export function caldavDoor(services: Services): Koa.Middleware {
  const keys = new KeyCache(services.store);

  return async (ctx, next) => {
    if (ctx.path === '/.well-known/caldav' || ctx.path === '/.well-known/caldav/') {
      ctx.status = 301;
      ctx.set('Location', DAV_ROOT);
      ctx.body = '';
      return;
    }
    // A client given only the server's address asks its root for the principal (PROPFIND /).
    const atRoot = ctx.path === '/' && (ctx.method === 'PROPFIND' || ctx.method === 'REPORT');
    if (!atRoot && ctx.path !== '/dav' && !ctx.path.startsWith(DAV_ROOT)) {
      await next();
      return;
    }
    try {
      ctx.set('DAV', '1, 3, calendar-access, extended-mkcol');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Allow', ALLOW);
        ctx.status = 200;
        ctx.body = '';
        return;
      }
      // 1. Who is asking.
      const { family, key } = login(ctx, services, keys);
      // 2. Where.
      const raw =
        ctx.path === '/dav' || atRoot
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
      if (segments.length && segments[0] !== family.slug) {
        throw new CalDavError(
          403,
          `This login belongs to the family ${family.slug}, not ${segments[0]}`,
          { ns: 'DAV:', local: 'need-privileges' },
        );
      }
      if (segments.length > 3) throw new CalDavError(404, `No such resource: ${ctx.path}`);
      // 3. May it.
      const writes = !['GET', 'HEAD', 'PROPFIND', 'REPORT'].includes(ctx.method);
      if (writes && !hasScope(key, 'write')) {
        throw new CalDavError(403, 'This API key may only read', {
          ns: 'DAV:',
          local: 'need-privileges',
        });
      }
      const depth = depthOf(ctx);
      const body = await readBody(ctx);
      const actor = await services.registry.get(family);
      await handleMethod(
        { koa: ctx, services, actor, key, segments: segments.slice(1), body, depth },
        segments.length === 0,
      );
    } catch (err) {
      const e =
        err instanceof CalDavError ? err : err instanceof DomainError ? fromDomain(err) : null;
      if (!e) {
        services.logger.error({ err, requestId: ctx.state.requestId }, 'caldav request failed');
        ctx.status = 500;
        ctx.type = 'application/xml; charset=utf-8';
        ctx.body = errorXml(
          new CalDavError(500, 'The server failed to answer this request; it is logged'),
        );
        return;
      }
      ctx.status = e.status;
      // The status line says why too: clients show a person that, not the body.
      ctx.message = reasonPhrase(e.message);
      ctx.set(e.headers);
      ctx.type = 'application/xml; charset=utf-8';
      ctx.body = errorXml(e);
    }
  };
}

/** The Depth header as RFC 4918 reads it: PROPFIND defaults to infinity, other methods to 0. */
function depthOf(ctx: Koa.Context): '0' | '1' | 'infinity' {
  const header = (ctx.get('depth') || '').trim().toLowerCase();
  if (header === '0' || header === '1') return header;
  if (header === '') return ctx.method === 'PROPFIND' ? 'infinity' : '0';
  return 'infinity';
}

const REALM = 'Basic realm="Household Organizer CalDAV", charset="UTF-8"';

/**
 * The family and key of a request's HTTP Basic login, counted in the key's budget (the one REST
 * and MCP spend too; 429 past it). A valid login is served whatever others sent from its
 * address; a failed one spends the address's budget of failures, past which it is answered 429
 * — but a request without credentials (clients probe so before they log in) is only challenged.
 */
function login(
  ctx: Koa.Context,
  services: Services,
  keys: KeyCache,
): { family: FamilyInfo; key: ApiKeyRecord } {
  const m = basicCredentials(ctx.get('authorization'));
  const user = m?.user ?? '';
  const verified = user ? keys.verify(m!.password) : null;
  if (!verified || !verified.family || verified.family.slug !== user) {
    const l = m
      ? services.limits.failure(ctx.ip, 'Too many failed logins from this address')
      : null;
    if (l) throw davLimited(l);
    throw new CalDavError(
      401,
      m
        ? 'The user must be a family slug and the password an API key of that family'
        : 'Log in with the family slug as user and an API key as password',
      undefined,
      { 'WWW-Authenticate': REALM },
    );
  }
  const t = services.limits.credential({ kind: 'key', keyId: verified.key.id });
  ctx.set(limitHeaders(t));
  if (t.limited) throw davLimited(t.limited);
  return { family: verified.family, key: verified.key };
}

/** Over a budget, as CalDAV answers: 429 with Retry-After and a DAV:error body saying why. */
function davLimited(l: Limited): CalDavError {
  return new CalDavError(429, l.message, undefined, { 'Retry-After': String(l.retryAfter) });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The request body as text: identity encoding, UTF-8, at most MAX_BODY bytes. */
async function readBody(ctx: Koa.Context): Promise<string> {
  const length = ctx.request.length ?? 0;
  const chunked = ctx.req.headers['transfer-encoding'] !== undefined;
  if (!length && !chunked) return '';
  const tooLarge = () =>
    new CalDavError(413, `The body is larger than ${MAX_BODY} bytes`, {
      ns: 'urn:ietf:params:xml:ns:caldav',
      local: 'max-resource-size',
    });
  if (length > MAX_BODY) throw tooLarge();
  const encoding = (ctx.get('content-encoding') || 'identity').trim().toLowerCase();
  if (encoding !== 'identity')
    throw new CalDavError(
      415,
      `Content-Encoding ${encoding.slice(0, 40)} is not accepted here; send the body as it is`,
    );
  const charset = ctx.request.charset?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8')
    throw new CalDavError(415, `Bodies must be UTF-8, not ${charset.slice(0, 40)}`);
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      ctx.req.off('data', onData);
      if (err) reject(err);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) return finish(tooLarge());
      chunks.push(chunk);
    };
    ctx.req.on('data', onData);
    ctx.req.once('end', () => finish());
    ctx.req.once('error', () =>
      finish(new CalDavError(400, 'The body ended before it was complete')),
    );
    ctx.req.once('close', () => {
      if (!ctx.req.complete) finish(new CalDavError(400, 'The body ended before it was complete'));
    });
  });
  try {
    return UTF8.decode(Buffer.concat(chunks, size)).replace(/^\uFEFF/, '');
  } catch {
    throw new CalDavError(400, 'The body is not valid UTF-8');
  }
}
