/** API key scopes: read, write, admin. */
import type { ApiKeyRecord, Scope } from '../store/types.js';

export const SCOPES: readonly Scope[] = ['read', 'write', 'admin'];

/** Scopes nest: admin implies write, write implies read. */
export function hasScope(key: ApiKeyRecord, needed: Scope): boolean {
  const rank = (s: Scope) => SCOPES.indexOf(s);
  return key.scopes.some((s) => rank(s) >= rank(needed));
}
