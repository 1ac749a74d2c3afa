/**
 * A family's grants as the store holds them: the listing and the revocation that need no
 * authorization server, so the CLI (which has no daemon) shares them with it.
 */
import type { OAuthCredentials } from '../store/ports.js';
import type { OAuthWrite } from '../store/types.js';
import type { OAuthGrant } from '../domain/oauth/grants.js';
import type { TokenRecord } from './records.js';

/** A family's grants, oldest first (also for the CLI, which has no daemon). */
export function listGrants(
  store: Pick<OAuthCredentials, 'listOAuth'>,
  familyId: string,
): OAuthGrant[] {
  return store
    .listOAuth<OAuthGrant>('grant')
    .filter((g) => g.familyId === familyId)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Marks a grant revoked and drops its tokens in one transaction (the CLI's path too). */
export async function revokeGrantInStore(
  store: Pick<OAuthCredentials, 'listOAuth' | 'transactOAuth'>,
  grantId: string,
  now: Date,
): Promise<{ grant: OAuthGrant; already: boolean } | undefined> {
  const tokens = store.listOAuth<TokenRecord>('token').filter((t) => t.grantId === grantId);
  return store.transactOAuth<{ grant: OAuthGrant; already: boolean } | undefined>((read) => {
    const grant = read<OAuthGrant>('grant', grantId);
    if (!grant) return { writes: [], result: undefined };
    const drop: OAuthWrite[] = tokens.map((t) => ({ kind: 'token', id: t.id, value: null }));
    if (grant.revokedAt) return { writes: drop, result: { grant, already: true } };
    const revoked = { ...grant, revokedAt: now.toISOString() };
    return {
      writes: [...drop, { kind: 'grant', id: grant.id, value: revoked }],
      result: { grant: revoked, already: false },
    };
  });
}
