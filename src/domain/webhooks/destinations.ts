/**
 * Webhook destinations (docs/webhooks.md): create (the secret is made at the edge and shown once),
 * update (name, url, event types, enabled, secret rotation), delete. Every change logs a
 * `webhook_destination.*` record carrying the destination as the API shows it — never a secret.
 */
import { Conflict, NotFound } from '../shared/errors.js';
import {
  applyPatch,
  cleanSent,
  createFields,
  viewFields,
  type CreateOf,
  type PatchOf,
} from '../shared/record.js';
import type {
  AgendaChange,
  AgendaJob,
  CommandContext,
  Decision,
  FamilyState,
  RecordChange,
} from '../shared/state.js';
import { AGENDA_TABLE } from '../shared/agenda.js';
import {
  ATTEMPTS,
  DELIVER_KIND,
  DESTINATION_FIELDS,
  DESTINATIONS,
  HISTORY_SIZE,
  MAX_DESTINATIONS,
  OUTBOX,
  OUTBOX_ID,
  ROTATION_GRACE_MS,
  STATS,
  type DeliveryJobData,
  type DestinationRecord,
  type DestinationStats,
  type DestinationView,
  type OutboxCheckpoint,
} from './types.js';
import { noChange } from '../shared/decision.js';

export function destinationView(d: DestinationRecord): DestinationView {
  return viewFields(DESTINATION_FIELDS, d) as DestinationView;
}

/** Destinations, oldest first. */
export function listDestinations(state: FamilyState): DestinationRecord[] {
  return Array.from(state.table<DestinationRecord>(DESTINATIONS).values());
}

export function getDestination(state: FamilyState, id: string): DestinationRecord {
  const d = state.get<DestinationRecord>(DESTINATIONS, id);
  if (!d) throw new NotFound(`No webhook destination ${id} in this family`);
  return d;
}

export function hasEnabledDestination(state: FamilyState): boolean {
  for (const d of state.table<DestinationRecord>(DESTINATIONS).values()) if (d.enabled) return true;
  return false;
}

/** The secrets that sign now: the current one, and the previous one within 24 h of a rotation. */
export function signingSecrets(d: DestinationRecord, now: Date): string[] {
  const out = [d.secret];
  if (
    d.previousSecret &&
    d.previousSecretExpiresAt &&
    now.getTime() < Date.parse(d.previousSecretExpiresAt)
  )
    out.push(d.previousSecret);
  return out;
}

/**
 * The sequence number of a command's `i`-th event: the actor tells the last number decided
 * before the command.
 */
const seqOfEvent = (ctx: CommandContext, i = 0) => (ctx.lastSeq ?? 0) + 1 + i;

/**
 * When no destination was enabled, the outbox stood still (nothing was owed to anyone): the
 * checkpoint jumps to this decision's record so that it does not walk the history it skipped.
 */
function checkpointJump(state: FamilyState, exceptId: string, seq: number): RecordChange[] {
  for (const d of state.table<DestinationRecord>(DESTINATIONS).values())
    if (d.id !== exceptId && d.enabled) return [];
  const at = state.get<OutboxCheckpoint>(OUTBOX, OUTBOX_ID)?.seq ?? 0;
  return at >= seq
    ? []
    : [{ table: OUTBOX, id: OUTBOX_ID, value: { seq } satisfies OutboxCheckpoint }];
}

/** Removes the destination's pending deliveries (all, or those `keep` refuses). */
export function dropJobs(
  state: FamilyState,
  destinationId: string,
  keep: (d: DeliveryJobData) => boolean = () => false,
): AgendaChange[] {
  const out: AgendaChange[] = [];
  for (const job of state.table<AgendaJob>(AGENDA_TABLE).values()) {
    if (job.kind !== DELIVER_KIND) continue;
    const data = job.data;
    if (data.destinationId === destinationId && !keep(data)) out.push({ remove: job.id });
  }
  return out;
}

export type CreateDestinationInput = CreateOf<typeof DESTINATION_FIELDS>;

/** Creates a destination for a secret the caller made (`whsec_…`). */
export function decideCreateDestination(
  state: FamilyState,
  input: CreateDestinationInput,
  secret: string,
  ctx: CommandContext,
): Decision<DestinationRecord> {
  const sent = cleanSent(DESTINATION_FIELDS, input);
  if (state.table(DESTINATIONS).size >= MAX_DESTINATIONS) {
    throw new Conflict(
      `A family has at most ${MAX_DESTINATIONS} webhook destinations; delete one first`,
    );
  }
  const at = ctx.now.toISOString();
  const enabled = sent.enabled ?? true;
  const d = createFields(DESTINATION_FIELDS, sent, {
    id: ctx.newId('whd'),
    disabledReason: enabled ? null : 'manual',
    disabledAt: enabled ? null : at,
    secret,
    sinceSeq: seqOfEvent(ctx),
    createdAt: at,
    updatedAt: at,
  });
  return {
    result: d,
    changes: [
      { table: DESTINATIONS, id: d.id, value: d },
      ...(enabled ? checkpointJump(state, d.id, d.sinceSeq) : []),
    ],
    events: [{ type: 'webhook_destination.created', object: destinationView(d) }],
  };
}

