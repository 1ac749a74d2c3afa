/**
 * The family registry: finds or activates a family's actor, keeps at most
 * `families.maxActiveActors` of them (least recently used go first), evicts those idle for
 * `families.actorIdleMinutes`, and drains them all on shutdown. Memory follows the number of
 * active families, not the number on disk. Idle time is measured on the injected clock.
 */
import type { FamilyInfo } from '../domain/shared/state.js';
import { FamilyActor, type ActorDeps } from './actor.js';
import { ownsEveryFamily, type Ownership } from './ownership.js';

export interface RegistryOptions {
  idleMs: number;
  maxActive: number;
  /** Which families this process owns (the topology's); absent, every family. */
  ownership?: Ownership;
}

interface Slot {
  promise: Promise<FamilyActor>;
  actor?: FamilyActor;
}

export class FamilyRegistry {
  /** Insertion order = least recently used first. */
  private readonly slots = new Map<string, Slot>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly deps: ActorDeps,
    private readonly opts: RegistryOptions,
  ) {
    const every = Math.max(1_000, Math.min(60_000, opts.idleMs / 2));
    this.timer = setInterval(() => this.evictIdle(), every);
    this.timer.unref();
  }

  get activeCount(): number {
    return this.slots.size;
  }

  /**
   * The family's actor when it can be had at once — owned here and in memory — else null (then
   * `get`). Every request asks; this spares the common case `get`'s promise.
   */
  ready(family: FamilyInfo): FamilyActor | null {
    if (this.closed || !(this.opts.ownership ?? ownsEveryFamily).owns(family.id)) return null;
    const slot = this.slots.get(family.id);
    if (!slot?.actor) return null;
    this.touched(family.id, slot);
    return slot.actor;
  }

  /** The family's actor, activating it on first use. */
  async get(family: FamilyInfo): Promise<FamilyActor> {
    if (this.closed) throw new Error('the service is shutting down');
    const ownership = this.opts.ownership ?? ownsEveryFamily;
    // Taking the family catches its state up from the cluster's log and drops an actor still
    // in memory from an earlier time this node owned it (stale now): see `drop`.
    if (!ownership.owns(family.id)) await ownership.take(family.id);
    const slot = this.slots.get(family.id);
    if (slot) return this.touched(family.id, slot).actor ?? slot.promise;
    const fresh: Slot = { promise: FamilyActor.activate(this.deps, family) };
    this.slots.set(family.id, fresh);
    fresh.promise.then(
      (actor) => {
        fresh.actor = actor;
        this.enforceCap();
      },
      () => {
        if (this.slots.get(family.id) === fresh) this.slots.delete(family.id);
      },
    );
    return fresh.promise;
  }

  /** Moves a slot to the most recently used end. */
  private touched(familyId: string, slot: Slot): Slot {
    this.slots.delete(familyId);
    this.slots.set(familyId, slot);
    return slot;
  }

  /**
   * The actor of the family a share token belongs to (by the token's hash, through the
   * store-wide index), or undefined: the one lookup the public pages make.
   */
  async byShareToken(hash: string): Promise<FamilyActor | undefined> {
    const familyId = this.deps.store.lookupIndex('share-token', hash);
    const info = familyId ? this.deps.store.getFamily(familyId) : undefined;
    return info ? this.get(info) : undefined;
  }

  /**
   * Forgets a family's actor (a cluster node that lost or retook the family): the next use
   * activates it again from the store. Commits it has in flight finish or fail on their own.
   */
  drop(familyId: string): void {
    this.slots.delete(familyId);
  }

  /** The actor if it is in memory, without activating it. */
  peek(familyId: string): FamilyActor | undefined {
    return this.slots.get(familyId)?.actor;
  }

  /** Drops actors idle for longer than the limit that have nothing in flight. */
  evictIdle(now = this.deps.now().getTime()): number {
    let evicted = 0;
    for (const [id, slot] of this.slots) {
      const a = slot.actor;
      if (a && !a.busy && now - a.lastUsed >= this.opts.idleMs) {
        this.slots.delete(id);
        evicted++;
      }
    }
    return evicted;
  }

  /** Least recently used actors go first; one with a commit in flight is kept for now. */
  private enforceCap(): void {
    if (this.slots.size <= this.opts.maxActive) return;
    for (const [id, slot] of this.slots) {
      if (this.slots.size <= this.opts.maxActive) break;
      if (slot.actor && !slot.actor.busy) this.slots.delete(id);
    }
  }

  /** Stops taking families and waits for every commit in flight. */
  async shutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const all = await Promise.allSettled(Array.from(this.slots.values(), (s) => s.promise));
    await Promise.all(all.flatMap((r) => (r.status === 'fulfilled' ? [r.value.drain()] : [])));
    this.slots.clear();
  }
}
