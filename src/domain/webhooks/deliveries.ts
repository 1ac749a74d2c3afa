/**
 * Deliveries as decisions (docs/webhooks.md): the answers of a window are recorded in one
 * decision (history, usage, stats once per destination) with retry jobs put for failed first
 * attempts, jobs removed or moved to their next retry, deliveries stuck behind a hanging receiver
 * put as leased jobs, and the outbox checkpoint moved past the records whose deliveries all
 * settled; a due job is leased before it is sent; a 410 or 5 days of failures disable the
 * destination. Time, ids and the jitter come in from the edge. Who gets a record and a job's
 * lease are in jobs.ts.
 */
import { householdNotice } from '../notifications/compose.js';
import type {
  AgendaChange,
  CommandContext,
  Decision,
  FamilyState,
  RecordChange,
} from '../shared/state.js';
import { destinationView, dropJobs } from './destinations.js';
import { recordUsage } from './usage.js';
import { liveJob, outboxCheckpoint } from './jobs.js';
import {
  ATTEMPTS,
  DELIVER_KIND,
  DESTINATIONS,
  FAILING_DISABLE_MS,
  HISTORY_SIZE,
  JITTER,
  MAX_RETRY_AFTER_MS,
  OUTBOX,
  OUTBOX_ID,
  STATS,
  jobIdOf,
  type AttemptRecord,
  type AttemptStatus,
  type DeliveryJob,
  type DeliveryJobData,
  type DestinationRecord,
  type DestinationStats,
  type DisabledReason,
  type OutboxCheckpoint,
} from './types.js';

/** What one attempt came to, as the sender saw it. */
export interface AttemptOutcome {
  destinationId: string;
  deliveryId: string;
  eventId: string;
  type: string;
  /** 1 for the first attempt. */
  attempt: number;
  at: string;
  ok: boolean;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  /** The receiver's Retry-After (429/503), in ms. */
  retryAfterMs: number | null;
  /** A test delivery: recorded, but it neither retries nor disables. */
  test?: boolean;
  /**
   * The job and the lease the attempt was made under (a retry, or a delivery moved to the agenda).
   */
  jobId?: string;
  boot?: string;
  /**
   * The change-log sequence number when the attempt was made straight from the log, with no job
   * behind it (the outbox's first attempt): a failure then puts the retry job.
   */
  logSeq?: number;
}

export interface OutcomeResult {
  status: AttemptStatus;
  nextAttemptAt: string | null;
  disabled: DisabledReason | null;
}

/**
 * Records an attempt: a history entry (the ring keeps the last 100), usage counters, the failure
 * streak; then the job — removed after a success or the last retry, moved to the next retry
 * (`scheduleSeconds[attempt - 1]`, plus up to 10 % jitter, at least the receiver's Retry-After)
 * otherwise. A 410, or a failure while every attempt has failed for 5 days, disables the
 * destination and drops its pending deliveries; the `webhook_destination.updated` record then
 * carries `enabled: false` with the `disabledReason`, which is how the household hears of it.
 * `jitter` is a number in [0, 1) from the edge.
 */
/** The host of a destination URL, for texts (the full URL may hold a secret path). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the receiver';
  }
}

export function decideOutcome(
  state: FamilyState,
  o: AttemptOutcome,
  scheduleSeconds: readonly number[],
  jitter: number,
  ctx: CommandContext,
): Decision<OutcomeResult> {
  const d = decideOutcomes(state, { outcomes: [{ ...o, jitter }] }, scheduleSeconds, ctx);
  return { ...d, result: d.result[0] };
}

/** A window's worth of a family's delivery bookkeeping, recorded in one decision. */
export interface OutcomeBatch {
  /** In the order the answers came in; `jitter` is a number in [0, 1) from the edge. */
  outcomes: readonly (AttemptOutcome & { jitter: number })[];
  /**
   * Deliveries read from the log that wait too long in this process (a receiver that hangs):
   * put as jobs leased to this process, so that the checkpoint may move past their records.
   */
  spills?: readonly DeliveryJob[];
  /** Where the outbox checkpoint may move (every delivery of the records up to it settled). */
  checkpoint?: number;
}

/** What one decision of many outcomes builds up as it goes through them. */
class OutcomeDraft {
  readonly dests = new Map<string, DestinationRecord>();
  readonly statsOf = new Map<string, DestinationStats>();
  /** Jobs as this decision leaves them (null: removed), over the family's agenda. */
  readonly jobs = new Map<string, DeliveryJob | null>();
  readonly changes: RecordChange[] = [];
  readonly agenda: AgendaChange[] = [];
  readonly events: Decision<unknown>['events'] = [];
  readonly results: OutcomeResult[] = [];

