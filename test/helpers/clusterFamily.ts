/**
 * The family a cluster test writes to: created in a node's store (its first commit goes to the
 * cluster's log like any other), with a UTC zone and an admin key.
 */
import { randomBytes } from 'node:crypto';
import { createFamily } from '../../src/family/admin.js';
import { createIdGenerator } from '../../src/domain/shared/ids.js';
import type { Daemon } from '../../src/server.js';

export async function clusterFamily(
  store: Daemon['store'],
  slug: string,
  now: () => Date = () => new Date(),
): Promise<{ familyId: string; apiKey: string }> {
  const newId = createIdGenerator(
    () => now().getTime(),
    (n) => randomBytes(n),
  );
  const made = await createFamily(
    store,
    { slug, name: 'Home', timezone: 'UTC' },
    { now: now(), newId, defaultTimezone: 'UTC', withKey: 'test admin' },
  );
  return { familyId: made.family.id, apiKey: made.apiKey! };
}
