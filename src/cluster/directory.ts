/**
 * The directory in a cluster: families, API keys, queued `family update`s and OAuth records
 * are what every node must know, whichever families it owns (a request can reach any node). They
 * are entries on one subject of the log stream (`DIRECTORY_SUBJECT`), applied in order by every
 * node's follower (follower.ts) to its LMDB. A write is decided on the directory as this node
 * has applied it up to the subject's head, appended with that head as the expected last
 * sequence (so two nodes cannot both take a slug or spend one OAuth code), and answered once
 * this node's follower applied it — read-your-writes on the node that wrote.
 */
import type { RecordChange } from '../domain/shared/state.js';
import { Conflict } from '../domain/shared/errors.js';
import type { KeysTransaction, StoreWrites, WholeFamily } from '../store/ports.js';
import type {
  ApiKeyRecord,
  FamilyInfo,
  FamilyPatch,
  OAuthKind,
  OAuthWrite,
  QueuedFamilyUpdate,
} from '../store/types.js';
import type { Store } from '../store/store.js';
import { mergeQueuedUpdate } from '../store/types.js';
import type { JetStreamLog } from './log.js';
import { FencedError } from './logEntry.js';

/** One directory entry. */
export type DirectoryEntry =
  | { v: 1; op: 'family'; family: FamilyInfo; seed: RecordChange[]; firstKey?: ApiKeyRecord }
  | { v: 1; op: 'key'; key: ApiKeyRecord }
  /** Keys written together (a one-time secret spent, a revocation with its sessions). */
  | { v: 1; op: 'keys'; keys: ApiKeyRecord[] }
  | { v: 1; op: 'queue'; familyId: string; patch: FamilyPatch; id: string; at: string }
  | { v: 1; op: 'oauth'; writes: OAuthWrite[] }
  /** An imported family's directory part; its records and log follow on its own subject. */
  | {
      v: 1;
      op: 'whole';
      family: FamilyInfo;
      keys: ApiKeyRecord[];
      indexes: { index: string; key: string }[];
    };

/**
 * Applies a directory entry to this node's LMDB. Every entry is safe to apply twice (a node that
 * stopped between applying and recording how far it got applies it again on its next start).
 */
export async function applyDirectoryEntry(store: Store, entry: DirectoryEntry): Promise<void> {
  // This node's own LMDB, written directly (what the log says, not a write of the node's own).
  const local = store;
  switch (entry.op) {
    case 'family':
      if (store.getFamily(entry.family.id)) return;
      await local.createFamily(entry.family, entry.seed, entry.firstKey);
      return;
    case 'key':
      await local.putKey(entry.key);
      return;
    case 'keys':
      await local.transactKeys(() => ({ writes: entry.keys, result: undefined }));
      return;
    case 'queue':
      await local.queueFamilyUpdate(entry.familyId, entry.patch, entry.id, entry.at);
      return;
    case 'oauth':
      await local.transactOAuth(() => ({ writes: entry.writes, result: undefined }));
      return;
    case 'whole': {
      if (store.getFamily(entry.family.id)) return;
      const doc: WholeFamily = {
        family: entry.family,
        keys: entry.keys,
        records: [],
        log: [],
        indexes: entry.indexes,
      };
      await local.putWholeFamily(doc);
      return;
    }
  }
}

/** How the directory waits for this node's follower (follower.ts). */
export interface AppliedUpTo {
  /** The stream sequence of the last directory entry applied here. */
  readonly directoryHead: number;
  /** Resolves once every entry of the stream up to `streamSeq` is applied here. */
  reached(streamSeq: number): Promise<void>;
}

/** Attempts of a directory write that lost the race to another node's before giving up. */
const ATTEMPTS = 20;

export class ReplicatedDirectory implements Pick<
  StoreWrites,
  'createFamily' | 'putKey' | 'transactKeys' | 'queueFamilyUpdate' | 'transactOAuth'
