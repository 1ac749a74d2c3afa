/**
 * Plans: create, update, delete, link and unlink calendar events, share.
 * Notes are in notes.ts, polls in polls.ts. Every decider changes one plan record; the
 * change-log object is the resource as the API shows it (a plan, or a linked event item with
 * its planId).
 */
import { getEvent } from '../calendar/events.js';
import { Conflict, Invalid, NotFound } from '../shared/errors.js';
import type {
  CommandContext,
  Decision,
  FamilyState,
  LogEvent,
  Reaction,
  RecordChange,
} from '../shared/state.js';
import { EVENTS_MAX, PLAN_FIELDS, PLANS, type EventLink, type PlanRecord } from './types.js';
import { applyPatch, createFields, type CreateOf, type PatchOf } from '../shared/record.js';
import {
  eventItemOf,
  getPlan,
  planDetail,
  shareUrlOf,
  type EventItemView,
  type Viewer,
} from './views.js';
import { noChange } from '../shared/decision.js';

export function requirePlan(state: FamilyState, id: string): PlanRecord {
  const p = getPlan(state, id);
  if (!p) throw new NotFound(`No plan ${id} in this family`);
  return p;
}

/** Change-log views are written as the acting key would read them. */
export function viewerOfCommand(ctx: CommandContext): Viewer {
  return { now: ctx.now, publicUrl: ctx.publicUrl, personId: ctx.caller.personId };
}

export function putPlan(plan: PlanRecord): RecordChange {
  return { table: PLANS, id: plan.id, value: plan };
}

/** `plan.updated` with the plan before and after. */
export function planUpdated(
  state: FamilyState,
  before: PlanRecord,
  after: PlanRecord,
  ctx: CommandContext,
): LogEvent {
  const v = viewerOfCommand(ctx);
  return {
    type: 'plan.updated',
    object: planDetail(state, after, v),
    previous: planDetail(state, before, v),
  };
}

export type CreatePlanInput = CreateOf<typeof PLAN_FIELDS>;

export function decideCreatePlan(
  state: FamilyState,
  input: CreatePlanInput,
  ctx: CommandContext,
): Decision<PlanRecord> {
  const at = ctx.now.toISOString();
  const plan = createFields(PLAN_FIELDS, input, {
    id: ctx.newId('plan'),
    createdAt: at,
    updatedAt: at,
  });
  return {
    result: plan,
    changes: [putPlan(plan)],
    events: [{ type: 'plan.created', object: planDetail(state, plan, viewerOfCommand(ctx)) }],
  };
}

export type UpdatePlanInput = PatchOf<typeof PLAN_FIELDS>;

/** Changes only the fields sent; a change to nothing writes and logs nothing. */
export function decideUpdatePlan(
  state: FamilyState,
  id: string,
  input: UpdatePlanInput,
  ctx: CommandContext,
): Decision<PlanRecord> {
  const before = requirePlan(state, id);
  if (input.title === undefined && input.prose === undefined && input.archived === undefined) {
    throw new Invalid('Send at least one of title, prose, archived', [
      { path: [], message: 'must change at least one of title, prose, archived' },
    ]);
  }
  const { next, changed } = applyPatch(PLAN_FIELDS, before, input);
  if (!changed) return noChange(before);
  next.updatedAt = ctx.now.toISOString();
  return {
    result: next,
    changes: [putPlan(next)],
    events: [planUpdated(state, before, next, ctx)],
  };
}

/** Deletes the plan with its notes, polls and share link; linked events stay on the calendar. */
export function decideDeletePlan(
  state: FamilyState,
  id: string,
  ctx: CommandContext,
): Decision<PlanRecord> {
  const plan = requirePlan(state, id);
  return {
    result: plan,
    changes: [{ table: PLANS, id, value: null }],
    events: [{ type: 'plan.deleted', object: planDetail(state, plan, viewerOfCommand(ctx)) }],
    ...(plan.share?.enabled
      ? { indexes: [{ index: 'share-token' as const, key: plan.share.tokenHash, familyId: null }] }
      : {}),
  };
}

export interface LinkInput {
  eventId: string;
  showDetailsOnShare?: boolean | undefined;
  showLocationOnShare?: boolean | undefined;
}
export interface LinkResult {
  created: boolean;
  item: EventItemView;
  plan: PlanRecord;
}

export function linkedItemEvent(
  type: 'plan.event.linked' | 'plan.event.unlinked',
  planId: string,
  item: EventItemView,
): LogEvent {
  return { type, object: { planId, ...item } };
}

/**
 * Links an existing event (404 when there is none). Linking an event that is already linked
 * answers the same body; flags sent with it replace the link's flags (there is no other way
 * to change them), logged as `plan.updated`.
 */
