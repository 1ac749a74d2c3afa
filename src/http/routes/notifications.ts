/**
 * Notifications: send one, list recent ones, preferences (docs/notifications.md).
 *
 * Sending: the record and its deliveries are committed first (in_app is delivered by that,
 * sends that cannot be made are suppressed with their reason); then the transports are called
 * and their answers recorded; the answer counts both. A crash in between leaves the pending
 * sends to the next start.
 */
import { route, defineRoutes, type FamilyHandle, type RestServices } from '../route.js';
import type { Caller } from '../../domain/shared/state.js';
import { countOf, notificationView } from '../../domain/notifications/compose.js';
import { decideSetPreference, preferencesOf } from '../../domain/notifications/preferences.js';
import { decideManualNotification, listNotifications } from '../../domain/notifications/manual.js';
import type { NotificationRecord } from '../../domain/notifications/types.js';
import {
  LIST_RESPONSE,
  ListNotificationsQuery,
  PREFERENCES_RESPONSE,
  SEND_RESPONSE,
  SendBody,
  SetPreferenceBody,
} from './notifications.schema.js';

const tags = ['Notifications'];

function sendAnswer(r: NotificationRecord) {
  return {
    ok: true,
    delivered: countOf(r, 'delivered'),
    suppressed: countOf(r, 'suppressed'),
    notification: notificationView(r),
  };
}

async function send(body: SendBody, family: FamilyHandle, services: RestServices, caller: Caller) {
  const first = await family.execute(
    (s, ctx) => decideManualNotification(s, body, services.notifier.transports, ctx),
    (r) => sendAnswer(r),
  );
  if (first.notification.pending === 0) return first;
  const actor = await services.registry.get(family.info);
  const settled = await services.notifier.deliver(actor, first.notification.id, {
    ref: caller,
    // The settled answer replaces the first one as the Idempotency-Key's kept answer.
    settle: async (command) => {
      let record: NotificationRecord | null = null;
      await family.execute(command, (r) => {
        record = r;
        return r ? sendAnswer(r) : first;
      });
      return record;
    },
  });
  return settled ? sendAnswer(settled) : first;
}

export default defineRoutes([
  route({
    method: 'get',
    path: '/notifications',
    tags,
    query: ListNotificationsQuery,
    summary: 'Recent notifications',
    description:
      'Newest first, at most 30 days back (`sinceMinutes` 1..43200 narrows it); `triggerId` keeps those of one routine, check or tag. Each carries its deliveries: channel, recipient, status and the reason of every suppressed send.',
    response: LIST_RESPONSE,
    handler: ({ query, family, services }) =>
      family.read((state) => {
        const page = listNotifications(state, query, services.now());
        return { ok: true, ...page };
      }),
  }),
  route({
    method: 'post',
    path: '/notifications',
    tags,
    status: 201,
    body: SendBody,
    summary: 'Send a notification',
    description:
      "Goes to the channels named (default `[in_app]`): in_app once (the family's feed), push once (the family's ntfy topic), email and sms to every person with an address. Preferences do not apply to these. `delivered` counts sends that succeeded, `suppressed` those not made (not configured, nobody with an address, failed), with the reason on the notification. Logs notification.sent.",
    response: SEND_RESPONSE,
    handler: ({ body, family, services, caller }) => send(body, family, services, caller),
  }),
  route({
    method: 'get',
    path: '/notification-preferences',
    tags,
    scope: 'admin',
    summary: 'Notification preferences',
    description:
      "Channel (email, push) × kind (reminder, coverage_alert, follow_up_nudge, digest, intake_update) → enabled; all true by default. They govern the service's own notifications.",
    response: PREFERENCES_RESPONSE,
    handler: ({ family }) =>
      family.read((state) => ({ ok: true, preferences: preferencesOf(state) })),
  }),
  route({
    method: 'post',
    path: '/notification-preferences',
    tags,
    scope: 'admin',
    body: SetPreferenceBody,
    summary: 'Change a notification preference',
    description:
      'Sets one switch and answers the whole table. Logs notification_preference.updated when it changes.',
    response: PREFERENCES_RESPONSE,
    handler: ({ body, family }) =>
      family.execute(
        (state, ctx) => decideSetPreference(state, body, ctx),
        (preferences) => ({ ok: true, preferences }),
      ),
  }),
]);
