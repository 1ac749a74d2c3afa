/**
 * Usage counters and delivery history of a destination, as the listing shows them.
 *
 * Usage is kept in hourly buckets for the last 24 hours and daily (UTC) buckets for the last
 * 30 days, pruned as they age, so a record stays small however many deliveries are made. The
 * "last 24 h" figure sums the current hour and the 23 before it; "last 30 days" the current
 * UTC day and the 29 before it.
 */
import type { FamilyState } from '../shared/state.js';
import {
  ATTEMPTS,
  HISTORY_SIZE,
  STATS,
  type AttemptRecord,
  type AttemptView,
  type DestinationStats,
  type UsageBucket,
  type UsageCounts,
  type UsageView,
} from './types.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function bump(buckets: UsageBucket[], start: number, ok: boolean, keepFrom: number): UsageBucket[] {
  const out = buckets.filter((b) => b[0] >= keepFrom && b[0] !== start);
  const cur = buckets.find((b) => b[0] === start) ?? [start, 0, 0, 0];
  out.push([start, cur[1] + 1, cur[2] + (ok ? 1 : 0), cur[3] + (ok ? 0 : 1)]);
  return out;
}

/** Counts one attempt at `nowMs` into the stats (which the caller owns: a fresh copy). */
export function recordUsage(stats: DestinationStats, nowMs: number, ok: boolean): void {
  const hour = Math.floor(nowMs / HOUR) * HOUR;
  const day = Math.floor(nowMs / DAY) * DAY;
  stats.hours = bump(stats.hours, hour, ok, hour - 23 * HOUR);
  stats.days = bump(stats.days, day, ok, day - 29 * DAY);
}

function sum(buckets: readonly UsageBucket[], from: number): UsageCounts {
  const out = { attempted: 0, succeeded: 0, failed: 0 };
  for (const b of buckets) {
    if (b[0] < from) continue;
    out.attempted += b[1];
    out.succeeded += b[2];
    out.failed += b[3];
  }
  return out;
}

export function usageOf(state: FamilyState, destinationId: string, now: Date): UsageView {
  const stats = state.get<DestinationStats>(STATS, destinationId);
  const t = now.getTime();
  const hour = Math.floor(t / HOUR) * HOUR;
  const day = Math.floor(t / DAY) * DAY;
  return {
    last24h: sum(stats?.hours ?? [], hour - 23 * HOUR),
    last30d: sum(stats?.days ?? [], day - 29 * DAY),
  };
}

/** The last 100 attempts, newest first. */
export function historyOf(state: FamilyState, destinationId: string): AttemptView[] {
  const stats = state.get<DestinationStats>(STATS, destinationId);
  if (!stats) return [];
  const out: AttemptView[] = [];
  for (let n = stats.attempts - 1; n >= Math.max(0, stats.attempts - HISTORY_SIZE); n--) {
    const r = state.get<AttemptRecord>(ATTEMPTS, `${destinationId}:${n % HISTORY_SIZE}`);
    if (!r || r.n !== n) continue;
    out.push({
      deliveryId: r.deliveryId,
      eventId: r.eventId,
      type: r.type,
      attempt: r.attempt,
      at: r.at,
      status: r.status,
      responseStatus: r.responseStatus,
      durationMs: r.durationMs,
      error: r.error,
      nextAttemptAt: r.nextAttemptAt,
    });
  }
  return out;
}
