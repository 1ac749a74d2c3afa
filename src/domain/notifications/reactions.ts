/**
 * How the notifications area reacts to other areas (listed in src/domain/areas.ts): an event
 * written or removed anywhere (an edit, a poll settled or reopened, a calendar deleted) moves or
 * removes its reminders, leave-by, coverage alert and checks in the same decision; a feed
 * refresh that brings events matching the feed's hint makes an `intake_update` notification in
 * the refresh's own decision.
 */
import type { EventRecord } from '../calendar/types.js';
import type {
  AgendaChange,
  CommandContext,
  FamilyState,
  Reaction,
  RecordChange,
} from '../shared/state.js';
import { eventAgenda } from './schedule.js';
import type { IntakeUpdate } from '../feeds/types.js';
import { composeNotification } from './compose.js';
import { intakeText } from './texts.js';

export function rescheduleChangedEvent(
  state: FamilyState,
  event: { readonly id: string },
  ctx: CommandContext,
): Reaction {
  const { agenda, changes } = eventAgenda(state, event.id, event as EventRecord, ctx.now);
  return { changes, events: [], agenda };
}

export function unscheduleRemovedEvents(
  state: FamilyState,
  eventIds: readonly string[],
  ctx: CommandContext,
): Reaction {
  const out = { changes: [] as RecordChange[], events: [], agenda: [] as AgendaChange[] };
  for (const id of eventIds) {
    const r = eventAgenda(state, id, null, ctx.now);
    out.changes.push(...r.changes);
    out.agenda.push(...r.agenda);
  }
  return out;
}

/** "New in <feed>: <titles>" to the household, on the channels its preferences allow. */
export function notifyFeedIntake(
  state: FamilyState,
  intake: IntakeUpdate,
  ctx: CommandContext,
): Reaction {
  const c = composeNotification(
    state,
    ctx,
    ctx.transports ?? { email: false, push: false, sms: false },
    {
      kind: 'intake_update',
      preferenceKind: 'intake_update',
      text: intakeText(intake),
      channels: ['in_app', 'email', 'push'],
      triggerId: intake.sourceId,
    },
  );
  return { changes: c.changes, events: c.events, agenda: c.agenda };
}
