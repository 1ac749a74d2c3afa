/**
 * Taps, their queue and their undo (docs/display.md, "Touch" and "Offline").
 *
 * A tap becomes an action with an Idempotency-Key made then and there, goes to the end of a
 * queue kept in localStorage (so a reload or a dropped network loses nothing) and shows at once
 * (the view lays it over the content). The queue is sent one action at a time, in order; an
 * action whose answer does not arrive (no network, a 5xx, 429, or its first try still running)
 * is sent again later with the same key, so the daemon applies it once however often it is
 * sent. One the family refuses (the chore was deleted, the poll settled: 4xx) leaves the queue
 * and is shown in the notice bar until dismissed, never dropped silently.
 *
 * For a few seconds after each tap an Undo button offers its inverse — itself an action:
 * done ↔ undone, add → remove of what it added, attend → the previous answer, vote → the
 * previous vote.
 */
import { $, t } from './page.js';
import {
  ACK_MS,
  hooks,
  keep,
  KEYS,
  personName,
  S,
  UNDO_MS,
  type Action,
  type Queued,
  type View,
  type ViewEvent,
  type ViewItem,
  type ViewChore,
  type ViewList,
  type ViewOption,
  type ViewPerson,
  type ViewPoll,
} from './state.js';

let sending = false;
let sendTimer: ReturnType<typeof setTimeout> | null = null;
let sendRetry = 1000;
let undoTimer: ReturnType<typeof setTimeout> | null = null;
let notices: string[] = [];

function newKey(): string {
  const a = new Uint8Array(16);
  if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(a);
  else for (let i = 0; i < a.length; i++) a[i] = Math.floor(Math.random() * 256);
  return (
    'tap-' + Array.prototype.map.call(a, (b: number) => ('0' + b.toString(16)).slice(-2)).join('')
  );
}
function saveQueue(): void {
  keep(KEYS.queue, S.queue);
}

export function notice(text: string): void {
  notices.push(text);
  if (notices.length > 3) notices.shift();
  $('notice-text').textContent = notices.join(t('separator'));
  $('notice').hidden = false;
}
export function clearNotices(): void {
  notices = [];
  $('notice').hidden = true;
}
function hideUndo(): void {
  $('undo').hidden = true;
  if (undoTimer) clearTimeout(undoTimer);
  undoTimer = null;
}
function offerUndo(label: string, undo: (() => void) | null): void {
  hideUndo();
  $('undo-text').textContent = label;
  const b = $('undo-button');
  b.hidden = !undo;
  b.onclick = () => {
    hideUndo();
    if (undo) undo();
  };
  $('undo').hidden = false;
  undoTimer = setTimeout(hideUndo, UNDO_MS);
}

function enqueue(body: Action, label: string, before?: string[]): Queued {
  const item: Queued = { key: newKey(), body, label, before };
  S.queue.push(item);
  saveQueue();
  hooks.render(true);
  hooks.showStatus();
  flush();
  return item;
}
/** A tap: its action now, and for a few seconds its inverse (made when Undo is tapped). */
function tap(
  body: Action,
  label: string,
  inverse: ((item: Queued) => Action) | null,
  before?: string[],
): void {
  const item = enqueue(body, label, before);
  offerUndo(label, inverse ? () => void enqueue(inverse(item), t('undoOf', { label })) : null);
}

