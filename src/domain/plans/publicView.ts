/**
 * What a holder of a plan's share link may see: the plan found by its share token's hash, and
 * its public view (no ids, no private notes, event details and locations only where shared).
 * The public page renders it as HTML or JSON (src/public/planPage.ts).
 */
import type { FamilyState } from '../shared/state.js';
import { PHASES, planTiming } from './timing.js';
import { J, type ShapeOf } from '../shared/shape.js';
import { PLANS, type PlanRecord } from './types.js';
import {
  EVENT_TIMING,
  eventItemView,
  noteAuthor,
  optionView,
  type EventItemView,
} from './views.js';
import { clockOf, itemWhen } from './clock.js';
import type { Voice } from '../i18n/voice.js';
import { localItemWhen, localSpan } from './localWhen.js';

const text = J.string();
const nullableText = (description?: string) => J.nullable(J.string(), description);
const nullableDate = J.nullable(J.of<string>({ type: 'string', format: 'date' }));

/** An event of the page: its title only when its details are shared, its location likewise. */
const PUBLIC_EVENT = J.object(
  {
    title: nullableText("null when the event's details are not shared"),
    when: text,
    timing: EVENT_TIMING,
  },
  { location: J.string('Only when the location is shared') },
);
const PUBLIC_OPTION = J.object({
  label: nullableText(),
  when: nullableText(),
  date: nullableDate,
  endDate: nullableDate,
  time: nullableText('Local time text such as 3:30 PM'),
  endTime: nullableText('Local time text such as 6:00 PM'),
  votes: J.integer(),
  chosen: J.boolean(),
});
/** A poll as the page shows it: the options with their counts, no voters. */
const PUBLIC_POLL = J.object({
  question: text,
  status: J.enums(['open', 'settled']),
  options: J.array(PUBLIC_OPTION),
});

/**
 * The shared plan page's JSON (`Accept: application/json`): what the HTML shows, nothing more.
 * Its type and its published schema (`PublicPlan`) are this one description.
 */
export const PUBLIC_PLAN = J.object({
  ok: J.literal(true),
  title: text,
  prose: nullableText(),
  when: text,
  phase: J.enums(PHASES),
  timezone: J.string(
    "The family's IANA zone: the times are in it, 12-hour for zones of the United States, else 24-hour",
  ),
  events: J.array(PUBLIC_EVENT),
  notes: J.array(J.object({ body: text, author: text })),
  polls: J.array(PUBLIC_POLL),
});

export type PublicEvent = ShapeOf<typeof PUBLIC_EVENT>;
export type PublicOption = ShapeOf<typeof PUBLIC_OPTION>;
export type PublicPoll = ShapeOf<typeof PUBLIC_POLL>;
export type PublicPlan = ShapeOf<typeof PUBLIC_PLAN>;

export function planBySharedHash(state: FamilyState, hash: string): PlanRecord | undefined {
  for (const p of state.table<PlanRecord>(PLANS).values()) {
    if (p.share?.enabled && p.share.tokenHash === hash) return p;
  }
  return undefined;
}

/**
 * What a holder of the link may see, and nothing else (no ids, no private notes). With the
 * family's `voice` (the HTML page), the `when` texts are in its language and clock
 * (localWhen.ts); without (the JSON), the contract's English.
 */
export function publicPlan(
  state: FamilyState,
  plan: PlanRecord,
  now: Date,
  voice?: Voice,
): PublicPlan {
  const timing = planTiming(state, plan, now);
  const { phase } = timing;
  const when = voice ? localSpan(voice, timing.span) : timing.when;
  const clock = clockOf(state.family.timezone);
  const itemText = (t: Parameters<typeof itemWhen>[0]) =>
    voice ? localItemWhen(voice, t) : itemWhen(t, clock);
  const events = plan.events
    .map((l) => eventItemView(state, l))
    .filter((e): e is EventItemView => e !== undefined)
    .sort((a, b) =>
      a.timing.date + (a.timing.time ?? '') < b.timing.date + (b.timing.time ?? '') ? -1 : 1,
    )
    .map((e): PublicEvent => ({
      title: e.showDetailsOnShare ? e.title : null,
      when: itemText(e.timing),
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
          when: o.date ? itemText({ ...o, date: o.date }) : null,
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