  constructor(
    readonly state: FamilyState,
    readonly ctx: CommandContext,
  ) {}

  destination(id: string): DestinationRecord | undefined {
    return this.dests.get(id) ?? this.state.get<DestinationRecord>(DESTINATIONS, id);
  }

  jobOf(id: string): DeliveryJob | undefined {
    return this.jobs.has(id) ? (this.jobs.get(id) ?? undefined) : liveJob(this.state, id);
  }

  put(job: DeliveryJob): void {
    this.jobs.set(job.id, job);
    this.agenda.push({ put: job });
  }

  remove(id: string): void {
    if (!this.jobOf(id)) return;
    this.jobs.set(id, null);
    this.agenda.push({ remove: id });
  }

  /** The destination's stats as this decision has them so far (written once, at the end). */
  statsFor(d: DestinationRecord): DestinationStats {
    let stats = this.statsOf.get(d.id);
    if (stats) return stats;
    const old = this.state.get<DestinationStats>(STATS, d.id);
    stats = old
      ? { ...old }
      : {
          destinationId: d.id,
          attempts: 0,
          failingSince: null,
          lastSuccessAt: null,
          hours: [],
          days: [],
        };
    this.statsOf.set(d.id, stats);
    return stats;
  }
}

type Outcome = AttemptOutcome & { jitter: number };

/** The job an attempt was made under, and whether the attempt still holds its lease. */
function heldJob(
  draft: OutcomeDraft,
  o: Outcome,
): { job: DeliveryJob | undefined; holds: boolean } {
  const job = o.jobId ? draft.jobOf(o.jobId) : undefined;
  const holds = !!job && job.data.attempt === o.attempt - 1 && job.data.lease?.boot === o.boot;
  return { job, holds };
}

