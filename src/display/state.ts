/**
 * The display script's state: the content the daemon sent (also kept in localStorage, so a
 * reload while offline still shows it), the taps not yet confirmed, and the view — the content
 * with those taps laid over it, so a tap shows at once and still shows while the network is
 * away (docs/display.md, "Offline").
 */
import type { DisplayContent } from '../domain/displays/view.js';
import { localParts } from '../locale/displayFormat.js';
import { initialContent } from './page.js';

/** What a tap asks of the daemon (`POST /display/<token>/actions`); `ref` names an add. */
export type Action =
  | { action: 'done' | 'undone'; collection: string; entryId: string }
  | { action: 'add'; collection: string; title: string }
  | { action: 'remove'; collection: string; entryId?: string; ref?: string }
  | {
      action: 'attend';
      eventId: string;
      occurrence?: string;
      personId: string;
      going: boolean | null;
    }
  | { action: 'vote'; planId: string; pollId: string; personId: string; optionIds: string[] };

/** A tap not yet confirmed: sent one by one, in order, with the key made when it was tapped. */
export interface Queued {
  key: string;
  body: Action;
  label: string;
  /** An add's: the ids of the items of its title already there at the tap. */
  before?: string[];
}

/** Marked on what a tap changed until the daemon confirms it. */
interface Pending {
  pending?: boolean;
}
type Content = DisplayContent;
export type ViewEvent = Content['days'][number]['events'][number] & Pending;
export type ViewDay = Omit<Content['days'][number], 'events'> & { events: ViewEvent[] };
export type ViewChore = Content['chores']['due'][number] & Pending;
/** A list item; one added at the screen has no id until its add is confirmed, but a `ref`. */
export type ViewItem = Omit<Content['lists'][number]['items'][number], 'id'> &
  Pending & { id?: string | null; ref?: string };
export type ViewList = Omit<Content['lists'][number], 'items'> & { items: ViewItem[] };
export type ViewPoll = Content['polls'][number] & Pending;
export type ViewOption = ViewPoll['options'][number];
export type ViewPerson = Content['people'][number];
export type View = Omit<Content, 'days' | 'chores' | 'lists' | 'polls'> & {
  days: ViewDay[];
  chores: { due: ViewChore[]; done: ViewChore[] };
  lists: ViewList[];
  polls: ViewPoll[];
};

const PATH = location.pathname.replace(/[/]+$/, '');
export const KEYS = {
  /** The page's own address, without a trailing slash: its stream and actions are below it. */
  path: PATH,
  content: 'household-display:' + location.pathname,
  queue: 'household-display-queue:' + PATH,
  added: 'household-display-added:' + PATH,
};
/** How long the undo of a tap is offered, and how long a confirmed tap stays laid over. */
export const UNDO_MS = 6000;
export const ACK_MS = 3000;

export function load<T>(k: string, fallback: T): T {
  try {
    const v = JSON.parse(localStorage.getItem(k) || 'null') as T | null;
    return v === null || v === undefined ? fallback : v;
  } catch {
    return fallback;
  }
}
export function keep(k: string, v: unknown): void {
  try {
    localStorage.setItem(k, JSON.stringify(v));
  } catch {
    // Full, or storage is off: the page goes on without keeping it.
  }
}

export const S = {
  content: initialContent() || load<Content | null>(KEYS.content, null),
  /** Taps not yet confirmed, oldest first. */
  queue: load<Queued[]>(KEYS.queue, []),
  /** Taps confirmed in the last moments (the stream's next content may not show them yet). */
  acked: [] as (Queued & { until: number })[],
  /** The entry each confirmed add made, by the add's Idempotency-Key (its undo names it). */
  added: load<Record<string, string>>(KEYS.added, {}),
  since: Date.now(),
  stopped: false,
  /** What the person at the screen opened or chose: kept across redraws. */
  ui: {
    open: null as string | null,
    voter: {} as Record<string, string | null>,
    drafts: {} as Record<string, string>,
  },
  /** Content came while someone was typing: drawn when they leave the field. */
  stale: false,
};

/**
 * What the parts above the state do, set by main.ts: the state's users call up through these
 * rather than importing the parts that import them.
 */
export const hooks = {
  render: (_force?: boolean): void => undefined,
  showStatus: (): void => undefined,
};

/** The family's local date and time at ms. */
export function local(ms: number): { date: string; time: string } {
  return localParts(ms, S.content ? S.content.timezone : 'UTC');
}

