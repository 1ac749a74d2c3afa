/**
 * The authorization server's state (docs/oauth.md): registered clients, codes, grants and
 * tokens, all kept in the store's OAuth space beside the API keys, never in the clear.
 *
 * - A code is spent by its first presentation, whatever the outcome; presented again, the
 *   grant made from it is revoked (OAuth 2.1 §4.1.3: someone else holds the code).
 * - A refresh token is spent by its use and replaced (rotation); a spent one presented again
 *   revokes its grant, for the same reason.
 * - Access tokens live `ACCESS_SECONDS` and are only for the resource their grant was made
 *   for: `/mcp` at the origin the consent was given at (publicUrl when set).
 * - A grant works while it is not revoked, its approving admin key is not revoked and its
 *   family exists; it is checked on every use, so a revocation takes effect at once.
 * - Creation and revocation of a grant are logged in the family's change log through its actor.
 *
 * The records' shapes are in records.ts; listing and revoking grants in the store, in grantStore.ts.
 */
import type { FamilyRegistry } from '../family/registry.js';
import type { Directory, OAuthCredentials } from '../store/ports.js';
import type { ApiKeyRecord, OAuthWrite } from '../store/types.js';
import type { Caller } from '../domain/shared/state.js';
import type { IdGenerator } from '../domain/shared/ids.js';
import {
  apiScopes,
  decideGrantLogged,
  type OAuthGrant,
  type OAuthScope,
} from '../domain/oauth/grants.js';
import { makeCredential, parseCredential, sameHash, verifierMatches } from './credentials.js';
import {
  ACCESS_SECONDS,
  CODE_SECONDS,
  OAuthFailure,
  REFRESH_DAYS,
  type CodeRecord,
  type OAuthClient,
  type TokenAnswer,
  type TokenRecord,
  type VerifiedGrant,
} from './records.js';
import { listGrants, revokeGrantInStore } from './grantStore.js';

export interface AuthorityDeps {
  store: OAuthCredentials & Pick<Directory, 'getFamily' | 'getKey'>;
  registry: FamilyRegistry;
  now: () => Date;
  newId: IdGenerator;
}

export class OAuthAuthority {
  constructor(readonly d: AuthorityDeps) {}

  private nowMs(): number {
    return this.d.now().getTime();
  }

  getClient(id: string): OAuthClient | undefined {
    const c = this.d.store.getOAuth<OAuthClient>('client', id);
    return c && !this.expiredClient(c) ? c : undefined;
  }

  /** Unused registrations expire after a day: a flood of them cannot stay. */
  expiredClient(c: OAuthClient): boolean {
    return !c.usedAt && this.nowMs() - Date.parse(c.createdAt) > UNUSED_CLIENT_MS;
  }

  /** 1. The consent page approved: a code for the client, bound to everything the token step checks. */
  async issueCode(input: Omit<CodeRecord, 'id' | 'secretHash' | 'expiresAt'>): Promise<string> {
    const made = makeCredential('code');
    const code: CodeRecord = {
      ...input,
      id: made.id,
      secretHash: made.secretHash,
      expiresAt: this.nowMs() + CODE_SECONDS * 1000,
    };
    await this.d.store.transactOAuth((read) => {
      const client = read<OAuthClient>('client', input.clientId);
      const writes: OAuthWrite[] = [{ kind: 'code', id: code.id, value: code }];
      if (client && !client.usedAt)
        writes.push({
          kind: 'client',
          id: client.id,
          value: { ...client, usedAt: this.d.now().toISOString() },
        });
      return { writes, result: undefined };
    });
    return made.text;
  }