> {
  constructor(
    private readonly store: Store,
    private readonly log: JetStreamLog,
    private readonly applied: AppliedUpTo,
  ) {}

  /**
   * Decides on the directory as applied up to the subject's head and appends the entry (none:
   * nothing to write); another node's entry first → applies it and decides again.
   */
  async write<R>(decide: () => { entry: DirectoryEntry | null; result: R }): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      await this.applied.reached(await this.log.lastDirectorySeq());
      const { entry, result } = decide();
      if (!entry) return result;
      try {
        const landed = await this.log.appendDirectory(entry, this.applied.directoryHead);
        await this.applied.reached(landed.seq);
        return result;
      } catch (err) {
        if (!(err instanceof FencedError) || attempt >= ATTEMPTS) throw err;
      }
    }
  }

  createFamily(family: FamilyInfo, seed: RecordChange[], firstKey?: ApiKeyRecord): Promise<void> {
    return this.write(() => {
      if (this.store.getFamilyBySlug(family.slug))
        throw new Conflict(`a family with slug "${family.slug}" already exists`);
      const entry: DirectoryEntry = {
        v: 1,
        op: 'family',
        family,
        seed,
        ...(firstKey ? { firstKey } : {}),
      };
      return { entry, result: undefined };
    });
  }

  putKey(key: ApiKeyRecord): Promise<void> {
    return this.write(() => ({ entry: { v: 1, op: 'key', key }, result: undefined }));
  }

  /** Decided on the directory as applied up to the head, so two nodes cannot both spend one. */
  transactKeys<R>(fn: KeysTransaction<R>): Promise<R> {
    return this.write(() => {
      const { writes, result } = fn((id) => this.store.getKey(id));
      const entry: DirectoryEntry | null = writes.length
        ? { v: 1, op: 'keys', keys: [...writes] }
        : null;
      return { entry, result };
    });
  }

  queueFamilyUpdate(
    familyId: string,
    patch: FamilyPatch,
    id: string,
    at: string,
  ): Promise<QueuedFamilyUpdate | undefined> {
    return this.write(() => {
      if (!this.store.getFamily(familyId)) return { entry: null, result: undefined };
      // What the LMDB directory makes of the entry when it applies it.
      const queued = mergeQueuedUpdate(
        this.store.queuedFamilyUpdate(familyId),
        familyId,
        patch,
        id,
        at,
      );
      return { entry: { v: 1, op: 'queue', familyId, patch, id, at }, result: queued };
    });
  }

  transactOAuth<R>(
    fn: (read: <T>(kind: OAuthKind, id: string) => T | undefined) => {
      writes: readonly OAuthWrite[];
      result: R;
    },
  ): Promise<R> {
    return this.write(() => {
      const { writes, result } = fn(<T>(kind: OAuthKind, id: string) =>
        this.store.getOAuth<T>(kind, id),
      );
      const entry: DirectoryEntry | null = writes.length
        ? { v: 1, op: 'oauth', writes: [...writes] }
        : null;
      return { entry, result };
    });
  }

  /** An imported family's directory part; its clash (slug, id, key, index) when it has one. */
  putWhole(doc: WholeFamily): Promise<'ok' | 'slug' | 'id' | 'key'> {
    return this.write(() => {
      const s = this.store;
      const clash: 'slug' | 'id' | 'key' | null = s.getFamilyBySlug(doc.family.slug)
        ? 'slug'
        : s.getFamily(doc.family.id)
          ? 'id'
          : doc.keys.some((k) => s.getKey(k.id)) ||
              (doc.indexes ?? []).some((ix) => s.lookupIndex(ix.index as 'share-token', ix.key))
            ? 'key'
            : null;
      if (clash) return { entry: null, result: clash };
      const entry: DirectoryEntry = {
        v: 1,
        op: 'whole',
        family: doc.family,
        keys: doc.keys,
        indexes: doc.indexes ?? [],
      };
      return { entry, result: 'ok' as const };
    });
  }
}
