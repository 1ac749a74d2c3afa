/**
 * Records of the notifications area (docs/notifications.md). Every notification — sent through the
 * API or made by the service — is one record in `notifications` with one delivery per send: in_app
 * once, push once (the family's topic), email and sms once per recipient. A delivery that needs
 * a transport starts `pending` and is settled after the transport answered; everything not sent
 * is `suppressed` with its reason on the record.
 */
import { CHANNELS, REMINDER_MODES, type Channel, type ReminderMode } from '../calendar/types.js';

import { checkCron, checkTimeZone } from './cron.js';
import { S } from '../shared/schema.js';
import { field, timestamp, type RecordOf } from '../shared/record.js';

export { CHANNELS, type Channel };

export const NOTIFICATIONS = 'notifications';
export const PREFERENCES = 'notificationPreferences';
export const ROUTINES = 'notificationRoutines';
export const CHECKS = 'notificationChecks';
/** What has already fired once per occurrence (reminders, leave-by, coverage alerts). */
export const MARKS = 'notificationMarks';

/** How long notifications (and marks) are kept: 30 days (`sinceMinutes` ≤ 43,200). */
export const KEEP_MS = 30 * 24 * 3600_000;
export const SINCE_MINUTES_MAX = 43_200;

/** Channels the household can switch off per kind of service notification. */
export const PREFERENCE_CHANNELS = ['email', 'push'] as const;
export type PreferenceChannel = (typeof PREFERENCE_CHANNELS)[number];
export const PREFERENCE_KINDS = [
  'reminder',
  'coverage_alert',
  'follow_up_nudge',
  'digest',
  'intake_update',
] as const;
export type PreferenceKind = (typeof PREFERENCE_KINDS)[number];
export type Preferences = Record<PreferenceChannel, Record<PreferenceKind, boolean>>;

