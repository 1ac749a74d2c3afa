/**
 * The webhook event types (exact strings; the served OpenAPI document lists them): clients
 * filter on them, so they never change; the change log records these.
 */
export const EVENT_TYPES = [
  'collection.created', 'collection.updated', 'collection.deleted',
  'tracker.entry.created', 'tracker.entry.updated', 'tracker.entry.deleted',
  'calendar.event.created', 'calendar.event.updated', 'calendar.event.deleted', 'calendar.check.created',
  'external_calendar.created', 'external_calendar.updated', 'external_calendar.refresh_requested', 'external_calendar.deleted',
  'calendar_share.created', 'calendar_share.deleted',
  'plan.created', 'plan.updated', 'plan.deleted', 'plan.event.linked', 'plan.event.unlinked',
  'plan.note.created', 'plan.note.updated', 'plan.note.deleted',
  'plan.poll.created', 'plan.poll.deleted', 'plan.poll.settled', 'plan.poll.reopened', 'plan.poll.vote.cast',
  'plan.share.enabled', 'plan.share.disabled',
  'person.created', 'person.updated', 'person.deleted',
  'notification.sent', 'notification_preference.updated',
  'notification_routine.created', 'notification_routine.updated', 'notification_routine.deleted',
  'webhook_destination.created', 'webhook_destination.updated', 'webhook_destination.deleted',
] as const;
export type EventType = typeof EVENT_TYPES[number];