  /** 2. authorization_code: the code, spent now, becomes a grant with its first tokens. */
  async exchangeCode(
    client: OAuthClient,
    p: { code: string; verifier: string; redirectUri: string; resource?: string | undefined },
  ): Promise<TokenAnswer> {
    const parsed = parseCredential('code', p.code);
    if (!parsed) throw new OAuthFailure('invalid_grant', 'The code is malformed');
    await this.familyHere(this.d.store.getOAuth<CodeRecord>('code', parsed.id)?.familyId);
    const now = this.nowMs();
    const grantId = this.d.newId('grant');
    const tokens = [makeCredential('access'), makeCredential('refresh')] as const;
    const outcome = await this.d.store.transactOAuth<CodeOutcome>((read) => {
      const code = read<CodeRecord>('code', parsed.id);
      if (!code || !sameHash(code.secretHash, parsed.secretHash))
        return { writes: [], result: { fail: 'The code is unknown' } };
      if (code.spentAt !== undefined) return { writes: [], result: { replayed: code } };
      const spent: OAuthWrite = { kind: 'code', id: code.id, value: { ...code, spentAt: now } };
      const fail = (why: string) => ({ writes: [spent], result: { fail: why } as const });
      if (code.expiresAt <= now) return fail('The code has expired');
      if (code.clientId !== client.id) return fail('The code was issued to another client');
      if (code.redirectUri !== p.redirectUri)
        return fail('redirect_uri differs from the one of the authorization request');
      if (p.resource !== undefined && p.resource !== code.resource)
        return { writes: [spent], result: { target: `resource must be ${code.resource}` } };
      if (!verifierMatches(p.verifier, code.codeChallenge))
        return fail('code_verifier does not match the code_challenge');
      const grant: OAuthGrant = {
        id: grantId,
        familyId: code.familyId,
        clientId: client.id,
        clientName: client.name,
        scopes: code.scopes,
        resource: code.resource,
        keyId: code.keyId,
        personId: code.personId,
        createdAt: new Date(now).toISOString(),
        revokedAt: null,
      };
      return {
        writes: [
          { ...spent, value: { ...code, spentAt: now, grantId } },
          { kind: 'grant', id: grant.id, value: grant },
          ...this.tokenWrites(grant, grant.scopes, tokens, now),
        ],
        result: { grant },
      };
    });
    if ('replayed' in outcome) {
      if (outcome.replayed.grantId) await this.revokeGrant(outcome.replayed.grantId, null);
      throw new OAuthFailure(
        'invalid_grant',
        'The code was already used; the grant made from it is revoked',
      );
    }
    if ('target' in outcome) throw new OAuthFailure('invalid_target', outcome.target);
    if ('fail' in outcome) throw new OAuthFailure('invalid_grant', outcome.fail);
    await this.log(outcome.grant, 'created', {
      keyId: outcome.grant.keyId,
      personId: outcome.grant.personId,
      grantId: outcome.grant.id,
    });
    return this.answer(outcome.grant.scopes, tokens);
  }

  /** 3. refresh_token: the refresh token is spent and replaced, with a fresh access token. */
  async refresh(
    client: OAuthClient,
    p: { refreshToken: string; scopes?: OAuthScope[] | undefined; resource?: string | undefined },
  ): Promise<TokenAnswer> {
    const parsed = parseCredential('refresh', p.refreshToken);
    if (!parsed) throw new OAuthFailure('invalid_grant', 'The refresh token is malformed');
    const now = this.nowMs();
    const tokens = [makeCredential('access'), makeCredential('refresh')] as const;
    const outcome = await this.d.store.transactOAuth<RefreshOutcome>((read) => {
      const t = read<TokenRecord>('token', parsed.id);
      if (!t || t.kind !== 'refresh' || !sameHash(t.secretHash, parsed.secretHash))
        return { writes: [], result: { fail: 'The refresh token is unknown' } };
      if (t.clientId !== client.id)
        return { writes: [], result: { fail: 'The refresh token was issued to another client' } };
      if (t.spentAt !== undefined) return { writes: [], result: { replayed: t.grantId } };
      if (t.expiresAt <= now)
        return {
          writes: [{ kind: 'token', id: t.id, value: null }],
          result: { fail: 'The refresh token has expired' },
        };
      const grant = read<OAuthGrant>('grant', t.grantId);
      if (!grant || grant.revokedAt || !this.grantUsable(grant))
        return { writes: [], result: { fail: 'The grant was revoked' } };
      if (p.resource !== undefined && p.resource !== grant.resource)
        return { writes: [], result: { target: `resource must be ${grant.resource}` } };
      const scopes = p.scopes ?? t.scopes;
      if (scopes.some((s) => !grant.scopes.includes(s)))
        return { writes: [], result: { scope: true } };
      // The spent token stays until it would have expired: presented again, it gives a thief away.
      return {
        writes: [
          { kind: 'token', id: t.id, value: { ...t, spentAt: now } },
          ...this.tokenWrites(grant, scopes, tokens, now),
        ],
        result: { grant, scopes },
      };
    });
    if ('replayed' in outcome) {
      await this.revokeGrant(outcome.replayed, null);
      throw new OAuthFailure(
        'invalid_grant',
        'The refresh token was already used; its grant is revoked',
      );
    }
    if ('scope' in outcome)
      throw new OAuthFailure('invalid_scope', 'scope asks for more than the grant holds');
    if ('target' in outcome) throw new OAuthFailure('invalid_target', outcome.target);
    if ('fail' in outcome) throw new OAuthFailure('invalid_grant', outcome.fail);
    return this.answer(outcome.scopes, tokens);
  }

