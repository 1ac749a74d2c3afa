/**
 * How a public route reaches what a share token opens: the family registry finds the family by
 * the token's hash, and the read runs on its actor like any other read. An unknown token and a
 * read that finds nothing both give null, so every public route answers them with the same 404.
 */
import type { FamilyState } from '../domain/shared/state.js';
import { planBySharedHash } from '../domain/plans/publicView.js';
import type { PlanRecord } from '../domain/plans/types.js';
import { planShareToken } from '../family/shareTokens.js';
import type { PublicServices } from './route.js';

export async function readShared<T>(
  services: PublicServices,
  hash: string,
  read: (state: FamilyState) => T | null,
): Promise<T | null> {
  const actor = await services.registry.byShareToken(hash);
  return actor ? actor.read(read) : null;
}

/** What `read` makes of the plan a plan-share token opens, or null (malformed, unknown, off). */
export async function readSharedPlan<T>(
  services: PublicServices,
  token: string,
  read: (state: FamilyState, plan: PlanRecord) => T,
): Promise<T | null> {
  const hash = planShareToken.hashOf(token);
  if (!hash) return null;
  return readShared(services, hash, (state) => {
    const plan = planBySharedHash(state, hash);
    return plan ? read(state, plan) : null;
  });
}
