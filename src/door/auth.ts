/**
 * The key check of family routes (docs/api.md): `x-api-key: hk_<keyId>_<secret>`, resolved by
 * the daemon's one `Credentials` (hash, constant time, one key cache). No, malformed, unknown or
 * revoked key → 401. A path family that is not the key's family → 403, whether or not it
 * exists. A missing scope → 403. `ticketed` routes (the live change stream) also take
 * `?ticket=` in place of the header; a tool call of /mcp comes in as an inner call (the client's
 * key or OAuth access token, with this process's proof).
 */
import { Forbidden } from '../domain/shared/errors.js';
import { Unauthorized } from './errors.js';
import { hasScope } from '../family/scopes.js';
import type { Directory } from '../store/ports.js';
import type { Scope } from '../store/types.js';
import { INNER_CALL_HEADER, type Credential, type Credentials } from './credentials.js';
import type { DoorContext } from './state.js';

/** The credential a family route takes: the key header, a stream ticket, or an inner call. */
function routeCredential(ctx: DoorContext, ticketed: boolean): Credential | null {
  const presented = ctx.get('x-api-key');
  const ticket = ticketed && !presented ? ctx.query.ticket : undefined;
  if (typeof ticket === 'string') return { kind: 'ticket', ticket };
  const proof = ctx.get(INNER_CALL_HEADER);
  if (proof && presented) return { kind: 'inner', text: presented, proof };
  return presented ? { kind: 'apiKey', text: presented } : null;
}

const REFUSED: Record<Credential['kind'], string> = {
  apiKey: 'The API key is not valid (unknown, malformed or revoked)',
  inner: 'The API key is not valid (unknown, malformed or revoked)',
  basic: 'The API key is not valid (unknown, malformed or revoked)',
  bearer: 'The API key is not valid (unknown, malformed or revoked)',
  ticket: 'The stream ticket is not valid (unknown, used, expired, or its key was revoked)',
  session: 'The session has ended (signed out, revoked or expired): sign in again',
};

export interface AuthDeps {
  credentials: Credentials;
  /** Where a key's last use is noted (without waiting for the disk). */
  directory: Pick<Directory, 'touchKey'>;
  now: () => Date;
}

/**
 * Puts the request's caller and family on `ctx.state`, or throws 401 (no or a refused
 * credential) or 403 (another family, a missing scope). Synchronous: the route chain runs it,
 * with the caller's budget, in one middleware (routes.ts).
 */
export function authenticator(
  deps: AuthDeps,
  scope: Scope,
  ticketed = false,
): (ctx: DoorContext) => void {
  return (ctx) => {
    const credential = routeCredential(ctx, ticketed);
    if (!credential) throw new Unauthorized('The x-api-key header is missing');
    const caller = deps.credentials.resolve(credential);
    if (!caller) throw new Unauthorized(REFUSED[credential.kind]);
    ctx.state.caller = caller;
    const { key, family } = caller;
    if (family.slug !== (ctx.params as Record<string, string>).familySlug) {
      throw new Forbidden('This API key does not belong to that family');
    }
    if (!hasScope(key, scope)) throw new Forbidden(`This API key lacks the "${scope}" scope`);
    ctx.state.family = family;
    // Its last use was noted by the core as it resolved it (whatever door it came through).
  };
}
