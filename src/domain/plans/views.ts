/**
 * Plans as the API shows them. Views depend on the reader: a poll shows the
 * caller's own vote (`myVoteOptionId`), and `phase`/`when` depend on today in the family's
 * time zone, so both come in as arguments.
 */
import { J, type ShapeOf } from '../shared/shape.js';
import { eventTiming, getEvent, type EventRecord } from '../calendar/events.js';
import { PEOPLE, personView, type Person } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import { formatTime12 } from '../shared/time.js';
import { PHASES, planTiming, type Phase } from './timing.js';
import { recordSchema, viewFields, type Derived, type ViewOf } from '../shared/record.js';
import type { JsonSchema } from '../shared/schema.js';
import { ENTRY_STATUSES } from '../collections/types.js';
import {
  NOTE_FIELDS,
  OPTION_FIELDS,
  PLAN_FIELDS,
  PLAN_SUMMARY_FIELDS,
  PLANS,
  POLL_FIELDS,
  type EventLink,
  type NoteRecord,
  type OptionRecord,
  type PlanRecord,
  type PollRecord,
} from './types.js';

export interface Viewer {
  now: Date;
  publicUrl: string;
  /** The person the reading key acts for (their vote is `myVoteOptionId`). */
  personId: string | null;
}

const date = J.of<string>({ type: 'string', format: 'date' });

/** When a plan's event happens, on the family's clock (published as `EventTiming`). */
export const EVENT_TIMING = J.object({
  date,
  endDate: J.of<string>({
    ...date.schema,
    description: 'Inclusive last day (the same as date for a one-day event)',
  }),
  kind: J.enums(['all-day', 'timed']),
  time: J.nullable(J.string(), 'Local start time HH:mm; null when all-day'),
  endTime: J.nullable(J.string(), 'Local end time HH:mm'),
});

/** A linked event as the plan shows it (`planId` only in change-log records). */
export const EVENT_ITEM = J.object(
  {
    eventId: J.string(),
    title: J.string(),
    location: J.nullable(J.string(), "The event's where"),
    showDetailsOnShare: J.boolean('The shared page shows the title (else only the time)'),
    showLocationOnShare: J.boolean('The shared page shows the location'),
    timing: EVENT_TIMING,
    status: J.enums(ENTRY_STATUSES),
    calendarKey: J.string(),
  },
  { planId: J.string('Only in change-log records') },
);

export type EventItemView = Omit<ShapeOf<typeof EVENT_ITEM>, 'planId'>;

export type NoteView = ViewOf<typeof NOTE_FIELDS> & {
  noteId: string;
  author: string;
  onSharedPage: boolean;
};

export function getPlan(state: FamilyState, id: string): PlanRecord | undefined {
  return state.get<PlanRecord>(PLANS, id);
}

/** Plans newest first. */
export function listPlans(state: FamilyState): PlanRecord[] {
  return state.newestFirst<PlanRecord>(PLANS);
}

export function shareUrlOf(plan: PlanRecord, publicUrl: string): string | null {
  return plan.share?.enabled ? `${publicUrl}/p/${plan.share.token}` : null;
}

/** A linked event as the plan shows it, or undefined when the event no longer exists. */
export function eventItemView(state: FamilyState, link: EventLink): EventItemView | undefined {
  const ev = getEvent(state, link.eventId);
  return ev ? eventItemOf(ev, link, state.family.timezone) : undefined;
}

/**
 * The item of a given event record (one a decision is creating is not in the state yet), its
 * timing on the family's clock (`tz`): a plan's dates and times are all in the family's zone.
 */
export function eventItemOf(ev: EventRecord, link: EventLink, tz: string): EventItemView {
  const t = eventTiming(ev, tz);
  const timed = !t.allDay && t.time !== null;
  return {
    eventId: ev.id,
    title: ev.title,
    location: typeof ev.data.where === 'string' && ev.data.where ? ev.data.where : null,
    showDetailsOnShare: link.showDetailsOnShare,
    showLocationOnShare: link.showLocationOnShare,
    timing: {
      date: t.date,
      endDate: t.endDate,
      kind: timed ? 'timed' : 'all-day',
      time: timed ? t.time : null,
      endTime: timed ? t.endTime : null,
    },
    status: ev.status,
    calendarKey: ev.collectionKey,
  };
}

