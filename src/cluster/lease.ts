/**
 * Ownership of a family by a lease in a JetStream KV bucket. NATS 2.9 has no per-key TTL, so
 * the expiry is in the value, and taking or renewing a lease is a compare-and-set on the
 * entry's revision: of two nodes that read the same expired lease, one update wins.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';

/** JetStream's answer to a compare-and-set on a revision that is no longer the last. */
function lostRace(err: unknown): boolean {
  return (
    err instanceof JetStreamApiError &&
    (err.code === JetStreamApiCodes.StreamWrongLastSequence ||
      err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}
import { LEASE_BUCKET } from './connection.js';

export interface LeaseValue {
  node: string;
  /** Where the holder answers HTTP (`cluster.advertiseUrl`): other nodes forward there. */
  url: string;
  expiresAt: number;
}

export interface HeldLease {
  familyId: string;
  revision: number;
  expiresAt: number;
}

export type Clock = () => number;

export class Leases {
  private readonly held = new Map<string, HeldLease>();

  private constructor(
    private readonly kv: KV,
    readonly node: string,
    /** Where this node answers; set again once the server listens (runtime.ts `listening`). */
    public url: string,
    private readonly leaseMs: number,
    private readonly now: Clock,
  ) {}

  static async open(
    nc: NatsConnection,
    node: string,
    url: string,
    leaseSeconds: number,
    replicas: number,
    now: Clock = Date.now,
  ): Promise<Leases> {
    const kv = await new Kvm(nc).create(LEASE_BUCKET, { history: 1, replicas });
    return new Leases(kv, node, url, leaseSeconds * 1000, now);
  }

  private value(expiresAt: number): string {
    return JSON.stringify({ node: this.node, url: this.url, expiresAt } satisfies LeaseValue);
  }

  /** Who holds the family's lease now (null: nobody, or it expired). */
  async owner(familyId: string): Promise<LeaseValue | null> {
    const e = await this.kv.get(familyId);
    if (!e || e.operation !== 'PUT') return null;
    const v = e.json<LeaseValue>();
    return v.expiresAt > this.now() ? v : null;
  }

  /**
   * Takes the family's lease when it is free, expired or already ours; resolves with it, or
   * with null when another node holds it (or won the race for it).
   */
  async acquire(familyId: string): Promise<HeldLease | null> {
    const e = await this.kv.get(familyId);
    const expiresAt = this.now() + this.leaseMs;
    const value = this.value(expiresAt);
    let revision: number;
    try {
      if (!e || e.operation !== 'PUT') {
        revision = e
          ? await this.kv.update(familyId, value, e.revision)
          : await this.kv.create(familyId, value);
      } else {
        const v = e.json<LeaseValue>();
        if (v.node !== this.node && v.expiresAt > this.now()) return null;
        revision = await this.kv.update(familyId, value, e.revision);
      }
    } catch (err) {
      // Another node's compare-and-set came first; anything else (no answer during an election)
      // is the caller's to retry.
      if (lostRace(err)) return null;
      throw err;
    }
    const lease = { familyId, revision, expiresAt };
    this.held.set(familyId, lease);
    return lease;
  }

  /**
   * Extends a lease this node holds; false (and the lease is dropped) when another node took
   * it. A renewal NATS could not answer (a server died, JetStream is electing a leader) keeps
   * the lease until its own expiry, and the next renewal tries again: a lease is lost by the
   * compare-and-set failing, not by a slow moment.
   */
  async renew(familyId: string): Promise<boolean> {
    const lease = this.held.get(familyId);
    if (!lease) return false;
    const expiresAt = this.now() + this.leaseMs;
    try {
      lease.revision = await this.kv.update(familyId, this.value(expiresAt), lease.revision);
      lease.expiresAt = expiresAt;
      return true;
    } catch (err) {
      if (!lostRace(err)) throw err;
      this.held.delete(familyId);
      return false;
    }
  }

  /**
   * Families whose lease nobody holds now (expired, or given up by a node that stopped in
   * order): what a node sweeping for orphans takes, so that a dead owner's reminders and
   * webhooks resume without waiting for a request.
   */
  async orphans(): Promise<string[]> {
    const out: string[] = [];
    for await (const familyId of await this.kv.keys()) {
      if (this.held.has(familyId)) continue;
      const e = await this.kv.get(familyId);
      if (!e || e.operation !== 'PUT') continue;
      if (e.json<LeaseValue>().expiresAt <= this.now()) out.push(familyId);
    }
    return out;
  }

  /** The lease this node holds on the family and believes valid now, if any. */
  holding(familyId: string): HeldLease | undefined {
    const lease = this.held.get(familyId);
    if (lease && lease.expiresAt <= this.now()) {
      this.held.delete(familyId);
      return undefined;
    }
    return lease;
  }

  /**
   * Gives a held lease up at once (a node stopping in order, the CLI after an import), so the
   * next node need not wait for it to expire. A lease another node took meanwhile is left alone.
   */
  async release(familyId: string): Promise<void> {
    const lease = this.held.get(familyId);
    if (!lease) return;
    this.held.delete(familyId);
    await this.kv.update(familyId, this.value(0), lease.revision).catch(() => undefined);
  }

  /** Forgets a lease (after being fenced): the next write must take it again. */
  drop(familyId: string): void {
    this.held.delete(familyId);
  }

  heldFamilies(): string[] {
    return [...this.held.keys()];
  }
}
