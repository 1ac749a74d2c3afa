/**
 * The parts of a family display's content beside its days (docs/display.md): the chores, the
 * lists it shows (groceries unless told otherwise), the open date polls, and — on an
 * interactive display — the people it answers for. Names are familiar names; ids only travel
 * to an interactive display, whose page needs them to act.
 */
import { entriesOf } from '../collections/listing.js';
import { getCollection, isCalendar } from '../collections/collections.js';
import type { Entry } from '../collections/types.js';
import { activePerson, listPeople, PERSON_DERIVED } from '../people/people.js';
import type { Voice } from '../i18n/voice.js';
import { listPlans } from '../plans/views.js';
import type { OptionRecord } from '../plans/types.js';
import type { FamilyState } from '../shared/state.js';
import { instantToLocal } from '../shared/time.js';
import { displaySettings, type DisplayRecord } from './displays.js';
import type {
  DisplayChore,
  DisplayList,
  DisplayListItem,
  DisplayPerson,
  DisplayPoll,
} from './content.js';

/** What the whole display needs to know to pick its items. */
export interface Scope {
  state: FamilyState;
  display: DisplayRecord;
  /** Today and the last day shown, in the family's zone. */
  today: string;
  last: string;
  tz: string;
  now: Date;
  interactive: boolean;
  /** The ids of the display's people; empty: everyone. */
  personIds: ReadonlySet<string>;
  /** The display's locale on the family's zone: what the daemon writes into its content. */
  voice: Voice;
}

const MAX_CHORES = 30;
const MAX_ITEMS = 40;
const MAX_DONE_ITEMS = 15;
const MAX_POLLS = 5;

/** The person's display name (familiar name, else name), as their record's view shows it. */
export function personDisplayName(state: FamilyState, personId: string): string | null {
  const p = activePerson(state, personId);
  return p ? PERSON_DERIVED.displayName.of(p) : null;
}

/** The display names of these people, in their order; those no longer active are left out. */
export function displayNamesOf(state: FamilyState, personIds: Iterable<string>): string[] {
  const names: string[] = [];
  for (const id of personIds) {
    const name = personDisplayName(state, id);
    if (name !== null) names.push(name);
  }
  return names;
}

const doneToday = (e: Entry, s: Scope) =>
  e.status === 'done' && instantToLocal(new Date(e.updatedAt), s.tz).date === s.today;

/** Chores due up to the last day shown (overdue first), and those ticked off today. */
export function choresOf(s: Scope): { due: DisplayChore[]; done: DisplayChore[] } {
  const { state, today, last } = s;
  const choreOf = (c: Entry): DisplayChore => {
    const due = typeof c.data.due === 'string' ? c.data.due : null;
    // A chore's `who` (the wire's word, docs/display.md) is the entry's `assignee`: a person id
    // (shown by their display name) or free text (shown by no one).
    const assigneeName =
      typeof c.data.assignee === 'string' ? personDisplayName(state, c.data.assignee) : null;
    return {
      ...(s.interactive ? { id: c.id } : {}),
      title: c.title,
      due,
      overdue: due !== null && due < today,
      who: assigneeName ? [assigneeName] : [],
    };
  };
  const mine = (c: Entry) =>
    !s.personIds.size || (typeof c.data.assignee === 'string' && s.personIds.has(c.data.assignee));
  const chores = entriesOf(state, 'chores').filter(mine);
  const byDue = (a: DisplayChore, b: DisplayChore) =>
    (a.due ?? '9') < (b.due ?? '9')
      ? -1
      : (a.due ?? '9') > (b.due ?? '9')
        ? 1
        : a.title.localeCompare(b.title);
  const due = chores
    .filter((c) => c.status === 'active' && typeof c.data.due === 'string' && c.data.due <= last)
    .map(choreOf)
    .sort(byDue)
    .slice(0, MAX_CHORES);
  // Done: the chores ticked off today (their last change was today, in the family's zone).
  const done = chores
    .filter((c) => doneToday(c, s))
    .map(choreOf)
    .sort(byDue)
    .slice(0, MAX_CHORES);
  return { due, done };
}