/**
 * The author: the display name of the writer's person (even if since deleted), else the key's name.
 */
export function noteAuthor(state: FamilyState, note: NoteRecord): string {
  const p = note.authorPersonId ? state.get<Person>(PEOPLE, note.authorPersonId) : undefined;
  return p ? personView(p).displayName : note.authorKeyName;
}

/** The answer's `noteId`, `author` and `onSharedPage` (the family's state names the author). */
export const NOTE_DERIVED: Record<string, Derived<NoteRecord, FamilyState>> = {
  noteId: { after: 'id', schema: { type: 'string' }, of: (n) => n.id },
  author: {
    after: 'authorKeyName',
    schema: {
      type: 'string',
      description: "Display name of the writing key's person, else the key's name",
    },
    of: (n, state) => noteAuthor(state, n),
  },
  onSharedPage: {
    after: 'showOnSharedPage',
    schema: { type: 'boolean' },
    of: (n) => n.showOnSharedPage,
  },
};

export const NOTE_SCHEMA: JsonSchema = recordSchema(NOTE_FIELDS, NOTE_DERIVED);

export function noteView(state: FamilyState, note: NoteRecord): NoteView {
  return viewFields(NOTE_FIELDS, note, NOTE_DERIVED, state) as NoteView;
}

/** The answer's `optionId`, times as `3:30 PM` and `votes` (the poll's votes for it). */
export const OPTION_DERIVED = {
  optionId: { after: 'id', schema: { type: 'string' }, of: (o: OptionRecord) => o.id },
  time: {
    after: 'time',
    schema: { type: ['string', 'null'], description: 'Local time text such as 3:30 PM' },
    of: (o: OptionRecord) => (o.time ? formatTime12(o.time) : null),
  },
  endTime: {
    after: 'endTime',
    schema: { type: ['string', 'null'], description: 'Local time text such as 6:00 PM' },
    of: (o: OptionRecord) => (o.endTime ? formatTime12(o.endTime) : null),
  },
  votes: {
    after: 'endTime',
    schema: { type: 'integer', minimum: 0 },
    of: (o: OptionRecord, poll: PollRecord) => {
      let votes = 0;
      for (const v of Object.values(poll.votes)) if (v === o.id) votes++;
      return votes;
    },
  },
} satisfies Record<string, Derived<OptionRecord, PollRecord>>;

export const OPTION_SCHEMA: JsonSchema = recordSchema(OPTION_FIELDS, OPTION_DERIVED);

export type OptionView = ViewOf<typeof OPTION_FIELDS> & {
  optionId: string;
  time: string | null;
  endTime: string | null;
  votes: number;
};

export function optionView(o: OptionRecord, poll: PollRecord): OptionView {
  return viewFields(OPTION_FIELDS, o, OPTION_DERIVED, poll) as OptionView;
}

/** Who reads a poll: their own vote is `myVoteOptionId`. */
type PollReader = { personId: string | null };

/** The answer's `pollId`, its options' views, the reader's vote and how many voted. */
export const POLL_DERIVED = {
  pollId: { after: 'id', schema: { type: 'string' }, of: (p: PollRecord) => p.id },
  options: {
    after: 'options',
    schema: { type: 'array', items: OPTION_SCHEMA },
    of: (p: PollRecord) => p.options.map((o) => optionView(o, p)),
  },
  myVoteOptionId: {
    after: 'options',
    schema: {
      type: ['string', 'null'],
      description: "The option the calling key's person voted for",
    },
    of: (p: PollRecord, r: PollReader) => (r.personId ? (p.votes[r.personId] ?? null) : null),
  },
  voteCount: {
    after: 'myVoteOptionId',
    schema: { type: 'integer', minimum: 0 },
    of: (p: PollRecord) => Object.keys(p.votes).length,
  },
} satisfies Record<string, Derived<PollRecord, PollReader>>;

export const POLL_SCHEMA: JsonSchema = recordSchema(POLL_FIELDS, POLL_DERIVED);

export type PollView = ViewOf<typeof POLL_FIELDS> & {
  pollId: string;
  options: OptionView[];
  myVoteOptionId: string | null;
  voteCount: number;
};