export function each<T>(xs: T[], fn: (x: T, i: number) => void): void {
  for (let i = 0; i < xs.length; i++) fn(xs[i], i);
}
export function personName(v: View, id: string): string | null {
  for (const p of v.people) if (p.id === id) return p.name;
  return null;
}
function withName(names: string[], name: string | null, on: boolean): string[] {
  const out = names.filter((n) => n !== name);
  if (on && name) out.push(name);
  return out;
}

function tickIn(v: View, b: Action & { action: 'done' | 'undone' }, pending: boolean): void {
  const done = b.action === 'done';
  if (b.collection === 'chores') {
    const from = done ? v.chores.due : v.chores.done;
    const to = done ? v.chores.done : v.chores.due;
    for (let i = 0; i < from.length; i++) {
      if (from[i].id !== b.entryId) continue;
      const c = from.splice(i, 1)[0];
      c.pending = pending;
      to.push(c);
      return;
    }
    return;
  }
  each(v.lists, (l) => {
    if (l.key !== b.collection) return;
    each(l.items, (it) => {
      if (it.id === b.entryId) {
        it.done = done;
        it.pending = pending;
      }
    });
  });
}
function addIn(v: View, b: Action & { action: 'add' }, a: Queued & Pending): void {
  each(v.lists, (l) => {
    if (l.key !== b.collection) return;
    const id = S.added[a.key] || null;
    // Confirmed and already in the content the stream sent: shown once. Not confirmed yet,
    // but an item of that title the list did not have at the tap: the stream was first.
    if (id && l.items.some((it) => it.id === id)) return;
    const before = a.before || [];
    const fresh = (it: ViewItem) => it.title === b.title && !!it.id && before.indexOf(it.id) < 0;
    if (!id && l.items.some(fresh)) return;
    l.items.push({ id, ref: a.key, title: b.title, done: false, pending: a.pending });
  });
}
function removeIn(v: View, b: Action & { action: 'remove' }): void {
  each(v.lists, (l) => {
    if (l.key !== b.collection) return;
    l.items = l.items.filter(
      (it) =>
        !(
          (b.entryId && it.id === b.entryId) ||
          (b.ref && (it.ref === b.ref || it.id === S.added[b.ref]))
        ),
    );
  });
}
function attendIn(v: View, b: Action & { action: 'attend' }, pending: boolean): void {
  const name = personName(v, b.personId);
  each(v.days, (d) => {
    each(d.events, (ev) => {
      if (ev.id !== b.eventId || (ev.occurrence || null) !== (b.occurrence || null)) return;
      const answers = ev.answers || (ev.answers = {});
      if (b.going === null) delete answers[b.personId];
      else answers[b.personId] = b.going ? 'going' : 'out';
      ev.going = withName(ev.going, name, b.going === true);
      ev.pending = pending;
    });
  });
}
function voteIn(v: View, b: Action & { action: 'vote' }, pending: boolean): void {
  const name = personName(v, b.personId);
  each(v.polls, (p) => {
    if (p.planId !== b.planId || p.pollId !== b.pollId) return;
    const choice = b.optionIds.length ? b.optionIds[0] : null;
    const votes = p.votes || (p.votes = {});
    if (choice) votes[b.personId] = choice;
    else delete votes[b.personId];
    each(p.options, (o) => {
      o.voters = withName(o.voters, name, o.id === choice);
    });
    p.pending = pending;
  });
}

/** The content with every unconfirmed (and just confirmed) tap laid over it. */
export function view(): View | null {
  if (!S.content) return null;
  const v = JSON.parse(JSON.stringify(S.content)) as View;
  const now = Date.now();
  S.acked = S.acked.filter((a) => a.until > now);
  const taps: (Queued & { pending: boolean })[] = [];
  for (const a of S.acked)
    taps.push({ key: a.key, body: a.body, label: a.label, before: a.before, pending: false });
  for (const q of S.queue)
    taps.push({ key: q.key, body: q.body, label: q.label, before: q.before, pending: true });
  for (const a of taps) {
    const b = a.body;
    switch (b.action) {
      case 'done':
      case 'undone':
        tickIn(v, b, a.pending);
        break;
      case 'add':
        addIn(v, b, a);
        break;
      case 'remove':
        removeIn(v, b);
        break;
      case 'attend':
        attendIn(v, b, a.pending);
        break;
      case 'vote':
        voteIn(v, b, a.pending);
        break;
    }
  }
  return v;
}
