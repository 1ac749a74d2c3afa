/**
 * Context search: one ranked list over a family's entries, calendar events,
 * people and collections, for an assistant or a dashboard that needs "what do we have about
 * X". Without a query it answers what is coming up: the next 7 days of events, open chores
 * and the people of the household.
 *
 * Ranking is MiniSearch's BM25 over the index of searchIndex.ts: every word of the query must
 * match (as a word, a prefix of one, or with a small typo), title matches count three times a
 * match in the other values, and text is folded like entry search (case, accents). Events are
 * found by their series and shown at their first occurrence in the next 30 days; events with
 * none are left out. Archived entries, deleted people and removed occurrences never appear.
 *
 * Answers are kept until the family's next write (and for the day: "today" moves them), so
 * repeating a search costs a cache lookup.
 */
import { entriesOf } from '../collections/listing.js';
import { visibleData } from '../collections/data.js';
import type { Collection, Entry, EntryStatus } from '../collections/types.js';
import { listEvents } from '../calendar/listing.js';
import type { EventRecord } from '../calendar/types.js';
import { listPeople, type Person } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import { addDays, todayIn } from '../shared/time.js';
import { entryDoc, type ContextDoc, type ResultType } from './documents.js';
import { contextIndex } from './searchIndex.js';
import { around, clip, SNIPPET_MAX } from './snippet.js';
import { nextOccurrence } from './upcoming.js';
import { onFamilyClock, type Timing as EventTiming } from '../calendar/series.js';

export interface ContextResult {
  type: ResultType;
  /** Entry or event id, person id, or collection key. */
  id: string;
  title: string;
  /** The entry's or event's collection; the collection's own key for a collection. */
  collectionKey?: string;
  /**
   * An event occurrence's date (on the family's clock, also for an event in another zone); an
   * entry's first date field (e.g. a chore's due date).
   */
  date?: string;
  /** An event occurrence's start time on the family's clock, HH:mm. */
  time?: string;
  status?: EntryStatus;
  snippet: string;
  /** Relevance (higher is better); 0 in the overview, which is not ranked. */
  score: number;
}

/** The `limit` of context search: results per answer. */
export const CONTEXT_LIMIT = { min: 1, max: 50, default: 20 } as const;
/** Events are searched among occurrences from today through this many days (today included). */
export const SEARCH_DAYS = 30;
/** The overview shows events from today through this many days (today included). */
export const OVERVIEW_DAYS = 7;
/** At most this many events and this many chores in the overview. */
export const OVERVIEW_MAX = 50;

// ---- snippets -------------------------------------------------------------------------------

/** Event timing as stored, or as the API shows it (unset times null). */
interface Timing extends EventTiming {
  where?: unknown;
}

/** Dates and times on the family's clock (`tz`), place. */
function eventSummary(d: Timing, tz: string): string {
  const at = onFamilyClock(d, tz);
  const when = [at.endDate !== at.date ? `${at.date} – ${at.endDate}` : at.date];
  if (!at.allDay) when.push(at.endTime ? `${at.time}–${at.endTime}` : at.time!);
  else when.push('all day');
  return [
    when.join(' '),
    ...(typeof d.where === 'string' && d.where ? [clip(d.where, 80)] : []),
  ].join(' · ');
}

function personSnippet(p: Person): string {
  const parts: string[] = [p.kind];
  if (p.familiarName && p.familiarName !== p.name) parts.push(p.name);
  return clip(parts.join(' · '));
}

function collectionSnippet(c: Collection): string {
  if (c.description) return clip(c.description);
  return c.fields.length ? clip(`Fields: ${c.fields.map((f) => f.label).join(', ')}`) : '';
}

/** An entry's first date field with a value (a chore's due date, a meal's date). */
function entryDate(c: Collection, e: Entry): string | undefined {
  const data = visibleData(c, e.data);
  for (const f of c.fields) {
    const v = data[f.key];
    if (f.type === 'date' && typeof v === 'string') return v;
  }
  return undefined;
}

// ---- search ---------------------------------------------------------------------------------

/**
 * A result as the API shows it, or null for an event with no occurrence in [from, to].
 * Snippets stay within SNIPPET_MAX characters (an event's timing and place come first, the
 * matched words after them in what room is left, at least 60 characters).
 */