export type UpdateDestinationInput = PatchOf<typeof DESTINATION_FIELDS> & {
  rotateSecret?: boolean;
};

export interface UpdateResult {
  destination: DestinationRecord;
  rotated: boolean;
}

/**
 * Changes a destination. Rotating keeps the old secret signing for 24 h (a second rotation
 * within that time drops the oldest). Disabling removes its pending deliveries; re-enabling
 * delivers what is logged from then on, not what happened while it was off. Narrowing the
 * event types removes pending deliveries of the types dropped. A change that changes nothing
 * writes and logs nothing.
 */
export function decideUpdateDestination(
  state: FamilyState,
  id: string,
  input: UpdateDestinationInput,
  newSecret: string | null,
  ctx: CommandContext,
): Decision<UpdateResult> {
  const old = getDestination(state, id);
  const at = ctx.now.toISOString();
  // The fields as sent; whether anything changed is told by the view below (with the secrets).
  const { next } = applyPatch(DESTINATION_FIELDS, old, input);
  const rotated = input.rotateSecret === true;
  if (rotated) {
    if (!newSecret) throw new Error('rotating needs a new secret');
    next.previousSecret = old.secret;
    next.previousSecretExpiresAt = new Date(ctx.now.getTime() + ROTATION_GRACE_MS).toISOString();
    next.secret = newSecret;
    next.secretRotatedAt = at;
  } else if (
    next.previousSecretExpiresAt &&
    ctx.now.getTime() >= Date.parse(next.previousSecretExpiresAt)
  ) {
    next.previousSecret = null;
    next.previousSecretExpiresAt = null;
  }
  const changes: RecordChange[] = [];
  const agenda: AgendaChange[] = [];
  if (input.enabled !== undefined && input.enabled !== old.enabled) {
    if (input.enabled) {
      next.disabledReason = null;
      next.disabledAt = null;
      next.sinceSeq = seqOfEvent(ctx);
      changes.push(...checkpointJump(state, id, next.sinceSeq));
      // A fresh start: days of failure before the pause do not count towards disabling it again.
      const stats = state.get<DestinationStats>(STATS, id);
      if (stats?.failingSince)
        changes.push({ table: STATS, id, value: { ...stats, failingSince: null } });
    } else {
      next.disabledReason = 'manual';
      next.disabledAt = at;
      agenda.push(...dropJobs(state, id));
    }
  }
  if (next.enabled && input.eventTypes !== undefined) {
    const types = new Set(next.eventTypes);
    agenda.push(...dropJobs(state, id, (d) => types.has(d.type)));
  }
  const viewOld = destinationView(old);
  const viewNew = destinationView({ ...next, updatedAt: old.updatedAt });
  const same = !rotated && JSON.stringify(viewOld) === JSON.stringify(viewNew);
  if (same) {
    // Only an expired old secret may have gone: keep that quiet tidy-up out of the log.
    if (next.previousSecret !== old.previousSecret) {
      return {
        result: { destination: next, rotated },
        changes: [{ table: DESTINATIONS, id, value: next }],
        events: [],
      };
    }
    return noChange({ destination: old, rotated });
  }
  next.updatedAt = at;
  return {
    result: { destination: next, rotated },
    changes: [{ table: DESTINATIONS, id, value: next }, ...changes],
    events: [
      { type: 'webhook_destination.updated', object: destinationView(next), previous: viewOld },
    ],
    agenda,
  };
}

/** Deletes a destination with its history, usage and pending deliveries. */
export function decideDeleteDestination(
  state: FamilyState,
  id: string,
  _ctx: CommandContext,
): Decision<DestinationRecord> {
  const d = getDestination(state, id);
  const changes: RecordChange[] = [{ table: DESTINATIONS, id, value: null }];
  if (state.get(STATS, id)) changes.push({ table: STATS, id, value: null });
  for (let slot = 0; slot < HISTORY_SIZE; slot++) {
    const key = `${id}:${slot}`;
    if (state.get(ATTEMPTS, key)) changes.push({ table: ATTEMPTS, id: key, value: null });
  }
  // The last destination gone: the outbox has nothing to follow (and the daemon nothing to
  // look at for this family when it starts).
  if (state.table(DESTINATIONS).size === 1 && state.get(OUTBOX, OUTBOX_ID))
    changes.push({ table: OUTBOX, id: OUTBOX_ID, value: null });
  return {
    result: d,
    changes,
    events: [{ type: 'webhook_destination.deleted', object: destinationView(d) }],
    agenda: dropJobs(state, id),
  };
}

/** How far the webhook outbox has read this family's change log (its checkpoint; 0 before any). */
export function webhookCheckpoint(state: FamilyState): number {
  return state.get<OutboxCheckpoint>(OUTBOX, OUTBOX_ID)?.seq ?? 0;
}
