/**
 * One batch of the family actor's group commit (actor.ts, steps 1 to 3): everything its
 * commands write, committed in one transaction — their records, the change-log records their
 * events become, indexes, agenda jobs, idempotency answers, the family's settings.
 */
import type { CommitBatch } from '../store/ports.js';
import type { ChangeRecord, IdempotencyWrite } from '../store/types.js';
import type { IdGenerator } from '../domain/shared/ids.js';
import type {
  AgendaChange,
  Caller,
  Decision,
  IndexChange,
  RecordChange,
} from '../domain/shared/state.js';

/** One batch being decided: everything its commands write, committed at once. */
export type Batch = CommitBatch & {
  records: RecordChange[];
  log: ChangeRecord[];
  indexes: IndexChange[];
  agenda: AgendaChange[];
  idempotency: IdempotencyWrite[];
};

/** An empty batch, to be committed only if the family's log is still at `expectedLastSeq`. */
export function newBatch(expectedLastSeq: number): Batch {
  return { records: [], log: [], indexes: [], agenda: [], idempotency: [], expectedLastSeq };
}

/** Whether the batch has nothing to write (its commands only answered). */
export function writesNothing(batch: Batch): boolean {
  return (
    !batch.records.length &&
    !batch.log.length &&
    !batch.indexes.length &&
    !batch.agenda.length &&
    !batch.family &&
    batch.settlesQueuedUpdate === undefined
  );
}

/** Whether a decision writes anything (else its answer is not kept for repeats). */
export function decisionWrites(decision: Decision<unknown>): boolean {
  return (
    decision.changes.length > 0 ||
    decision.events.length > 0 ||
    (decision.indexes?.length ?? 0) > 0 ||
    (decision.agenda?.length ?? 0) > 0 ||
    decision.family !== undefined
  );
}

/** The change-log records of a decision's events: numbered in order, by the caller, at `now`. */
export function changeRecords(
  decision: Decision<unknown>,
  caller: Caller,
  now: Date,
  ids: { newId: IdGenerator; nextSeq: () => number },
): ChangeRecord[] {
  const at = now.toISOString();
  return decision.events.map((e) => ({
    id: ids.newId('event'),
    seq: ids.nextSeq(),
    at,
    type: e.type,
    actor: {
      keyId: caller.keyId,
      personId: caller.personId,
      ...(caller.grantId ? { grantId: caller.grantId } : {}),
      ...(caller.displayId ? { displayId: caller.displayId } : {}),
    },
    object: e.object,
    ...(e.previous !== undefined ? { previous: e.previous } : {}),
  }));
}

/** Adds what a decision writes to the batch. */
export function addToBatch(batch: Batch, decision: Decision<unknown>, log: ChangeRecord[]): void {
  if (decision.family) batch.family = decision.family;
  if (decision.settlesQueuedUpdate !== undefined)
    batch.settlesQueuedUpdate = decision.settlesQueuedUpdate;
  batch.records.push(...decision.changes);
  batch.log.push(...log);
  if (decision.indexes) batch.indexes.push(...decision.indexes);
  if (decision.agenda) batch.agenda.push(...decision.agenda);
}
