/**
 * Who is asking, for every door: one parser per way a credential travels (the `x-api-key`
 * header, HTTP Basic, a Bearer token, a stream ticket in the query), one cache of verified API
 * keys for the whole daemon, and one place where a credential becomes a `Caller` — the key it
 * acts as, its family, its scopes, and the OAuth grant or household member behind it.
 *
 * A credential kind is a row of `Credential` and a resolver in `Credentials`: the resolvers of
 * kinds a door owns (an OAuth access token, a stream ticket) are handed in by the daemon when it
 * composes the doors, so this core never imports a door. A session cookie or a display token is
 * one more kind and one more resolver.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isSessionText, keyIdOf, matchSession, verifyApiKey } from '../family/keys.js';
import type { Caller as ChangeCaller } from '../domain/shared/state.js';
import type { Directory } from '../store/ports.js';
import type { ApiKeyRecord, FamilyInfo, Scope } from '../store/types.js';

/** A credential as a request presents it, by kind. */
export type Credential =
  /** `x-api-key: hk_…` (REST, MCP) or an API key typed into a form (the OAuth consent page). */
  | { kind: 'apiKey'; text: string }
  /** `Authorization: Basic` (CalDAV: user = family slug, password = an API key). */
  | { kind: 'basic'; user: string; password: string }
  /**
   * `Authorization: Bearer` (MCP: an OAuth access token or an API key). `resource` is where it
   * was presented (`${origin}/mcp`, set by the door): an access token is good only at the
   * resource its grant was made for (RFC 8707), and without one it is refused.
   */
  | { kind: 'bearer'; token: string; resource?: string }
  /** `?ticket=` (a browser's one-minute live stream ticket; spent when resolved). */
  | { kind: 'ticket'; ticket: string }
  /**
   * The household pages' `ho_session` cookie: `hs_<id>_<secret>`, a record of kind `session`
   * (src/family/access.ts), good only as one and only at the pages door. The pages act through
   * REST with it as an inner call (this process's proof), never as a key.
   */
  | { kind: 'session'; text: string }
  /**
   * A request one door of this process sent to another for a client it already checked (an MCP
   * tool call answered by REST): the client's key or access token with this process's proof.
   */
  | { kind: 'inner'; text: string; proof: string };

export type CredentialKind = Credential['kind'];

/**
 * Whoever asks, once their credential is verified: the key they act as (an OAuth grant acts as
 * a key of its family with the grant's scopes), its family and scopes, and what the change log
 * keeps of them (`ChangeCaller`: key id, person, grant).
 */
export interface Caller extends ChangeCaller {
  keyId: string;
  key: ApiKeyRecord;
  family: FamilyInfo;
  scopes: readonly Scope[];
  /** How the credential came. */
  via: CredentialKind;
}

/** A key's last use is written at most this often (each is a background write). */
const TOUCH_EVERY_MS = 10 * 60_000;

// ---- parsers: one per way a credential travels ------------------------------------------------

/**
 * HTTP Basic credentials (`Authorization: Basic …`): null when the header is not Basic; user and
 * password empty when the decoded text has no user before a colon.
 */
