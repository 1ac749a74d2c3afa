/**
 * The front of a cluster node (docs/scaling.md, "Forwarded requests"): every node answers every
 * family's requests. A request whose family the doors can tell from the request itself — each
 * door says how (`Door.familyOf`: a family slug in a REST or CalDAV path, the API key, CalDAV's
 * Basic user, an assistant's OAuth token) — is forwarded to the family's owner unchanged when
 * another node owns it, before anything here reads or counts it (so rate limits count on the
 * owner). Anything else (a share link's page, an OAuth form) is served here, its body kept
 * aside; if serving it reaches a family another node owns (OwnedElsewhere), it is forwarded
 * after all. A request another node forwarded is checked (the cluster's HMAC) and served here,
 * never forwarded again. An owner that cannot be reached is the error table's 503 with
 * Retry-After, in the door's form.
 */
import type Koa from 'koa';
import type { FrontParts } from '../door/app.js';
import { hasBody, readRaw, replayBody } from '../door/body.js';
import type { DoorMiddleware } from '../door/state.js';
import { OwnedElsewhere } from '../family/ownership.js';
import { FORWARD_HEADERS } from './forward.js';
import { acceptForwarded, forwardTo, FORWARD_TIMEOUT_MS } from './proxy.js';
import type { ClusterRuntime } from './runtime.js';

export function clusterFront(
  cluster: ClusterRuntime,
  { familyOf, originOf }: FrontParts,
  limit: number,
): DoorMiddleware {
  const secret = cluster.config.secret;
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
        // The owner builds links on the origin the client addressed (a proxy's, if trusted).
        origin: originOf(ctx),
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
    const familyId = familyOf(ctx);
    if (familyId && !cluster.owns(familyId)) {
      const owner = await cluster.ownerOf(familyId);
      if (owner && owner.node !== cluster.nodeName) {
        const body = hasBody(ctx) ? await readRaw(ctx, limit) : Buffer.alloc(0);
        return pass(ctx, familyId, owner, body);
      }
    }
    // Served here; keep the body in case the family turns out to live elsewhere after all (a
    // share link's family, or one another node took a moment ago).
    let body: Buffer = Buffer.alloc(0);
    if (hasBody(ctx)) {
      body = await readRaw(ctx, limit);
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
