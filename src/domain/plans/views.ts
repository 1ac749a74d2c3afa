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
import { planTiming, type Phase } from './timing.js';
import { viewFields, type Derived, type ViewOf } from '../shared/record.js';
import {
  NOTE_FIELDS,
  PLANS,
  type EventLink,
  type NoteRecord,
  type OptionRecord,
  type PlanRecord,
  type PollRecord,
  type PollStatus,
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

export interface EventItemView {
  eventId: string;
  title: string;
  location: string | null;
  showDetailsOnShare: boolean;
  showLocationOnShare: boolean;
  timing: ShapeOf<typeof EVENT_TIMING>;
  status: string;
  calendarKey: string;
}

export type NoteView = ViewOf<typeof NOTE_FIELDS> & {
  noteId: string;
  author: string;
  onSharedPage: boolean;
};

export interface OptionView {
  optionId: string;
  label: string | null;
  date: string | null;
  endDate: string | null;
  time: string | null;
  endTime: string | null;
  votes: number;
}

export interface PollView {
  pollId: string;
  question: string;
  status: PollStatus;
  settledOptionId: string | null;
  settledEventId: string | null;
  options: OptionView[];
  myVoteOptionId: string | null;
  voteCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface PlanListItem {
  planId: string;
  title: string;
  when: string;
  phase: Phase;
  archived: boolean;
  eventCount: number;
  shareEnabled: boolean;
  shareUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PlanDetail extends PlanListItem {
  prose: string | null;
  events: EventItemView[];
  notes: NoteView[];
  polls: PollView[];
}

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

export function noteView(state: FamilyState, note: NoteRecord): NoteView {
  return viewFields(NOTE_FIELDS, note, NOTE_DERIVED, state) as NoteView;
}

export function optionView(o: OptionRecord, poll: PollRecord): OptionView {
  let votes = 0;
  for (const v of Object.values(poll.votes)) if (v === o.id) votes++;
  return {
    optionId: o.id,
    label: o.label,
    date: o.date,
    endDate: o.endDate,
    time: o.time ? formatTime12(o.time) : null,
    endTime: o.endTime ? formatTime12(o.endTime) : null,
    votes,
  };
}

export function pollView(poll: PollRecord, personId: string | null): PollView {
  return {
    pollId: poll.id,
    question: poll.question,
    status: poll.status,
    settledOptionId: poll.settledOptionId,
    settledEventId: poll.settledEventId,
    options: poll.options.map((o) => optionView(o, poll)),
    myVoteOptionId: personId ? (poll.votes[personId] ?? null) : null,
    voteCount: Object.keys(poll.votes).length,
    createdAt: poll.createdAt,
    updatedAt: poll.updatedAt,
  };
}

export function planListItem(state: FamilyState, plan: PlanRecord, viewer: Viewer): PlanListItem {
  const { phase, when } = planTiming(state, plan, viewer.now);
  return {
    planId: plan.id,
    title: plan.title,
    when,
    phase,
    archived: plan.archived,
    eventCount: plan.events.filter((l) => getEvent(state, l.eventId)).length,
    shareEnabled: plan.share?.enabled === true,
    shareUrl: shareUrlOf(plan, viewer.publicUrl),
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
  };
}

export function planDetail(state: FamilyState, plan: PlanRecord, viewer: Viewer): PlanDetail {
  return {
    ...planListItem(state, plan, viewer),
    prose: plan.prose,
    events: plan.events
      .map((l) => eventItemView(state, l))
      .filter((e): e is EventItemView => e !== undefined),
    notes: plan.notes.map((n) => noteView(state, n)),
    polls: plan.polls.map((p) => pollView(p, viewer.personId)),
  };
}
