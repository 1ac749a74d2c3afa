/**
 * How a public route reaches what a share token opens: the family registry finds the family by
 * the token's hash, and the read runs on its actor like any other read. An unknown token and a
 * read that finds nothing both give null, so every public route answers them with the same 404.
 * A token that opens something is a credential like a key: its request counts in the link's own
 * budget (`rateLimit.perMinute`, docs/api.md), so a leaked link is limited whatever the
 * addresses it is used from; unknown tokens count only per address (they open no budget).
 */
import type { FamilyState } from '../domain/shared/state.js';
import { planBySharedHash } from '../domain/plans/publicView.js';
import type { PlanRecord } from '../domain/plans/types.js';
import { planShareToken } from '../family/shareTokens.js';
import type { PublicServices } from './route.js';
import { countToken } from '../door/limits.js';
import type Koa from 'koa';

export async function readShared<T>(
  koa: Koa.Context,
  services: PublicServices,
  hash: string,
  read: (state: FamilyState) => T | null,
): Promise<T | null> {
  const actor = await services.registry.byShareToken(hash);
  const found = actor ? await actor.read(read) : null;
  if (found !== null) countToken(koa, services.limits, { kind: 'share', tokenHash: hash });
  return found;
}

/** What `read` makes of the plan a plan-share token opens, or null (malformed, unknown, off). */
export async function readSharedPlan<T>(
  koa: Koa.Context,
  services: PublicServices,
  token: string,
  read: (state: FamilyState, plan: PlanRecord) => T,
): Promise<T | null> {
  const hash = planShareToken.hashOf(token);
  if (!hash) return null;
  return readShared(koa, services, hash, (state) => {
    const plan = planBySharedHash(state, hash);
    return plan ? read(state, plan) : null;
  });
}