export function pollView(poll: PollRecord, personId: string | null): PollView {
  return viewFields(POLL_FIELDS, poll, POLL_DERIVED, { personId }) as PollView;
}

/** Who reads a plan, with when the plan happens on their day (computed once per view). */
type PlanReader = { state: FamilyState; viewer: Viewer; timing: { phase: Phase; when: string } };

/** What the list of plans shows of a plan besides its fields. */
export const PLAN_SUMMARY_DERIVED = {
  planId: { after: 'id', schema: { type: 'string' }, of: (p: PlanRecord) => p.id },
  when: {
    after: 'title',
    schema: {
      type: 'string',
      description:
        'The span in the family\'s time zone: "Sat, Jun 13, 2026", "Jun 13 – 15, 2026", or "Not scheduled"',
    },
    of: (_p: PlanRecord, r: PlanReader) => r.timing.when,
  },
  phase: {
    after: 'when',
    schema: {
      type: 'string',
      enum: [...PHASES],
      description: 'unscheduled (nothing dated), upcoming, happening (today within the span), past',
    },
    of: (_p: PlanRecord, r: PlanReader) => r.timing.phase,
  },
  eventCount: {
    after: 'archived',
    schema: { type: 'integer', minimum: 0 },
    of: (p: PlanRecord, r: PlanReader) =>
      p.events.filter((l) => getEvent(r.state, l.eventId)).length,
  },
  shareEnabled: {
    after: 'eventCount',
    schema: { type: 'boolean' },
    of: (p: PlanRecord) => p.share?.enabled === true,
  },
  shareUrl: {
    after: 'shareEnabled',
    schema: {
      type: ['string', 'null'],
      description:
        'The public page; a capability URL (anyone holding it can read the plan). null when sharing is off',
    },
    of: (p: PlanRecord, r: PlanReader) => shareUrlOf(p, r.viewer.publicUrl),
  },
} satisfies Record<string, Derived<PlanRecord, PlanReader>>;

/** What a plan's answer shows besides its fields: the summary's, and its lists as views. */
export const PLAN_DERIVED = {
  ...PLAN_SUMMARY_DERIVED,
  events: {
    after: 'events',
    schema: { type: 'array', items: EVENT_ITEM.schema },
    of: (p: PlanRecord, r: PlanReader) =>
      p.events
        .map((l) => eventItemView(r.state, l))
        .filter((e): e is EventItemView => e !== undefined),
  },
  notes: {
    after: 'notes',
    schema: { type: 'array', items: NOTE_SCHEMA, description: 'In the order they were written' },
    of: (p: PlanRecord, r: PlanReader) => p.notes.map((n) => noteView(r.state, n)),
  },
  polls: {
    after: 'polls',
    schema: { type: 'array', items: POLL_SCHEMA },
    of: (p: PlanRecord, r: PlanReader) => p.polls.map((x) => pollView(x, r.viewer.personId)),
  },
} satisfies Record<string, Derived<PlanRecord, PlanReader>>;

export type PlanListItem = ViewOf<typeof PLAN_SUMMARY_FIELDS> & {
  planId: string;
  when: string;
  phase: Phase;
  eventCount: number;
  shareEnabled: boolean;
  shareUrl: string | null;
};

export type PlanDetail = PlanListItem &
  ViewOf<typeof PLAN_FIELDS> & { events: EventItemView[]; notes: NoteView[]; polls: PollView[] };

function reader(state: FamilyState, plan: PlanRecord, viewer: Viewer): PlanReader {
  return { state, viewer, timing: planTiming(state, plan, viewer.now) };
}

export function planListItem(state: FamilyState, plan: PlanRecord, viewer: Viewer): PlanListItem {
  return viewFields(
    PLAN_SUMMARY_FIELDS,
    plan,
    PLAN_SUMMARY_DERIVED,
    reader(state, plan, viewer),
  ) as PlanListItem;
}

export function planDetail(state: FamilyState, plan: PlanRecord, viewer: Viewer): PlanDetail {
  return viewFields(PLAN_FIELDS, plan, PLAN_DERIVED, reader(state, plan, viewer)) as PlanDetail;
}
