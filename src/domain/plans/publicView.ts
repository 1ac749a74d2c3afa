/**
 * What a holder of a plan's share link may see: the plan found by its share token's hash, and
 * its public view (no ids, no private notes, event details and locations only where shared).
 * The public page renders it as HTML or JSON (src/public/planPage.ts).
 */
import type { FamilyState } from '../shared/state.js';
import { planTiming, type Phase } from './timing.js';
import { PLANS, type PlanRecord } from './types.js';
import { eventItemView, noteAuthor, optionView, type EventItemView } from './views.js';
import { clockOf, itemWhen } from './clock.js';

export interface PublicEvent {
  title: string | null;
  when: string;
  timing: EventItemView['timing'];
  location?: string;
}
export interface PublicOption {
  label: string | null;
  when: string | null;
  date: string | null;
  endDate: string | null;
  time: string | null;
  endTime: string | null;
  votes: number;
  chosen: boolean;
}
export interface PublicPoll {
  question: string;
  status: 'open' | 'settled';
  options: PublicOption[];
}
export interface PublicPlan {
  ok: true;
  title: string;
  prose: string | null;
  when: string;
  phase: Phase;
  /** The family's IANA zone: every date and time of the plan is in it. */
  timezone: string;
  events: PublicEvent[];
  notes: { body: string; author: string }[];
  polls: PublicPoll[];
}

export function planBySharedHash(state: FamilyState, hash: string): PlanRecord | undefined {
  for (const p of state.table<PlanRecord>(PLANS).values()) {
    if (p.share?.enabled && p.share.tokenHash === hash) return p;
  }
  return undefined;
}

/** What a holder of the link may see, and nothing else (no ids, no private notes). */
export function publicPlan(state: FamilyState, plan: PlanRecord, now: Date): PublicPlan {
  const { phase, when } = planTiming(state, plan, now);
  const clock = clockOf(state.family.timezone);
  const events = plan.events
    .map((l) => eventItemView(state, l))
    .filter((e): e is EventItemView => e !== undefined)
    .sort((a, b) =>
      a.timing.date + (a.timing.time ?? '') < b.timing.date + (b.timing.time ?? '') ? -1 : 1,
    )
    .map((e): PublicEvent => ({
      title: e.showDetailsOnShare ? e.title : null,
      when: itemWhen(e.timing, clock),
      timing: e.timing,
      ...(e.showDetailsOnShare && e.showLocationOnShare && e.location
        ? { location: e.location }
        : {}),
    }));
  return {
    ok: true,
    title: plan.title,
    prose: plan.prose,
    when,
    phase,
    timezone: state.family.timezone,
    events,
    notes: plan.notes
      .filter((n) => n.showOnSharedPage)
      .map((n) => ({ body: n.body, author: noteAuthor(state, n) })),
    polls: plan.polls.map((p): PublicPoll => ({
      question: p.question,
      status: p.status,
      options: p.options.map((o) => {
        const v = optionView(o, p);
        return {
          label: v.label,
          when: o.date ? itemWhen({ ...o, date: o.date }, clock) : null,
          date: v.date,
          endDate: v.endDate,
          time: v.time,
          endTime: v.endTime,
          votes: v.votes,
          chosen: p.settledOptionId === o.id,
        };
      }),
    })),
  };
}
