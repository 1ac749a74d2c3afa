/** Owed delivery jobs put the durable way, for the deciders' unit tests. */
import type { CommandContext, Decision, FamilyState } from '../../src/domain/shared/state.js';
import { outboxCheckpoint, wants, type LogPointer } from '../../src/domain/webhooks/jobs.js';
import {
  DELIVER_KIND,
  DESTINATIONS,
  OUTBOX,
  OUTBOX_ID,
  jobIdOf,
  type DeliveryJob,
  type DestinationRecord,
  type OutboxCheckpoint,
} from '../../src/domain/webhooks/types.js';
import { noChange } from '../../src/domain/shared/decision.js';

/**
 * Puts one delivery job per (record × enabled destination subscribed to its type and created
 * before it), leased to the sender of `boot` (it sends them at once after the commit), and moves
 * the checkpoint to the last record. Records at or below the checkpoint are skipped, so two
 * passes racing over the same records enqueue them once.
 *
 * The durable way to owe deliveries, one job each: the daemon no longer takes it (first attempts
 * go from memory, and `decideOutcomes` records them with the checkpoint), so it lives here, as
 * the rule the deciders' unit tests build owed jobs with.
 */
export function decideEnqueue(
  state: FamilyState,
  records: readonly LogPointer[],
  lease: { boot: string; until: number },
  ctx: CommandContext,
): Decision<DeliveryJob[]> {
  const from = outboxCheckpoint(state);
  const fresh = records.filter((r) => r.seq > from);
  if (!fresh.length) return noChange([]);
  const destinations = Array.from(state.table<DestinationRecord>(DESTINATIONS).values());
  const jobs: DeliveryJob[] = [];
  for (const r of fresh) {
    for (const d of destinations) {
      if (!wants(d, r)) continue;
      jobs.push({
        id: jobIdOf(d.id, r.id),
        kind: DELIVER_KIND,
        dueAt: lease.until,
        data: {
          destinationId: d.id,
          deliveryId: ctx.newId('dlv'),
          eventId: r.id,
          seq: r.seq,
          type: r.type,
          attempt: 0,
          lease: { boot: lease.boot },
        },
      });
    }
  }
  return {
    result: jobs,
    changes: [
      {
        table: OUTBOX,
        id: OUTBOX_ID,
        value: { seq: fresh.at(-1)!.seq } satisfies OutboxCheckpoint,
      },
    ],
    events: [],
    agenda: jobs.map((put) => ({ put })),
  };
}
