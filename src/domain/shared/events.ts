/**
 * The webhook event types (exact strings; the served OpenAPI document lists them): clients
 * filter on them, so they never change; the change log records these.
 */
export const EVENT_TYPES = [
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'tracker.entry.created',
  'tracker.entry.updated',
  'tracker.entry.deleted',
  'calendar.event.created',
  'calendar.event.updated',
  'calendar.event.deleted',
  'calendar.check.created',
  'external_calendar.created',
  'external_calendar.updated',
  'external_calendar.refresh_requested',
  'external_calendar.deleted',
  'calendar_share.created',
  'calendar_share.deleted',
  'plan.created',
  'plan.updated',
  'plan.deleted',
  'plan.event.linked',
  'plan.event.unlinked',
  'plan.note.created',
  'plan.note.updated',
  'plan.note.deleted',
  'plan.poll.created',
  'plan.poll.deleted',
  'plan.poll.settled',
  'plan.poll.reopened',
  'plan.poll.vote.cast',
  'plan.share.enabled',
  'plan.share.disabled',
  'person.created',
  'person.updated',
  'person.deleted',
  'notification.sent',
  'notification_preference.updated',
  'notification_routine.created',
  'notification_routine.updated',
  'notification_routine.deleted',
  'webhook_destination.created',
  'webhook_destination.updated',
  'webhook_destination.deleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Types the daemon logs beyond the contract's: one list, read by the change log's type, the
 * changes endpoint's schema and the OpenAPI document. They are not offered to webhook
 * destinations (docs/webhooks.md, "Event types"): the contract's receivers do not know them.
 */
export const EXTENSION_EVENT_TYPES = [
  'family.updated',
  'oauth_grant.created',
  'oauth_grant.revoked',
  // A family display link made or turned off (docs/display.md); the object never holds its token.
  'display.created',
  'display.updated',
  'display.deleted',
] as const;
export type ExtensionEventType = (typeof EXTENSION_EVENT_TYPES)[number];

/** Every type a change-log record may have. */
export const LOGGED_EVENT_TYPES = [...EVENT_TYPES, ...EXTENSION_EVENT_TYPES] as const;
export type LoggedEventType = (typeof LOGGED_EVENT_TYPES)[number];
