/**
 * How a public route reaches what a share token opens: the family registry finds the family by
 * the token's hash, and the read runs on its actor like any other read. An unknown token and a
 * read that finds nothing both give null, so every public route answers them with the same 404.
 */
import type { FamilyState } from '../domain/shared/state.js';
import type { Services } from '../http/route.js';

export async function readShared<T>(
  services: Services, hash: string, read: (state: FamilyState) => T | null,
): Promise<T | null> {
  const actor = await services.registry.byShareToken(hash);
  return actor ? actor.read(read) : null;
}
