/**
 * Composing a notification: one record with one delivery per send, decided on the family's
 * state at the moment it is made (docs/notifications.md). Pure: the transports the daemon has
 * configured arrive as data, the time and ids from the command context.
 *
 * - in_app is delivered by being recorded (the family's feed): once per notification.
 * - push is one publish to the family's topic, whatever the audience.
 * - email and sms go to each person of the audience with that address, one send each.
 * Each reader gets the text in their locale (docs/i18n.md, "Notifications"): the record's title
 * and body (in_app, push) are in the family's; an email or sms to a person with their own locale
 * carries that locale, and the record keeps the text in it beside (`localized`).
 * A send that cannot be made is `suppressed` with its reason (preference off, not configured,
 * nobody with an address); one that can starts `pending`, and a `notify.send` job due at once
 * is committed with it, so a crash before the transport is called still sends it at start.
 */
import { listPeople, type Person } from '../people/people.js';
import { localeFor } from '../i18n/locale.js';
import { voiceOf } from '../i18n/voice.js';
import { AGENDA_TABLE } from '../shared/agenda.js';
import type {
  AgendaChange,
  CommandContext,
  FamilyState,
  LogEvent,
  Reaction,
  RecordChange,
} from '../shared/state.js';
import { familyLocale } from '../shared/state.js';
import { preferencesOf } from './preferences.js';
import type { Text, Texts } from './texts.js';
import {
  JOB,
  jobId,
  KEEP_MS,
  NOTIFICATIONS,
  type Channel,
  type Delivery,
  type NotificationKind,
  type NotificationRecord,
  type PreferenceKind,
  type Transports,
} from './types.js';

export interface NotificationInput {
  kind: NotificationKind;
  /** The words: as given (a send through the API), or said in each reader's voice. */
  text: Text | Texts;
  channels: readonly Channel[];
  /** Who gets email and sms; default: every active person (the household). */
  people?: readonly Person[];
  /** The service's own notifications obey the household's preferences; API sends do not. */
  preferenceKind?: PreferenceKind;
  triggerId?: string;
  eventId?: string;
  occurrenceDate?: string;
  /** Record it without sending anything (a job found later than catchUpMinutes). */
  skippedReason?: string;
}

export interface Composed {
  record: NotificationRecord;
  changes: RecordChange[];
  events: LogEvent[];
  agenda: AgendaChange[];
}

const NOT_CONFIGURED = 'not configured';
const PREFERENCE_OFF = 'preference off';

/** Every channel once, in the order of CHANNELS-as-given. */
function unique(channels: readonly Channel[]): Channel[] {
  return [...new Set(channels)];
}

/** The text in each locale it is needed in: the family's first. */
class Wording {
  readonly family: string;
  readonly main: Text;
  readonly localized: Record<string, Text> = {};
  constructor(
    private readonly state: FamilyState,
    private readonly text: Text | Texts,
  ) {
    this.family = familyLocale(state.family);
    this.main = this.in(this.family);
  }
  private in(locale: string): Text {
    return typeof this.text === 'function'
      ? this.text(voiceOf(locale, this.state.family.timezone))
      : this.text;
  }
  /** The locale a person's send is in: their own when the text has words of ours, else none. */
  localeOf(p: Person): string | undefined {
    if (typeof this.text !== 'function') return undefined;
    const locale = localeFor(this.family, p.locale ?? null);
    if (locale === this.family) return undefined;
    this.localized[locale] ??= this.in(locale);
    return locale;
  }
}

function deliveriesFor(
  state: FamilyState,
  input: NotificationInput,
  transports: Transports,
  wording: Wording,
): Delivery[] {
  const out: Delivery[] = [];
  const prefs = input.preferenceKind ? preferencesOf(state) : null;
  const people = input.people ?? listPeople(state);
  for (const channel of unique(input.channels)) {
    if (input.skippedReason) {
      out.push({ channel, status: 'suppressed', reason: input.skippedReason });
      continue;
    }
    if (channel === 'in_app') {
      out.push({ channel, status: 'delivered' });
      continue;
    }
    if (
      prefs &&
      (channel === 'email' || channel === 'push') &&
      !prefs[channel][input.preferenceKind!]
    ) {
      out.push({ channel, status: 'suppressed', reason: PREFERENCE_OFF });
      continue;
    }
    if (!transports[channel]) {
      out.push({ channel, status: 'suppressed', reason: NOT_CONFIGURED });
      continue;
    }
    if (channel === 'push') {
      out.push({ channel, status: 'pending' });
      continue;
    }
    const field = channel === 'email' ? 'email' : 'phone';
    const seen = new Set<string>();
    for (const p of people) {
      const address = p[field];
      if (!address || seen.has(address)) continue;
      seen.add(address);
      const locale = wording.localeOf(p);
      out.push({
        channel,
        recipient: address,
        personId: p.id,
        status: 'pending',
        ...(locale ? { locale } : {}),
      });
    }
    if (seen.size === 0) {
      out.push({
        channel,
        status: 'suppressed',
        reason: channel === 'email' ? 'nobody with an email address' : 'nobody with a phone number',
      });
    }
  }
  return out;
}

