/**
 * Settling a notification's pending deliveries around the transports (docs/notifications.md, "at
 * most once"): the transports are called only after the record is durable, in three steps:
 *   1. claim — pending deliveries are marked `attempted` in their own commit, just before the
 *      transports are called;
 *   2. send — outside any command;
 *   3. settle — each one becomes delivered or suppressed (failed: reason), the send job is
 *      removed and `notification.sent` is logged with the outcome, in one commit.
 * A delivery found `attempted` but still pending after a restart was interrupted in step 2:
 * it may have arrived, so it is not sent again (at most once) but suppressed with that reason.
 */
import { AGENDA_TABLE } from '../shared/agenda.js';
import type { AgendaChange, Decision, FamilyState } from '../shared/state.js';
import { notificationView } from './compose.js';
import { jobId, NOTIFICATIONS, type Delivery, type NotificationRecord } from './types.js';
import { noChange } from '../shared/decision.js';

export const INTERRUPTED =
  'interrupted: the daemon stopped while sending; it may or may not have arrived';
export const MISSED = 'missed: the daemon was down past scheduler.catchUpMinutes';

export interface Claim {
  record: NotificationRecord;
  /** Indexes (into record.deliveries) to hand to the transports now. */
  toSend: number[];
}

function removeSendJob(state: FamilyState, id: string): AgendaChange[] {
  return state.get(AGENDA_TABLE, jobId.send(id)) ? [{ remove: jobId.send(id) }] : [];
}

/** Writes the record; when nothing is pending any more, also logs it and removes its send job. */
function write(state: FamilyState, record: NotificationRecord): Decision<NotificationRecord> {
  const settled = !record.deliveries.some((d) => d.status === 'pending');
  return {
    result: record,
    changes: [{ table: NOTIFICATIONS, id: record.id, value: record }],
    events: settled ? [{ type: 'notification.sent', object: notificationView(record) }] : [],
    agenda: settled ? removeSendJob(state, record.id) : [],
  };
}

/**
 * Step 1. `missed`: the send job was found later than catchUpMinutes, so what is pending is
 * suppressed instead of sent. A record that is gone (pruned) only loses its job.
 */
export function decideClaim(
  state: FamilyState,
  notificationId: string,
  missed: boolean,
): Decision<Claim | null> {
  const record = state.get<NotificationRecord>(NOTIFICATIONS, notificationId);
  if (!record) return noChange(null, removeSendJob(state, notificationId));
  const toSend: number[] = [];
  let changed = false;
  const deliveries = record.deliveries.map((d, i): Delivery => {
    if (d.status !== 'pending') return d;
    changed = true;
    if (d.attempted) return { ...withoutAttempt(d), status: 'suppressed', reason: INTERRUPTED };
    if (missed) return { ...d, status: 'suppressed', reason: MISSED };
    toSend.push(i);
    return { ...d, attempted: true };
  });
  if (!changed) return noChange({ record, toSend }, removeSendJob(state, notificationId));
  const d = write(state, { ...record, deliveries });
  return { ...d, result: { record: d.result, toSend } };
}

export interface Outcome {
  index: number;
  ok: boolean;
  reason?: string;
}

/** Step 3: the transports' answers. */
export function decideSettle(
  state: FamilyState,
  notificationId: string,
  outcomes: readonly Outcome[],
): Decision<NotificationRecord | null> {
  const record = state.get<NotificationRecord>(NOTIFICATIONS, notificationId);
  if (!record) return noChange(null, removeSendJob(state, notificationId));
  const byIndex = new Map(outcomes.map((o) => [o.index, o]));
  const deliveries = record.deliveries.map((d, i): Delivery => {
    const o = byIndex.get(i);
    if (!o || d.status !== 'pending') return d;
    return o.ok
      ? { ...withoutAttempt(d), status: 'delivered' }
      : {
          ...withoutAttempt(d),
          status: 'suppressed',
          reason: `failed: ${o.reason ?? 'unknown error'}`,
        };
  });
  return write(state, { ...record, deliveries });
}

function withoutAttempt(d: Delivery): Delivery {
  const { attempted: _a, reason: _r, ...rest } = d;
  return rest;
}