  /**
   * RFC 7009: an access token is dropped; a refresh token revokes its whole grant (§2.1:
   * its access tokens go with it). Unknown tokens and other clients' tokens change nothing.
   */
  async revokeToken(client: OAuthClient, token: string): Promise<void> {
    for (const kind of ['refresh', 'access'] as const) {
      const parsed = parseCredential(kind, token);
      if (!parsed) continue;
      const t = this.d.store.getOAuth<TokenRecord>('token', parsed.id);
      if (
        !t ||
        t.kind !== kind ||
        t.clientId !== client.id ||
        !sameHash(t.secretHash, parsed.secretHash)
      )
        return;
      if (kind === 'refresh') await this.revokeGrant(t.grantId, null);
      else
        await this.d.store.transactOAuth(() => ({
          writes: [{ kind: 'token', id: t.id, value: null }],
          result: undefined,
        }));
      return;
    }
  }

  /**
   * An access token presented to /mcp at `resource` (the request's `${origin}/mcp`), or by
   * /mcp's tool call to REST with the inner-call proof REST checks: the grant it acts as, or
   * null — also when the grant was made for another resource (RFC 8707: a token minted for
   * http://a:1/mcp is no good at http://b:2/mcp). `null` skips that check, for callers that
   * only route (the cluster door) or whose token /mcp checked already (the tool call's REST
   * request, which /mcp made after checking it).
   */
  verifyAccess(token: string, resource: string | null): VerifiedGrant | null {
    const parsed = parseCredential('access', token);
    if (!parsed) return null;
    const t = this.d.store.getOAuth<TokenRecord>('token', parsed.id);
    if (
      !t ||
      t.kind !== 'access' ||
      !sameHash(t.secretHash, parsed.secretHash) ||
      t.expiresAt <= this.nowMs()
    )
      return null;
    const grant = this.d.store.getOAuth<OAuthGrant>('grant', t.grantId);
    if (
      !grant ||
      grant.revokedAt ||
      (resource !== null && grant.resource !== resource) ||
      !this.grantUsable(grant)
    )
      return null;
    const family = this.d.store.getFamily(grant.familyId);
    if (!family) return null;
    const key: ApiKeyRecord = {
      id: grant.keyId,
      familyId: grant.familyId,
      name: `${grant.clientName} (OAuth)`,
      scopes: apiScopes(t.scopes),
      personId: grant.personId,
      secretHash: '',
      createdAt: grant.createdAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    return { grant, family, key };
  }

  /**
   * Whether an admin has granted this client and the grant still works: only then is its
   * registered redirect trusted with an error before anyone consented (RFC 9700 §4.11.2).
   */
  hasWorkingGrant(clientId: string): boolean {
    return this.d.store
      .listOAuth<OAuthGrant>('grant')
      .some((g) => g.clientId === clientId && !g.revokedAt && this.grantUsable(g));
  }

  listGrants(familyId: string): OAuthGrant[] {
    return listGrants(this.d.store, familyId);
  }

  /**
   * Revokes a grant and drops its tokens; logged in its family's change log as done by
   * `by` (null: the authorization server itself, on a replayed code or refresh token).
   * Answers the revoked grant, or undefined when there is none; an already revoked one is
   * answered as it is (`already: true`), nothing logged again.
   */
  async revokeGrant(
    grantId: string,
    by: Caller | null,
  ): Promise<{ grant: OAuthGrant; already: boolean } | undefined> {
    await this.familyHere(this.d.store.getOAuth<OAuthGrant>('grant', grantId)?.familyId);
    const outcome = await revokeGrantInStore(this.d.store, grantId, this.d.now());
    if (outcome && !outcome.already)
      await this.log(outcome.grant, 'revoked', by ?? { keyId: null, personId: null, grantId });
    return outcome;
  }

  /** Expired codes, tokens and unused registrations: removed in bounded passes. */
  async sweep(limit = 500): Promise<number> {
    const now = this.nowMs();
    const writes: OAuthWrite[] = [];
    for (const c of this.d.store.listOAuth<CodeRecord>('code'))
      if (c.expiresAt + 3_600_000 < now && writes.length < limit)
        writes.push({ kind: 'code', id: c.id, value: null });
    for (const t of this.d.store.listOAuth<TokenRecord>('token'))
      if (t.expiresAt < now && writes.length < limit)
        writes.push({ kind: 'token', id: t.id, value: null });
    for (const c of this.d.store.listOAuth<OAuthClient>('client'))
      if (this.expiredClient(c) && writes.length < limit)
        writes.push({ kind: 'client', id: c.id, value: null });
    if (writes.length) await this.d.store.transactOAuth(() => ({ writes, result: undefined }));
    return writes.length;
  }

  private grantUsable(grant: OAuthGrant): boolean {
    const key = this.d.store.getKey(grant.keyId);
    return !!key && !key.revokedAt;
  }

  private tokenWrites(
    grant: OAuthGrant,
    scopes: OAuthScope[],
    [access, refresh]: readonly [Made, Made],
    now: number,
  ): OAuthWrite[] {
    const base = { grantId: grant.id, familyId: grant.familyId, clientId: grant.clientId, scopes };
    const a: TokenRecord = {
      id: access.id,
      kind: 'access',
      secretHash: access.secretHash,
      expiresAt: now + ACCESS_SECONDS * 1000,
      ...base,
    };
    const r: TokenRecord = {
      id: refresh.id,
      kind: 'refresh',
      secretHash: refresh.secretHash,
      expiresAt: now + REFRESH_DAYS * 86_400_000,
      ...base,
    };
    return [
      { kind: 'token', id: a.id, value: a },
      { kind: 'token', id: r.id, value: r },
    ];
  }

  private answer(scopes: OAuthScope[], [access, refresh]: readonly [Made, Made]): TokenAnswer {
    return {
      access_token: access.text,
      token_type: 'Bearer',
      expires_in: ACCESS_SECONDS,
      refresh_token: refresh.text,
      scope: scopes.join(' '),
    };
  }

  /**
   * Activates the family's actor before anything is written: on a cluster node whose family
   * another node owns, this throws (OwnedElsewhere) while nothing is spent yet, and the request
   * moves to the owner whole (src/cluster/front.ts) — where the grant's log entry is written.
   */
  private async familyHere(familyId: string | undefined): Promise<void> {
    const family = familyId ? this.d.store.getFamily(familyId) : undefined;
    if (family) await this.d.registry.get(family);
  }

  private async log(grant: OAuthGrant, what: 'created' | 'revoked', by: Caller): Promise<void> {
    const family = this.d.store.getFamily(grant.familyId);
    if (!family) return;
    const actor = await this.d.registry.get(family);
    await actor.execute((state, ctx) => decideGrantLogged(state, grant, what, ctx), by);
  }
}

type Made = ReturnType<typeof makeCredential>;
type CodeOutcome =
  { fail: string } | { target: string } | { replayed: CodeRecord } | { grant: OAuthGrant };
type RefreshOutcome =
  | { fail: string }
  | { target: string }
  | { replayed: string }
  | { scope: true }
  | { grant: OAuthGrant; scopes: OAuthScope[] };

const UNUSED_CLIENT_MS = 24 * 3_600_000;