/** What made a notification: the API (`manual`) or one of the service's own reasons. */
export const NOTIFICATION_KINDS = [
  'manual',
  'reminder',
  'leave_by',
  'coverage_alert',
  'check',
  'routine',
  'notice',
  'intake_update',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type DeliveryStatus = 'pending' | 'delivered' | 'suppressed';

export interface Delivery {
  channel: Channel;
  /** The address sent to (email, phone); absent for in_app and push (the family's topic). */
  recipient?: string;
  personId?: string;
  status: DeliveryStatus;
  reason?: string;
  /** The locale of a send to a person whose own differs from the family's (`localized`). */
  locale?: string;
  /**
   * Set (in its own commit) just before the transport is called: a pending delivery with it
   * found after a restart may or may not have arrived, so it is not sent again.
   */
  attempted?: true;
}

export interface NotificationRecord {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** The locale of `title` and `body` (the family's when it was made); absent on older ones. */
  locale?: string;
  /** The text in each other locale a delivery is in (docs/i18n.md, "Notifications"). */
  localized?: Record<string, { title: string; body: string }>;
  channels: Channel[];
  triggerId?: string;
  eventId?: string;
  occurrenceDate?: string;
  createdAt: string;
  deliveries: Delivery[];
  /** The job was found later than scheduler.catchUpMinutes: recorded, nothing sent. */
  skipped?: true;
}

export const ROUTINE_INTENTS = ['briefing', 'reminder', 'digest'] as const;
export type RoutineIntent = (typeof ROUTINE_INTENTS)[number];
/**
 * A routine's text, like a reminder's: the saved words, or written at firing time from live data.
 */
export const ROUTINE_MODES = REMINDER_MODES;
export type RoutineMode = ReminderMode;

/** Bounds of a notification's text (routines, sends). */
export const TITLE_MAX = 200;
export const BODY_MAX = 4_000;
/** The channels a notification goes out on. */
export const channels = S.array(S.enums(CHANNELS), { min: 1, max: 8 });

const blankIsNone = (v: string): string | null => v.trim() || null;
const own = { create: 'never', patch: 'never', view: 'always' } as const;

/**
 * Every field of a routine, once (src/domain/shared/record.ts). Defaults: `0 7 * * *`, intent
 * briefing, mode plain, channels [in_app], enabled, the family's time zone (followed when it
 * changes: a routine's own `timezone` is null then, and the view shows the family's).
 */
export const ROUTINE_FIELDS = {
  /** The trigger id (trg_…). */
  id: field(S.string({ description: 'The trigger id (trg_…)' }), own),
  cron: field(
    S.string({
      min: 1,
      max: 100,
      description:
        'Cron pattern (five fields, or six with seconds; @daily and friends), in `timezone`',
    }),
    {
      create: 'optional',
      patch: 'value',
      default: '0 7 * * *',
      view: 'always',
      clean: (v) => (checkCron(v), v),
    },
  ),
  /** The routine's own zone, or null: it follows the family's (src/domain/family/settings.ts). */
  timezone: field(
    S.string({
      min: 1,
      max: 64,
      description:
        "IANA time zone; left out (or null on a change): the family's, following it when it changes",
    }),
    {
      create: 'optional',
      patch: 'value',
      nullable: 'patch',
      default: null,
      view: 'always',
      clean: (v) => checkTimeZone(v),
      response: {
        type: 'string',
        description: "The zone it runs in: its own, or the family's when it follows the family",
      },
    },
  ),
  intent: field(S.enums(ROUTINE_INTENTS), {
    create: 'optional',
    patch: 'value',
    default: 'briefing',
    view: 'always',
  }),
  mode: field(S.enums(ROUTINE_MODES), {
    create: 'optional',
    patch: 'value',
    default: 'plain',
    view: 'always',
  }),
  channels: field(channels, {
    create: 'optional',
    patch: 'value',
    default: ['in_app'],
    view: 'always',
    clean: (v) => [...new Set(v)],
  }),
  isEnabled: field(S.boolean(), {
    create: 'optional',
    patch: 'value',
    default: true,
    view: 'always',
  }),
  title: field(
    S.string({
      max: TITLE_MAX,
      description:
        "Extension: the notification's title (default by intent: Morning briefing, Digest, Reminder)",
    }),
    { create: 'optional', patch: 'value', nullable: true, view: 'always', clean: blankIsNone },
  ),
  message: field(
    S.string({
      max: BODY_MAX,
      description: 'Extension: the text of a plain routine; put before a contextual one',
    }),
    { create: 'optional', patch: 'value', nullable: true, view: 'always', clean: blankIsNone },
  ),
  lastRunAt: field(timestamp, { ...own, nullable: true }),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
};

export type RoutineRecord = RecordOf<typeof ROUTINE_FIELDS>;

/** Upper bound of a check's `leadHours` (a decision: 30 days ahead is as far as a check looks). */
export const LEAD_HOURS_MAX = 720;

/**
 * Every field of a check, once (src/domain/shared/record.ts): a task to be reminded of
 * `leadHours` before a calendar event's next start. Channels default [in_app], each once. The
 * view (the `calendar.check.created` record) shows the id again as `triggerId` (checks.ts).
 */
export const CHECK_FIELDS = {
  /** The trigger id (trg_…): the check's notification carries it. */
  id: field(S.string(), own),
  eventId: field(S.string({ min: 1, max: 100 }), {
    create: 'required',
    patch: 'never',
    view: 'always',
  }),
  leadHours: field(S.number(0, LEAD_HOURS_MAX), {
    create: 'required',
    patch: 'never',
    view: 'always',
  }),
  task: field(
    S.string({ min: 1, max: 500, description: "The notification's title when the check runs" }),
    {
      create: 'required',
      patch: 'never',
      view: 'always',
      clean: (v) => v.trim(),
      check: (v) => v !== '' || 'must not be blank',
    },
  ),
  channels: field(channels, {
    create: 'optional',
    patch: 'never',
    default: ['in_app'],
    view: 'always',
    clean: (v) => [...new Set(v)],
  }),
  createdAt: field(timestamp, own),
};

export type CheckRecord = RecordOf<typeof CHECK_FIELDS>;

/** Which transports the daemon has configured: a channel without one is suppressed. */
export interface Transports {
  email: boolean;
  push: boolean;
  sms: boolean;
}

/** Agenda job kinds of this area (the scheduler's handlers are in src/notifications/jobs.ts). */
export const JOB = {
  send: 'notify.send',
  reminder: 'notify.reminder',
  leaveBy: 'notify.leaveBy',
  coverage: 'notify.coverage',
  check: 'notify.check',
  routine: 'notify.routine',
  prune: 'notify.prune',
} as const;

/** Agenda job ids: one job per thing, so putting it again moves it. */
export const jobId = {
  send: (notificationId: string) => `send:${notificationId}`,
  reminder: (eventId: string, index: number) => `rem:${eventId}:${index}`,
  leaveBy: (eventId: string) => `leave:${eventId}`,
  coverage: (eventId: string) => `cov:${eventId}`,
  check: (checkId: string) => `check:${checkId}`,
  routine: (routineId: string) => `routine:${routineId}`,
  prune: () => 'notify:prune',
};
