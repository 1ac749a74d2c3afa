/**
 * Sending a notification through the API (`POST /notifications`, kind `manual`) and listing
 * recent ones (`GET /notifications`): newest first, at most 30 days back.
 */
import { Invalid } from '../shared/errors.js';
import { hasPrefix } from '../shared/ids.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { composeNotification, notificationView, type NotificationView } from './compose.js';
import {
  KEEP_MS,
  NOTIFICATIONS,
  type Channel,
  type NotificationRecord,
  type Transports,
} from './types.js';

export interface ManualNotificationInput {
  title: string;
  body?: string;
  channels?: Channel[];
  triggerId?: string;
}

/** The record with its deliveries decided; what is pending is sent once it is durable. */
export function decideManualNotification(
  state: FamilyState,
  input: ManualNotificationInput,
  transports: Transports,
  ctx: CommandContext,
): Decision<NotificationRecord> {
  const title = input.title.trim();
  if (!title) throw Invalid.at(['title'], 'must not be blank');
  const c = composeNotification(state, ctx, transports, {
    kind: 'manual',
    text: { title, body: input.body ?? '' },
    channels: input.channels ?? ['in_app'],
    ...(input.triggerId !== undefined ? { triggerId: input.triggerId } : {}),
  });
  return { result: c.record, changes: c.changes, events: c.events, agenda: c.agenda };
}

export interface NotificationQuery {
  sinceMinutes?: number;
  triggerId?: string;
  limit?: number;
  cursor?: string;
}
export interface NotificationPage {
  notifications: NotificationView[];
  nextCursor?: string;
}

/**
 * Newest first; `sinceMinutes` looks back that far (never further than 30 days, even before
 * the pruning job has removed older records); `cursor` is the id of the last one served.
 */
export function listNotifications(
  state: FamilyState,
  q: NotificationQuery,
  now: Date,
): NotificationPage {
  if (q.cursor !== undefined && !hasPrefix(q.cursor, 'ntf'))
    throw Invalid.at(['query', 'cursor'], 'is not a cursor this list gave out');
  const limit = q.limit ?? 20;
  const floor = now.getTime() - Math.min(KEEP_MS, (q.sinceMinutes ?? Infinity) * 60_000);
  const all = state.derived('notifications:newest', () =>
    state.newestFirst<NotificationRecord>(NOTIFICATIONS),
  );
  const out: NotificationView[] = [];
  let more = false;
  for (const r of all) {
    if (q.cursor !== undefined && r.id >= q.cursor) continue;
    if (Date.parse(r.createdAt) < floor) break;
    if (q.triggerId !== undefined && r.triggerId !== q.triggerId) continue;
    if (out.length === limit) {
      more = true;
      break;
    }
    out.push(notificationView(r));
  }
  return { notifications: out, ...(more ? { nextCursor: out[out.length - 1].id } : {}) };
}
