/**
 * A whole family into a cluster (`import`, `restore`, `cluster import`): its directory part —
 * the family, its keys, its share-token entries — as one directory entry, then its records,
 * change log, agenda and checkpoints as batches on its own subject, each batch under the
 * servers' message size. The family is unknown to every node until the directory entry lands,
 * and the importing process holds its lease while the batches go in, so no request writes
 * beside them; a restore is meant for a cluster before traffic reaches it (docs/scaling.md).
 */
import type { RecordChange } from '../domain/shared/state.js';
import type { CommitBatch, WholeFamily } from '../store/ports.js';
import type { ReplicatedDirectory } from './directory.js';
import type { ReplicatedCommits } from './replicated.js';

export interface WholeImportParts {
  directory: ReplicatedDirectory;
  commits: ReplicatedCommits;
  /** The servers' largest message: a batch stays under half of it (JSON grows when nested). */
  maxPayload: number;
}

/** Splits a family's data into batches whose encoded size stays under `budget` bytes. */
export function chunkFamily(doc: WholeFamily, budget: number): CommitBatch[] {
  const out: CommitBatch[] = [];
  let current: {
    records: RecordChange[];
    log: WholeFamily['log'];
    agenda: NonNullable<CommitBatch['agenda']>[number][];
  } = { records: [], log: [], agenda: [] };
  let size = 0;
  const flush = () => {
    if (!current.records.length && !current.log.length && !current.agenda.length) return;
    out.push({
      ...(current.records.length ? { records: current.records } : {}),
      ...(current.log.length ? { log: current.log } : {}),
      ...(current.agenda.length ? { agenda: current.agenda } : {}),
    });
    current = { records: [], log: [], agenda: [] };
    size = 0;
  };
  const add = <K extends keyof typeof current>(part: K, item: (typeof current)[K][number]) => {
    const bytes = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (size + bytes > budget) flush();
    (current[part] as unknown[]).push(item);
    size += bytes;
  };
  for (const r of doc.records) add('records', { table: r.table, id: r.id, value: r.value });
  for (const r of doc.log) add('log', r);
  for (const job of doc.agenda ?? []) add('agenda', { put: job });
  flush();
  // Checkpoints last: a consumer must not believe it read past records not yet imported.
  if (doc.checkpoints?.length) out.push({ checkpoints: doc.checkpoints });
  return out;
}

export async function importWholeFamily(
  doc: WholeFamily,
  parts: WholeImportParts,
): Promise<'ok' | 'slug' | 'id' | 'key'> {
  const clash = await parts.directory.putWhole(doc);
  if (clash !== 'ok') return clash;
  const lease = await parts.commits.own(doc.family.id);
  if (!lease) throw new Error(`another node took family ${doc.family.slug} while it was imported`);
  for (const batch of chunkFamily(doc, Math.floor(parts.maxPayload / 2))) {
    await parts.commits.commit(doc.family.id, batch);
  }
  return 'ok';
}