/** A failed attempt's next try: the job moved on (or put, for a first attempt from the log). */
function retry(
  draft: OutcomeDraft,
  o: Outcome,
  d: DestinationRecord,
  scheduleSeconds: readonly number[],
): string {
  const { job, holds } = heldJob(draft, o);
  const planned =
    scheduleSeconds[o.attempt - 1] * 1000 * (1 + JITTER * Math.min(Math.max(o.jitter, 0), 0.999));
  const delay = Math.max(planned, Math.min(o.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
  const dueAt = draft.ctx.now.getTime() + Math.round(delay);
  if (holds && job) {
    draft.put({ ...job, dueAt, data: { ...job.data, attempt: o.attempt, lease: null } });
  } else {
    draft.put({
      id: jobIdOf(d.id, o.eventId),
      kind: DELIVER_KIND,
      dueAt,
      data: {
        destinationId: d.id,
        deliveryId: o.deliveryId,
        eventId: o.eventId,
        seq: o.logSeq!,
        type: o.type as DeliveryJobData['type'],
        attempt: o.attempt,
        lease: null,
      },
    });
  }
  return new Date(dueAt).toISOString();
}

/** What an attempt's answer makes of it: its status, its next try, a reason to disable. */
function settle(
  draft: OutcomeDraft,
  o: Outcome,
  d: DestinationRecord,
  stats: DestinationStats,
  scheduleSeconds: readonly number[],
): OutcomeResult {
  const { job, holds } = heldJob(draft, o);
  if (o.ok) {
    if (!o.test) stats.failingSince = null;
    stats.lastSuccessAt = o.at;
    if (holds && job) draft.remove(job.id);
    return { status: 'succeeded', nextAttemptAt: null, disabled: null };
  }
  if (o.test) return { status: 'failed', nextAttemptAt: null, disabled: null };
  stats.failingSince ??= o.at;
  // Only an enabled destination is disabled (once: later answers of sends already in flight
  // are recorded, not logged again).
  let disabled: DisabledReason | null = null;
  if (d.enabled) {
    if (o.responseStatus === 410) disabled = 'receiver_gone';
    else if (draft.ctx.now.getTime() - Date.parse(stats.failingSince) >= FAILING_DISABLE_MS)
      disabled = 'failing';
  }
  // Disabling drops the destination's jobs, this one last (disable).
  if (disabled) return { status: 'failed', nextAttemptAt: null, disabled };
  const fromLog = o.logSeq !== undefined && !o.jobId;
  if (o.attempt <= scheduleSeconds.length && (holds || (fromLog && d.enabled)))
    return { status: 'retrying', nextAttemptAt: retry(draft, o, d, scheduleSeconds), disabled };
  if (holds && job) draft.remove(job.id);
  return { status: 'failed', nextAttemptAt: null, disabled };
}

/**
 * Turns the destination off and drops its pending deliveries; the household hears of it in
 * the app: nothing else would tell them their automation stopped.
 */
function disable(
  draft: OutcomeDraft,
  d: DestinationRecord,
  disabled: DisabledReason,
  heldJobId: string | undefined,
): void {
  const { state, ctx } = draft;
  const next: DestinationRecord = {
    ...d,
    enabled: false,
    disabledReason: disabled,
    disabledAt: ctx.now.toISOString(),
    updatedAt: ctx.now.toISOString(),
  };
  draft.dests.set(d.id, next);
  draft.changes.push({ table: DESTINATIONS, id: d.id, value: next });
  draft.events.push({
    type: 'webhook_destination.updated',
    object: destinationView(next),
    previous: destinationView(d),
  });
  for (const a of dropJobs(state, d.id)) if ('remove' in a) draft.remove(a.remove);
  for (const [id, j] of draft.jobs) if (j && j.data.destinationId === d.id) draft.remove(id);
  if (heldJobId) draft.remove(heldJobId);
  const host = hostOf(d.url);
  const notice = householdNotice(state, ctx, {
    text: (voice) => ({
      title: voice.say('notifications', 'webhookOffTitle', { name: d.name }),
      body: voice.say('notifications', disabled === 'failing' ? 'webhookFailing' : 'webhookGone', {
        host,
      }),
    }),
  });
  draft.changes.push(...notice.changes);
  draft.events.push(...notice.events);
  draft.agenda.push(...notice.agenda);
}

/** One attempt: its status, its job, maybe the destination off, its history entry, usage. */
function recordOne(draft: OutcomeDraft, o: Outcome, scheduleSeconds: readonly number[]): void {
  const d = draft.destination(o.destinationId);
  if (!d) {
    draft.results.push({
      status: o.ok ? 'succeeded' : 'failed',
      nextAttemptAt: null,
      disabled: null,
    });
    return;
  }
  const stats = draft.statsFor(d);
  const { job, holds } = heldJob(draft, o);
  const result = settle(draft, o, d, stats, scheduleSeconds);
  if (result.disabled) disable(draft, d, result.disabled, holds ? job?.id : undefined);
  const entry: AttemptRecord = {
    destinationId: d.id,
    n: stats.attempts,
    deliveryId: o.deliveryId,
    eventId: o.eventId,
    type: o.type,
    attempt: o.attempt,
    at: o.at,
    status: result.status,
    responseStatus: o.responseStatus,
    durationMs: o.durationMs,
    error: o.error,
    nextAttemptAt: result.nextAttemptAt,
  };
  draft.changes.push({
    table: ATTEMPTS,
    id: `${d.id}:${stats.attempts % HISTORY_SIZE}`,
    value: entry,
  });
  stats.attempts += 1;
  recordUsage(stats, draft.ctx.now.getTime(), o.ok);
  draft.results.push(result);
}

/**
 * Records many attempts at once (see the steps of `decideOutcome` above, applied in order):
 * history entries in answer order, usage counted exactly, each touched destination's stats
 * written once, retry jobs put for failed first attempts made from the log, spilled deliveries
 * put as leased jobs, and the checkpoint moved — all in one transaction.
 */
export function decideOutcomes(
  state: FamilyState,
  batch: OutcomeBatch,
  scheduleSeconds: readonly number[],
  ctx: CommandContext,
): Decision<OutcomeResult[]> {
  const draft = new OutcomeDraft(state, ctx);
  for (const o of batch.outcomes) recordOne(draft, o, scheduleSeconds);
  for (const [id, stats] of draft.statsOf) draft.changes.push({ table: STATS, id, value: stats });

  for (const spill of batch.spills ?? []) {
    const d = draft.destination(spill.data.destinationId);
    if (!d || !d.enabled || draft.jobOf(spill.id)) continue;
    draft.put(spill);
  }

  if (
    batch.checkpoint !== undefined &&
    batch.checkpoint > outboxCheckpoint(state) &&
    state.table(DESTINATIONS).size > 0
  ) {
    draft.changes.push({
      table: OUTBOX,
      id: OUTBOX_ID,
      value: { seq: batch.checkpoint } satisfies OutboxCheckpoint,
    });
  }
  const { results, changes, events, agenda } = draft;
  return { result: results, changes, events, agenda };
}