/** The display's lists: open items oldest first (as they were added), then those done today. */
export function listsOf(s: Scope): DisplayList[] {
  const out: DisplayList[] = [];
  for (const key of displaySettings(s.display).lists) {
    const c = getCollection(s.state, key);
    // A list deleted since the display was set up is simply not shown.
    if (!c || isCalendar(c)) continue;
    const entries = entriesOf(s.state, key);
    const item = (e: Entry, done: boolean): DisplayListItem => ({
      ...(s.interactive ? { id: e.id } : {}),
      title: e.title,
      done,
    });
    const open = entries
      .filter((e) => e.status === 'active')
      .slice(0, MAX_ITEMS)
      .reverse()
      .map((e) => item(e, false));
    const done = entries
      .filter((e) => doneToday(e, s))
      .slice(0, MAX_DONE_ITEMS)
      .map((e) => item(e, true));
    out.push({ key, name: c.name, items: [...open, ...done] });
  }
  return out;
}

/** A day, with its time when it has one, as the display's locale writes them. */
function dayTime(voice: Voice, date: string, time: string | null | undefined): string {
  const day = voice.formats.date(date);
  return time ? voice.say('common', 'dayAt', { day, time: voice.formats.time(time) }) : day;
}

/** An option's date (and times), as the display's locale writes them: "Sat, Nov 28 5:00 PM". */
function optionWhen(o: OptionRecord & { date: string }, voice: Voice): string {
  const start = dayTime(voice, o.date, o.time);
  const endDate = o.endDate && o.endDate > o.date ? o.endDate : null;
  if (!endDate && !o.endTime) return start;
  const end = endDate
    ? dayTime(voice, endDate, o.endTime)
    : voice.formats.time(o.endTime ?? '00:00');
  return voice.say('display', 'timeRange', { start, end });
}

function optionLabel(o: OptionRecord, voice: Voice): string {
  const when = o.date ? optionWhen({ ...o, date: o.date }, voice) : null;
  if (o.label && when) return `${o.label}${voice.say('display', 'separator')}${when}`;
  return o.label ?? when ?? '';
}

/** The open date polls of plans not archived, most recently changed first. */
export function pollsOf(s: Scope): DisplayPoll[] {
  const out: DisplayPoll[] = [];
  const plans = listPlans(s.state).filter((p) => !p.archived);
  const open = plans.flatMap((plan) =>
    plan.polls.filter((p) => p.status === 'open').map((poll) => ({ plan, poll })),
  );
  open.sort((a, b) => (a.poll.updatedAt > b.poll.updatedAt ? -1 : 1));
  for (const { plan, poll } of open.slice(0, MAX_POLLS)) {
    const votes = Object.entries(poll.votes).filter(([pid]) => activePerson(s.state, pid));
    const shown = votes.filter(([pid]) => !s.personIds.size || s.personIds.has(pid));
    out.push({
      ...(s.interactive ? { planId: plan.id, pollId: poll.id } : {}),
      plan: plan.title,
      question: poll.question,
      options: poll.options.map((o) => {
        const voterNames = displayNamesOf(
          s.state,
          votes.filter(([, v]) => v === o.id).map(([personId]) => personId),
        );
        // The wire's word (docs/display.md): display names of who chose it.
        return {
          ...(s.interactive ? { id: o.id } : {}),
          label: optionLabel(o, s.voice),
          voters: voterNames,
        };
      }),
      ...(s.interactive ? { votes: Object.fromEntries(shown) } : {}),
    });
  }
  return out;
}

/** Who an interactive display answers and votes for: its people, or everyone in the family. */
export function peopleAnsweredFor(s: Scope): DisplayPerson[] {
  if (!s.interactive) return [];
  return listPeople(s.state)
    .filter((p) => !s.personIds.size || s.personIds.has(p.id))
    .map((p) => ({ id: p.id, name: PERSON_DERIVED.displayName.of(p) }));
}
