/**
 * The front of a cluster node's HTTP server (docs/scaling.md, "Forwarded requests"): every
 * node answers every family's requests. A request whose family this node can tell from the
 * request itself — the family slug in a REST or CalDAV path, the API key, CalDAV's Basic user,
 * an assistant's OAuth token — goes to the family's owner unchanged when another node holds the
 * lease, before anything here reads or counts it (so rate limits count on the owner). Anything
 * else (a share link's page, an OAuth form) is served here, its body kept aside; if serving it
 * reaches a family another node holds, it is passed to that node after all. A request another
 * node forwarded is checked (the cluster's HMAC) and served here, never forwarded again.
 */
import type Koa from 'koa';
import type { Services } from '../http/route.js';
import { OwnedElsewhere } from '../family/ownership.js';
import { basicCredentials } from '../family/keys.js';
import { FORWARD_HEADERS } from './forward.js';
import { acceptForwarded, bufferBody, forwardTo, FORWARD_TIMEOUT_MS, replayBody } from './proxy.js';
import type { ClusterRuntime } from './runtime.js';

const REST_FAMILY = /^\/api\/v1\/families\/([^/]+)(?:\/|$)/;
const DAV_FAMILY = /^\/dav\/([^/]+)(?:\/|$)/;
const API_KEY = /^hk_([A-Za-z0-9]+)_/;

export interface ClusterDoorOptions {
  /** The family of an assistant's OAuth access token (the OAuth authority), if valid. */
  bearerFamily: (token: string) => string | undefined;
}

/** The family a request is for, when the request says so without being read. */
function familyOf(ctx: Koa.Context, services: Services, opts: ClusterDoorOptions): string | null {
  const store = services.store;
  const bySlug = (slug: string) => {
    try {
      return store.getFamilyBySlug(decodeURIComponent(slug))?.id ?? null;
    } catch {
      return null; // a malformed escape: the router answers it
    }
  };
  const rest = REST_FAMILY.exec(ctx.path) ?? DAV_FAMILY.exec(ctx.path);
  if (rest) return bySlug(rest[1]);
  const key = API_KEY.exec(ctx.get('x-api-key'));
  if (key) return store.getKey(key[1])?.familyId ?? null;
  const auth = ctx.get('authorization');
  const basic = basicCredentials(auth);
  if (basic) return basic.user ? bySlug(basic.user) : null;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (bearer) return opts.bearerFamily(bearer[1]) ?? null;
  return null;
}

function hasBody(ctx: Koa.Context): boolean {
  return (ctx.request.length ?? 0) > 0 || ctx.req.headers['transfer-encoding'] !== undefined;
}

export function clusterDoor(
  services: Services,
  cluster: ClusterRuntime,
  opts: ClusterDoorOptions,
): Koa.Middleware {
  const secret = cluster.config.secret;
  const limit = services.config.server.bodyLimitBytes;
  const clock = () => Date.now();
  const accept = acceptForwarded({ secret, node: cluster.nodeName, now: clock, limitBytes: limit });
  const envelope = Object.values(FORWARD_HEADERS);
  // An owner that has not begun to answer within two lease times is likely paused or gone: by
  // then its lease has lapsed and the caller's retry finds the family's next owner.
  const timeoutMs = Math.min(FORWARD_TIMEOUT_MS, 2 * cluster.config.leaseSeconds * 1000);
  const pass = async (
    ctx: Koa.Context,
    familyId: string,
    owner: { node: string; url: string },
    body: Buffer,
  ) => {
    try {
      await forwardTo(ctx, owner, {
        secret,
        node: cluster.nodeName,
        body,
        now: clock,
        timeoutMs,
        origin: services.addresses.origin(ctx),
      });
      cluster.forwards.forwarded += 1;
    } catch (err) {
      cluster.forwards.forwardFailures += 1;
      cluster.forgetOwner(familyId);
      throw err;
    }
  };
  return async (ctx, next) => {
    // Any of the forward headers makes it a forward: served only if the whole envelope holds.
    if (envelope.some((n) => ctx.req.headers[n] !== undefined)) {
      cluster.forwards.received += 1;
      await accept(ctx, next);
      return;
    }
    const familyId = familyOf(ctx, services, opts);
    if (familyId && !cluster.owns(familyId)) {
      const owner = await cluster.ownerOf(familyId);
      if (owner && owner.node !== cluster.nodeName) {
        const body = hasBody(ctx) ? await bufferBody(ctx, limit) : Buffer.alloc(0);
        return pass(ctx, familyId, owner, body);
      }
    }
    // Served here; keep the body in case the family turns out to live elsewhere after all (a
    // share link's family, or one another node took a moment ago).
    let body: Buffer = Buffer.alloc(0);
    if (hasBody(ctx)) {
      body = await bufferBody(ctx, limit);
      replayBody(ctx, body);
    }
    try {
      await next();
    } catch (err) {
      const owner = err instanceof OwnedElsewhere && !ctx.res.headersSent ? err.owner : null;
      if (!owner || owner.node === cluster.nodeName) throw err;
      return pass(ctx, (err as OwnedElsewhere).familyId, owner, body);
    }
  };
}
