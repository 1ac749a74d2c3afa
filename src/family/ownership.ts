/**
 * Who may run a family's actor. The embedded daemon runs every family's; a cluster node
 * (src/cluster/) only the families whose lease it holds, taking a family nobody holds on its
 * first use, and refusing one another node holds (the request is passed to that node instead:
 * docs/scaling.md, "Ownership").
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

/** Another node holds the family's lease: its actor runs there. */
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