export function basicCredentials(authorization: string): { user: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0
    ? { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
    : { user: '', password: '' };
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(authorization: string): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? null;
}

/** The header an inner call (a request one door sends to another in this process) proves itself in. */
export const INNER_CALL_HEADER = 'x-household-inner-call';

/** What a request carries, without reading its body: its headers. */
export interface Presented {
  get(name: string): string;
}

/**
 * The credential a request presents in its headers: `x-api-key` first, then `Authorization`
 * (Basic or Bearer); with the inner-call proof, the key or token it proves. Null when none.
 */
export function credentialOf(req: Presented): Credential | null {
  const apiKey = req.get('x-api-key');
  const authorization = req.get('authorization');
  const proof = req.get(INNER_CALL_HEADER);
  if (proof) return { kind: 'inner', text: apiKey || bearerToken(authorization) || '', proof };
  if (apiKey) return { kind: 'apiKey', text: apiKey };
  const basic = basicCredentials(authorization);
  if (basic) return { kind: 'basic', ...basic };
  const token = bearerToken(authorization);
  return token ? { kind: 'bearer', token } : null;
}

// ---- the one key cache -------------------------------------------------------------------------

export type KeyDirectory = Pick<Directory, 'getKey' | 'getFamily' | 'keysVersion'> &
  Partial<Pick<Directory, 'touchKey'>>;

interface Verified {
  key: ApiKeyRecord;
  family: FamilyInfo | undefined;
  version: number;
}

/**
 * Verified keys by their presented text, valid while the store's keys version is unchanged
 * (every creation or revocation, from this process or the CLI, bumps it), so revocation still
 * takes effect on the next request while a busy key skips the hash and two decodes. One per
 * daemon, shared by every door.
 */
export class KeyCache {
  private readonly entries = new Map<string, Verified>();
  constructor(
    private readonly directory: KeyDirectory,
    private readonly max = 10_000,
  ) {}

  verify(presented: string): Verified | null {
    const version = this.directory.keysVersion();
    const hit = this.entries.get(presented);
    if (hit && hit.version === version) return hit;
    const key = verifyApiKey(this.directory, presented);
    if (!key) {
      this.entries.delete(presented);
      return null;
    }
    const fresh = { key, family: this.directory.getFamily(key.familyId), version };
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(presented, fresh);
    return fresh;
  }
}

// ---- inner calls ------------------------------------------------------------------------------

/**
 * Proofs that a request was sent by a door of this very process for a client that door has
 * already checked: an HMAC of the presented credential under a key only this process knows.
 * Only with such a proof does REST take an OAuth access token (tokens are for /mcp alone).
 */
export class InnerCalls {
  private readonly secret = randomBytes(32);

  proof(credential: string): string {
    return createHmac('sha256', this.secret).update(credential).digest('hex');
  }

  verify(credential: string, proof: string): boolean {
    if (!/^[0-9a-f]{64}$/.test(proof)) return false;
    return timingSafeEqual(Buffer.from(this.proof(credential), 'hex'), Buffer.from(proof, 'hex'));
  }
}

// ---- resolving --------------------------------------------------------------------------------

/** An OAuth access token as the OAuth door verifies it (src/oauth/authority.ts). */
export interface AccessTokens {
  /** Whether the text is shaped like an access token (so it is not tried as an API key). */
  isAccessToken(token: string): boolean;
  /**
   * The grant a token acts as, when it was made for `resource`; `null` skips that check, for
   * a caller that only routes (the front) or whose token /mcp checked already (an inner call).
   */
  verifyAccess(
    token: string,
    resource: string | null,
  ): { key: ApiKeyRecord; family: FamilyInfo; grant: { id: string } } | null;
}

/** A stream ticket as the live stream door spends it (src/stream/tickets.ts). */
export interface Tickets {
  redeem(ticket: string): { keyId: string; familyId: string } | null;
}

/** The resolvers of credential kinds that doors own, handed in when the daemon is composed. */
export interface DoorResolvers {
  accessTokens?: AccessTokens;
  tickets?: Tickets;
}

type Resolver<K extends CredentialKind> = (c: Extract<Credential, { kind: K }>) => Caller | null;

/** The daemon's credentials: every kind resolved in one place, through one key cache. */
export class Credentials {
  readonly keys: KeyCache;
  readonly inner = new InnerCalls();
  /** Each key record's last use as noted, in ms (its ISO text was parsed on every request). */
  private readonly noted = new WeakMap<ApiKeyRecord, number>();
  private readonly resolvers: { [K in CredentialKind]: Resolver<K> };

  constructor(
    private readonly directory: KeyDirectory & Pick<Directory, 'getFamilyBySlug'>,
    private readonly doors: DoorResolvers = {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.keys = new KeyCache(directory);
    this.resolvers = {
      apiKey: (c) => this.byKey(c.text, 'apiKey'),
      basic: (c) => {
        const caller = c.user ? this.byKey(c.password, 'basic') : null;
        return caller && caller.family.slug === c.user ? caller : null;
      },
      bearer: (c) => this.byToken(c.token, 'bearer', c.resource),
      ticket: (c) => this.byTicket(c.ticket),
      session: (c) => this.bySession(c.text, 'session'),
      // A proof of this process lets an access token or a pages session in, and the call is not
      // counted again (the door the client spoke to counted it). An API key is good anywhere,
      // proof or not: with another process's proof (a tool call that reached another cluster
      // node) it is a plain key, counted here; a token or a session is not a key, so without a
      // valid proof it is refused.
      inner: (c) =>
        this.inner.verify(c.text, c.proof)
          ? isSessionText(c.text)
            ? this.bySession(c.text, 'inner')
            : this.byToken(c.text, 'inner', null)
          : this.doors.accessTokens?.isAccessToken(c.text)
            ? null
            : this.byKey(c.text, 'apiKey'),
    };
  }

  /**
   * The caller a credential stands for, or null (unknown, malformed, revoked, spent). Its key's
   * last use is noted whatever door it came through (at most every ten minutes; an OAuth
   * grant's use is its grant's, noted by the OAuth door).
   */
  resolve(c: Credential): Caller | null {
    const caller = (this.resolvers[c.kind] as Resolver<CredentialKind>)(c);
    if (caller && caller.grantId === undefined) this.noteUse(caller.key);
    return caller;
  }

  private noteUse(key: ApiKeyRecord): void {
    const now = this.now();
    const noted = this.noted.get(key) ?? (key.lastUsedAt ? Date.parse(key.lastUsedAt) : NaN);
    if (now.getTime() - noted <= TOUCH_EVERY_MS) return;
    key.lastUsedAt = now.toISOString();
    this.noted.set(key, now.getTime());
    this.directory.touchKey?.(key.id, key.lastUsedAt);
  }

  /**
   * The family a credential names, without verifying its secret: what a cluster node's front
   * needs to pick the owner to forward to (the owner verifies it). Null when it names none.
   */
  familyIdOf(c: Credential): string | null {
    switch (c.kind) {
      case 'apiKey':
      case 'session':
        // keyIdOf reads both shapes: a session names its family as a key does.
        return this.familyOfKey(c.text);
      case 'basic':
        return c.user ? (this.directory.getFamilyBySlug(c.user)?.id ?? null) : null;
      case 'bearer':
      case 'inner': {
        const text = c.kind === 'bearer' ? c.token : c.text;
        const tokens = this.doors.accessTokens;
        if (tokens?.isAccessToken(text)) return tokens.verifyAccess(text, null)?.family.id ?? null;
        return this.familyOfKey(text);
      }
      case 'ticket':
        return null;
    }
  }

  private familyOfKey(text: string): string | null {
    const id = keyIdOf(text);
    return id ? (this.directory.getKey(id)?.familyId ?? null) : null;
  }

  private byKey(text: string, via: CredentialKind): Caller | null {
    const v = this.keys.verify(text);
    return v?.family ? callerOf(v.key, v.family, via) : null;
  }

  /**
   * A pages session: live (unrevoked, within its end on the wall clock; the pages door checks
   * its end on the daemon's clock first) and its source key, when it has one, live too.
   */
  private bySession(text: string, via: CredentialKind): Caller | null {
    const s = matchSession(this.directory, text);
    const now = Date.now();
    if (!s || (s.expiresAt && Date.parse(s.expiresAt) <= now)) return null;
    if (s.derivedFrom) {
      const source = this.directory.getKey(s.derivedFrom);
      if (!source || source.revokedAt) return null;
      if (source.expiresAt && Date.parse(source.expiresAt) <= now) return null;
    }
    const family = this.directory.getFamily(s.familyId);
    return family ? callerOf(s, family, via) : null;
  }

  /**
   * A Bearer token: an OAuth access token when it looks like one, else an API key. An access
   * token is for /mcp alone, at the resource it was granted for (`resource`; undefined: none
   * named, refused); elsewhere only as an inner call from /mcp (`null`: /mcp checked it).
   */
  private byToken(
    token: string,
    via: CredentialKind,
    resource: string | null | undefined,
  ): Caller | null {
    const tokens = this.doors.accessTokens;
    if (tokens?.isAccessToken(token)) {
      const g = resource === undefined ? null : tokens.verifyAccess(token, resource);
      return g ? callerOf(g.key, g.family, via, g.grant.id) : null;
    }
    return this.byKey(token, via);
  }

  /** A ticket is spent whatever the outcome; its key must still be good. */
  private byTicket(ticket: string): Caller | null {
    const spent = this.doors.tickets?.redeem(ticket);
    const key = spent ? this.directory.getKey(spent.keyId) : undefined;
    if (!key || key.revokedAt || key.familyId !== spent!.familyId) return null;
    const family = this.directory.getFamily(key.familyId);
    return family ? callerOf(key, family, 'ticket') : null;
  }
}

function callerOf(
  key: ApiKeyRecord,
  family: FamilyInfo,
  via: CredentialKind,
  grantId?: string,
): Caller {
  const caller: Caller = {
    keyId: key.id,
    personId: key.personId,
    keyName: key.name,
    key,
    family,
    scopes: key.scopes,
    via,
  };
  // Set, not spread: this runs on every request.
  if (grantId) caller.grantId = grantId;
  return caller;
}