export function tapTick(collection: string, item: ViewItem | ViewChore, done: boolean): void {
  const entryId = item.id || '';
  const body: Action = { action: done ? 'undone' : 'done', collection, entryId };
  const back: Action = { action: done ? 'done' : 'undone', collection, entryId };
  tap(body, t(done ? 'backOn' : 'tickedOff', { title: item.title }), () => back);
}
export function tapAdd(l: ViewList, title: string): void {
  // The items of that title already there: the stream may bring the new one before the
  // action's answer names it, and it must not be shown twice meanwhile (state.ts, addIn).
  const before: string[] = [];
  for (const it of l.items) if (it.title === title && it.id) before.push(it.id);
  tap(
    { action: 'add', collection: l.key, title },
    t('addedTo', { list: l.name, title }),
    (item) => ({ action: 'remove', collection: l.key, ref: item.key }),
    before,
  );
}
function attendBody(ev: ViewEvent, personId: string, going: boolean | null): Action {
  const b: Action = { action: 'attend', eventId: ev.id || '', personId, going };
  if (ev.occurrence) b.occurrence = ev.occurrence;
  return b;
}
export function tapAttend(ev: ViewEvent, person: ViewPerson): void {
  const was = ev.answers ? ev.answers[person.id] : undefined;
  const going = was !== 'going';
  const before =
    was === 'going' ? true : was === 'out' ? false : was === undefined ? null : 'maybe';
  const what = { name: person.name, title: ev.title };
  tap(
    attendBody(ev, person.id, going),
    t(going ? 'isGoingTo' : 'isNotGoingTo', what),
    // A "maybe" is not one of the display's answers, so that one tap has no undo.
    before === 'maybe' ? null : () => attendBody(ev, person.id, before),
  );
}
export function tapVote(v: View, p: ViewPoll, o: ViewOption): void {
  const voter = p.pollId ? S.ui.voter[p.pollId] : null;
  if (!voter) {
    notice(t('chooseVoter'));
    return;
  }
  const was = (p.votes && p.votes[voter]) || null;
  const poll = { action: 'vote' as const, planId: p.planId || '', pollId: p.pollId || '' };
  const body: Action = { ...poll, personId: voter, optionIds: was === o.id ? [] : [o.id || ''] };
  const back: Action = { ...poll, personId: voter, optionIds: was ? [was] : [] };
  const name = personName(v, voter) || '';
  const label =
    was === o.id ? t('tookBackVote', { name }) : t('votedFor', { name, option: o.label });
  tap(body, label, () => back);
}

/** What is sent for a queued action: the undo of an add names the entry that add made. */
function wire(item: Queued): Action | null {
  const b = JSON.parse(JSON.stringify(item.body)) as Action;
  if (b.action === 'remove' && b.ref) {
    const id = S.added[b.ref];
    delete b.ref;
    if (!id) return null;
    b.entryId = id;
  }
  return b;
}
function later(ms: number): void {
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = setTimeout(() => {
    sendTimer = null;
    flush();
  }, ms || sendRetry);
  if (!ms) sendRetry = Math.min(sendRetry * 2, 30000);
}

interface Answer {
  error?: string;
  change?: { object?: { id: string } } | null;
}
function settle(item: Queued, status: number, json: Answer, retryAfter: string | null): void {
  // Not answered for good: the same action, with the same key, goes again later.
  const again =
    status === 429 ||
    status >= 500 ||
    (status === 409 && /still being processed/.test(json.error || ''));
  if (again) return later(status === 429 ? Math.max(1, Number(retryAfter) || 5) * 1000 : 0);
  S.queue.shift();
  saveQueue();
  sendRetry = 1000;
  if (status >= 200 && status < 300) {
    S.acked.push({ ...item, until: Date.now() + ACK_MS });
    if (item.body.action === 'add' && json.change && json.change.object) {
      S.added[item.key] = json.change.object.id;
      const keys = Object.keys(S.added);
      if (keys.length > 50) delete S.added[keys[0]];
      keep(KEYS.added, S.added);
    }
    setTimeout(() => hooks.render(), ACK_MS + 50);
  } else {
    const error = json.error || t('answered', { status });
    notice(t('notDone', { label: item.label, error }));
  }
  hooks.render();
  hooks.showStatus();
  flush();
}

/** Sends the oldest queued action, then the next, until the queue is empty or cannot go. */
export function flush(): void {
  if (sending || S.stopped || !S.queue.length || sendTimer) return;
  const item = S.queue[0];
  const body = wire(item);
  if (!body) {
    S.queue.shift();
    saveQueue();
    notice(t('nothingToUndo', { label: item.label }));
    hooks.render();
    return flush();
  }
  sending = true;
  fetch(KEYS.path + '/actions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': item.key },
    body: JSON.stringify(body),
    cache: 'no-store',
  }).then(
    (r) =>
      r
        .json()
        .then(
          (j: Answer) => j,
          (): Answer => ({}),
        )
        .then((j) => {
          sending = false;
          settle(item, r.status, j || {}, r.headers.get('retry-after'));
        }),
    () => {
      sending = false;
      hooks.showStatus();
      later(0);
    },
  );
}

/** Sends what is queued now: the network or the stream is back. */
export function kick(): void {
  if (sendTimer) {
    clearTimeout(sendTimer);
    sendTimer = null;
  }
  sendRetry = 1000;
  flush();
}