function resultOf(
  doc: ContextDoc,
  score: number,
  terms: readonly string[],
  from: string,
  to: string,
  tz: string,
): ContextResult | null {
  const text = doc.snippetText ?? doc.text;
  switch (doc.type) {
    case 'event': {
      const ev = doc.record as EventRecord;
      const o = nextOccurrence(ev, from, to, tz);
      if (!o) return null;
      const summary = eventSummary(o.data, tz);
      const matched = around(text, terms, Math.max(60, SNIPPET_MAX - summary.length - 3));
      const at = onFamilyClock(o.data, tz);
      return {
        type: 'event',
        id: ev.id,
        title: o.title,
        collectionKey: ev.collectionKey,
        date: at.date,
        ...(at.time !== null ? { time: at.time } : {}),
        status: o.status,
        snippet: matched ? `${summary} · ${matched}` : summary,
        score,
      };
    }
    case 'entry': {
      const e = doc.record as Entry;
      const matched = around(text, terms);
      const date = entryDate(doc.collection!, e);
      return {
        type: 'entry',
        id: e.id,
        title: e.title,
        collectionKey: e.collectionKey,
        ...(date ? { date } : {}),
        status: e.status,
        snippet: matched ?? clip(doc.text),
        score,
      };
    }
    case 'person': {
      const p = doc.record as Person;
      return { type: 'person', id: p.id, title: doc.title, snippet: personSnippet(p), score };
    }
    case 'collection': {
      const c = doc.record as Collection;
      return {
        type: 'collection',
        id: c.key,
        title: c.name,
        collectionKey: c.key,
        snippet: around(text, terms) ?? collectionSnippet(c),
        score,
      };
    }
    default: {
      const never: never = doc.type;
      throw new Error(`unknown result type ${String(never)}`);
    }
  }
}

const round = (score: number) => Math.round(score * 1000) / 1000;

/** The best `limit` results for `query`, as of `now` (which decides the events' window). */
export function searchContext(
  state: FamilyState,
  query: string,
  limit: number,
  now: Date,
): ContextResult[] {
  const today = todayIn(state.family.timezone, now);
  const answers = state.derived('context:search', () => new Map<string, ContextResult[]>());
  const key = `${today}\u0000${limit}\u0000${query}`;
  const hit = answers.get(key);
  if (hit) return hit;
  const to = addDays(today, SEARCH_DAYS - 1);
  const out: ContextResult[] = [];
  for (const h of contextIndex(state).search(query)) {
    const r = resultOf(h.doc, round(h.score), h.terms, today, to, state.family.timezone);
    if (!r) continue;
    out.push(r);
    if (out.length === limit) break;
  }
  if (answers.size >= 500) answers.clear();
  answers.set(key, out);
  return out;
}

// ---- overview -------------------------------------------------------------------------------

function dueFirst(a: { due?: string; e: Entry }, b: { due?: string; e: Entry }): number {
  if (a.due !== b.due) {
    if (a.due === undefined) return 1;
    if (b.due === undefined) return -1;
    return a.due < b.due ? -1 : 1;
  }
  return 0; // keep newest first among equals (the listing's order)
}

/**
 * What is coming up, as of `now`: the occurrences of the next 7 days (in calendar order, at
 * most 50), open chores (active, soonest due first, at most 50), then the people.
 */
export function contextOverview(state: FamilyState, now: Date): ContextResult[] {
  const today = todayIn(state.family.timezone, now);
  return state.derived(`context:overview:${today}`, () => {
    const out: ContextResult[] = [];
    const { events } = listEvents(
      state,
      { from: today, to: addDays(today, OVERVIEW_DAYS - 1), limit: OVERVIEW_MAX },
      now,
    );
    const tz = state.family.timezone;
    for (const ev of events) {
      const at = onFamilyClock(ev.data as unknown as Timing, tz);
      out.push({
        type: 'event',
        id: ev.id,
        title: ev.title,
        collectionKey: ev.calendarKey,
        date: at.date,
        ...(at.time !== null ? { time: at.time } : {}),
        status: ev.status,
        snippet: eventSummary(ev.data as unknown as Timing, tz),
        score: 0,
      });
    }
    const chores = state.get<Collection>('collections', 'chores');
    if (chores) {
      const open = entriesOf(state, 'chores')
        .filter((e) => e.status === 'active')
        .map((e) => ({ e, due: entryDate(chores, e) }));
      open.sort(dueFirst);
      for (const { e, due } of open.slice(0, OVERVIEW_MAX)) {
        out.push({
          type: 'entry',
          id: e.id,
          title: e.title,
          collectionKey: 'chores',
          ...(due ? { date: due } : {}),
          status: e.status,
          snippet: clip(entryDoc(chores, e)?.text ?? ''),
          score: 0,
        });
      }
    }
    for (const p of listPeople(state)) {
      out.push({
        type: 'person',
        id: p.id,
        title: p.familiarName ?? p.name,
        snippet: personSnippet(p),
        score: 0,
      });
    }
    return out;
  });
}
