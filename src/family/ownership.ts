/**
 * Who may run a family's actor: the family's owner. The embedded daemon owns every family; a
 * cluster node (src/cluster/) only the families whose lease it holds and whose log it has
 * caught up with, taking a family nobody holds on its first use, and refusing one another
 * node owns (the request is forwarded to that node instead: docs/scaling.md, "Ownership").
 */

export interface Ownership {
  /** Whether this process holds the family now (synchronous: asked on every request). */
  owns(familyId: string): boolean;
  /**
   * Takes the family when nobody holds it: resolves once this process may run its actor (its
   * state caught up), or rejects with OwnedElsewhere.
   */
  take(familyId: string): Promise<void>;
}

/** The embedded daemon's: this process runs every family. */
export const ownsEveryFamily: Ownership = {
  owns: () => true,
  take: () => Promise.resolve(),
};

/**
 * The family is owned elsewhere: another cluster node holds its lease (its actor runs there),
 * or the lease is changing hands. The one error for it, whoever finds out — the registry before
 * it runs an actor, the replicated log when a commit's lease has gone. The cluster's front
 * forwards the request to `owner`; without an owner it can reach, the answer is 503 with
 * Retry-After (the door core's error table).
 */
export class OwnedElsewhere extends Error {
  constructor(
    readonly familyId: string,
    readonly owner: { node: string; url: string } | null,
  ) {
    super(
      owner
        ? `family ${familyId} is served by cluster node ${owner.node}`
        : `family ${familyId} is being taken over by another cluster node`,
    );
  }
}