/** The pruning job, put once there is something to prune one day. */
function pruneJob(state: FamilyState, createdAtMs: number): AgendaChange[] {
  if (state.get(AGENDA_TABLE, jobId.prune())) return [];
  return [{ put: { id: jobId.prune(), kind: JOB.prune, dueAt: createdAtMs + KEEP_MS } }];
}

/**
 * Makes one notification record: its deliveries, the `notification.sent` log event when
 * nothing is left to send (otherwise it is logged when the sends are settled), a send job when
 * something is pending, and the pruning job.
 */
export function composeNotification(
  state: FamilyState,
  ctx: CommandContext,
  transports: Transports,
  input: NotificationInput,
): Composed {
  const createdAt = ctx.now.toISOString();
  const wording = new Wording(state, input.text);
  const deliveries = deliveriesFor(state, input, transports, wording);
  const record: NotificationRecord = {
    id: ctx.newId('ntf'),
    kind: input.kind,
    title: wording.main.title,
    body: wording.main.body,
    locale: wording.family,
    ...(Object.keys(wording.localized).length ? { localized: wording.localized } : {}),
    channels: unique(input.channels),
    ...(input.triggerId !== undefined ? { triggerId: input.triggerId } : {}),
    ...(input.eventId !== undefined ? { eventId: input.eventId } : {}),
    ...(input.occurrenceDate !== undefined ? { occurrenceDate: input.occurrenceDate } : {}),
    createdAt,
    deliveries,
    ...(input.skippedReason ? { skipped: true as const } : {}),
  };
  const pending = record.deliveries.some((d) => d.status === 'pending');
  const agenda: AgendaChange[] = [...pruneJob(state, ctx.now.getTime())];
  if (pending)
    agenda.push({
      put: {
        id: jobId.send(record.id),
        kind: JOB.send,
        dueAt: ctx.now.getTime(),
        data: { notificationId: record.id },
      },
    });
  return {
    record,
    changes: [{ table: NOTIFICATIONS, id: record.id, value: record }],
    events:
      pending || record.skipped
        ? []
        : [{ type: 'notification.sent', object: notificationView(record) }],
    agenda,
  };
}

/**
 * An in-app notice to the whole household, for other areas' deciders to add to their own
 * decision (a webhook destination disabled after failing for 5 days): the record and its
 * `notification.sent`, plus the pruning job. Nothing leaves the machine, so nothing is pending.
 */
export function householdNotice(
  state: FamilyState,
  ctx: CommandContext,
  notice: { kind?: NotificationKind; text: Text | Texts },
): Required<Reaction> {
  const c = composeNotification(
    state,
    ctx,
    { email: false, push: false, sms: false },
    {
      kind: notice.kind ?? 'notice',
      text: notice.text,
      channels: ['in_app'],
    },
  );
  return { changes: c.changes, events: c.events, agenda: c.agenda };
}

/** A notification as the API shows it: the record without delivery bookkeeping, with its counts. */
export interface NotificationView extends Omit<NotificationRecord, 'deliveries'> {
  deliveries: Omit<Delivery, 'attempted'>[];
  delivered: number;
  suppressed: number;
  pending: number;
}

export function countOf(record: NotificationRecord, status: Delivery['status']): number {
  let n = 0;
  for (const d of record.deliveries) if (d.status === status) n++;
  return n;
}

export function notificationView(r: NotificationRecord): NotificationView {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    channels: r.channels,
    ...(r.triggerId !== undefined ? { triggerId: r.triggerId } : {}),
    ...(r.eventId !== undefined ? { eventId: r.eventId } : {}),
    ...(r.occurrenceDate !== undefined ? { occurrenceDate: r.occurrenceDate } : {}),
    createdAt: r.createdAt,
    deliveries: r.deliveries.map(({ attempted: _a, locale: _l, ...d }) => d),
    delivered: countOf(r, 'delivered'),
    suppressed: countOf(r, 'suppressed'),
    pending: countOf(r, 'pending'),
    ...(r.skipped ? { skipped: true as const } : {}),
  };
}