export function decideLinkEvent(
  state: FamilyState,
  id: string,
  input: LinkInput,
  ctx: CommandContext,
): Decision<LinkResult> {
  const plan = requirePlan(state, id);
  const ev = getEvent(state, input.eventId);
  if (!ev) throw new NotFound(`No calendar event ${input.eventId} in this family`);
  const at = ctx.now.toISOString();
  const existing = plan.events.find((l) => l.eventId === ev.id);
  if (existing) {
    const link: EventLink = {
      ...existing,
      showDetailsOnShare: input.showDetailsOnShare ?? existing.showDetailsOnShare,
      showLocationOnShare: input.showLocationOnShare ?? existing.showLocationOnShare,
    };
    const result = { created: false, item: eventItemOf(ev, link, state.family.timezone), plan };
    if (
      link.showDetailsOnShare === existing.showDetailsOnShare &&
      link.showLocationOnShare === existing.showLocationOnShare
    ) {
      return noChange(result);
    }
    const next: PlanRecord = {
      ...plan,
      events: plan.events.map((l) => (l === existing ? link : l)),
      updatedAt: at,
    };
    return {
      result: { ...result, plan: next },
      changes: [putPlan(next)],
      events: [planUpdated(state, plan, next, ctx)],
    };
  }
  if (plan.events.length >= EVENTS_MAX)
    throw new Conflict(`A plan links at most ${EVENTS_MAX} events`);
  const link: EventLink = {
    eventId: ev.id,
    showDetailsOnShare: input.showDetailsOnShare ?? true,
    showLocationOnShare: input.showLocationOnShare ?? false,
    linkedAt: at,
  };
  const next: PlanRecord = { ...plan, events: [...plan.events, link], updatedAt: at };
  const item = eventItemOf(ev, link, state.family.timezone);
  return {
    result: { created: true, item, plan: next },
    changes: [putPlan(next)],
    events: [linkedItemEvent('plan.event.linked', plan.id, item)],
  };
}

/** Unlinks an event; the event stays on the calendar. Not linked → 404. */
export function decideUnlinkEvent(
  state: FamilyState,
  id: string,
  eventId: string,
  ctx: CommandContext,
): Decision<PlanRecord> {
  const plan = requirePlan(state, id);
  const link = plan.events.find((l) => l.eventId === eventId);
  const ev = link && getEvent(state, eventId);
  if (!link || !ev) throw new NotFound(`Event ${eventId} is not linked to plan ${id}`);
  const next: PlanRecord = {
    ...plan,
    events: plan.events.filter((l) => l !== link),
    updatedAt: ctx.now.toISOString(),
  };
  return {
    result: next,
    changes: [putPlan(next)],
    events: [
      linkedItemEvent('plan.event.unlinked', plan.id, eventItemOf(ev, link, state.family.timezone)),
    ],
  };
}

/** A new share token made at the edge (randomness is not the domain's): plaintext and SHA-256. */
export interface FreshToken {
  token: string;
  tokenHash: string;
}
export interface ShareResult {
  enabled: boolean;
  shareUrl: string | null;
}

/**
 * Turns the public page on or off. The first enabling takes `fresh`; later ones bring back the
 * same token, so the same address: a link already handed out works again. The store-wide index
 * (hash → family) is written on enable and removed on disable, so a disabled link resolves to
 * nothing at once.
 */
export function decideSharePlan(
  state: FamilyState,
  id: string,
  enabled: boolean,
  fresh: FreshToken,
  ctx: CommandContext,
): Decision<ShareResult> {
  const plan = requirePlan(state, id);
  if ((plan.share?.enabled ?? false) === enabled) {
    return noChange({ enabled, shareUrl: shareUrlOf(plan, ctx.publicUrl) });
  }
  const at = ctx.now.toISOString();
  const base = plan.share ?? { token: fresh.token, tokenHash: fresh.tokenHash };
  const next: PlanRecord = {
    ...plan,
    share: { token: base.token, tokenHash: base.tokenHash, enabled, changedAt: at },
    updatedAt: at,
  };
  const shareUrl = shareUrlOf(next, ctx.publicUrl);
  return {
    result: { enabled, shareUrl },
    changes: [putPlan(next)],
    events: [
      {
        type: enabled ? 'plan.share.enabled' : 'plan.share.disabled',
        object: { planId: plan.id, enabled, shareUrl },
      },
    ],
    indexes: [
      { index: 'share-token', key: base.tokenHash, familyId: enabled ? ctx.family.id : null },
    ],
  };
}

/**
 * What the plans do when calendar events disappear (a delete anywhere, a calendar or feed
 * removed): every link to them goes, each logged as `plan.event.unlinked`, and a settled poll
 * forgets the event it had created.
 */
export function unlinkRemovedEvents(
  state: FamilyState,
  eventIds: readonly string[],
  ctx: CommandContext,
): Reaction {
  const gone = new Set(eventIds);
  const changes: RecordChange[] = [];
  const events: LogEvent[] = [];
  const at = ctx.now.toISOString();
  for (const plan of state.table<PlanRecord>(PLANS).values()) {
    const links = plan.events.filter((l) => gone.has(l.eventId));
    const polls = plan.polls.some((p) => p.settledEventId !== null && gone.has(p.settledEventId));
    if (!links.length && !polls) continue;
    const next: PlanRecord = {
      ...plan,
      events: plan.events.filter((l) => !gone.has(l.eventId)),
      polls: plan.polls.map((p) =>
        p.settledEventId !== null && gone.has(p.settledEventId)
          ? { ...p, settledEventId: null }
          : p,
      ),
      updatedAt: at,
    };
    changes.push(putPlan(next));
    for (const link of links) {
      const ev = getEvent(state, link.eventId);
      if (ev)
        events.push(
          linkedItemEvent(
            'plan.event.unlinked',
            plan.id,
            eventItemOf(ev, link, state.family.timezone),
          ),
        );
    }
  }
  return { changes, events };
}
