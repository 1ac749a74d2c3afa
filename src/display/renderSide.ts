/**
 * Drawing the chores, the lists and the open polls. On an interactive display every chore and
 * item is a button that ticks it off or back, each list has a field to add to it, and a poll
 * lets one of its people vote. What the person at the screen chose or typed survives a redraw.
 */
import { tapAdd, tapTick, tapVote } from './actions.js';
import { button, el } from './dom.js';
import { t } from './page.js';
import {
  hooks,
  S,
  type View,
  type ViewChore,
  type ViewItem,
  type ViewList,
  type ViewPoll,
} from './state.js';
import { names, onDay } from './words.js';

/** A chore or list item: a button that ticks it off (or back) on an interactive display. */
function itemEl(
  v: View,
  collection: string,
  item: ViewItem | ViewChore,
  done: boolean,
  metaText: string,
  extra: HTMLElement | null,
): HTMLElement {
  const li = el('li', 'item' + (done ? ' done' : ''));
  const title = el(
    'span',
    'title',
    done && !v.interactive ? t('doneMark', { title: item.title }) : item.title,
  );
  const meta = metaText || item.pending ? el('span', 'meta', metaText) : null;
  if (meta && extra) meta.appendChild(extra);
  if (meta && item.pending)
    meta.appendChild(el('span', 'pending', (metaText ? t('separator') : '') + t('waiting')));
  if (!v.interactive || !item.id) {
    li.appendChild(title);
    if (meta) li.appendChild(meta);
    return li;
  }
  const b = button('tick', 'tick:' + collection + ':' + item.id, () =>
    tapTick(collection, item, done),
  );
  b.setAttribute('aria-pressed', done ? 'true' : 'false');
  // The tick itself is drawn by the style (a mark, not a word).
  b.appendChild(el('span', 'box'));
  const text = el('span');
  text.appendChild(title);
  if (meta) text.appendChild(meta);
  b.appendChild(text);
  li.appendChild(b);
  return li;
}

export function choresEl(v: View): HTMLElement {
  const c = el('section', 'chores');
  c.id = 'chores';
  c.appendChild(el('h2', null, t('chores')));
  const ul = el('ul');
  if (!v.chores.due.length && !v.chores.done.length)
    ul.appendChild(el('li', 'empty', t('noChores')));
  const sep = t('separator');
  for (const ch of v.chores.due) {
    const due = ch.due && !ch.overdue ? onDay(ch.due, 'dueToday', 'due') : '';
    const text = [names(ch.who), due].filter(Boolean).join(sep);
    const late = ch.overdue
      ? el('span', 'overdue', (text ? sep : '') + onDay(ch.due || '', null, 'overdueSince'))
      : null;
    ul.appendChild(itemEl(v, 'chores', ch, false, text, late));
  }
  for (const ch of v.chores.done)
    ul.appendChild(itemEl(v, 'chores', ch, true, names(ch.who), null));
  c.appendChild(ul);
  return c;
}

function addForm(l: ViewList): HTMLElement {
  const f = el('form', 'add');
  const id = 'add-' + l.key;
  const label = el('label', null, t('addTo', { list: l.name }));
  label.htmlFor = id;
  const input = el('input');
  input.id = id;
  input.setAttribute('data-k', id);
  input.autocomplete = 'off';
  input.maxLength = 200;
  input.value = S.ui.drafts[l.key] || '';
  input.addEventListener('input', () => {
    S.ui.drafts[l.key] = input.value;
  });
  // Content that came while someone was typing is drawn when they leave the field.
  input.addEventListener('blur', () => {
    if (S.stale) setTimeout(() => hooks.render(), 0);
  });
  const go = el('button', 'act', t('add'));
  go.type = 'submit';
  f.appendChild(label);
  f.appendChild(input);
  f.appendChild(go);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    const title = input.value.trim();
    if (!title) return;
    S.ui.drafts[l.key] = '';
    tapAdd(l, title);
  });
  return f;
}

export function listEl(v: View, l: ViewList): HTMLElement {
  const s = el('section', 'list');
  s.setAttribute('data-list', l.key);
  s.appendChild(el('h2', null, l.name));
  const ul = el('ul');
  if (!l.items.length) ul.appendChild(el('li', 'empty', t('emptyList')));
  for (const it of l.items) ul.appendChild(itemEl(v, l.key, it, it.done, '', null));
  s.appendChild(ul);
  if (v.interactive) s.appendChild(addForm(l));
  return s;
}

/** "Who is voting?" and a button for each of the display's people. */
function votersEl(v: View, p: ViewPoll, pollId: string, voter: string | null): HTMLElement {
  const g = el('div', 'who');
  g.setAttribute('role', 'group');
  g.setAttribute('aria-label', t('whoIsVotingOn', { question: p.question }));
  for (const person of v.people) {
    const b = button('chip', 'voter:' + pollId + ':' + person.id, () => {
      S.ui.voter[pollId] = voter === person.id ? null : person.id;
      hooks.render();
    });
    b.textContent = person.name;
    b.setAttribute('aria-pressed', voter === person.id ? 'true' : 'false');
    g.appendChild(b);
  }
  return g;
}

function pollEl(v: View, p: ViewPoll): HTMLElement {
  const box = el('div', 'poll');
  box.appendChild(el('h3', null, p.question));
  box.appendChild(el('span', 'meta', p.plan + (p.pending ? t('separator') + t('waiting') : '')));
  const pollId = v.interactive && v.people.length && p.pollId ? p.pollId : null;
  const voter = pollId ? S.ui.voter[pollId] || null : null;
  if (pollId) {
    box.appendChild(el('span', 'meta', t('whoIsVoting')));
    box.appendChild(votersEl(v, p, pollId, voter));
  }
  for (const o of p.options) {
    const who = o.voters.length ? names(o.voters) : t('noVotes');
    if (!pollId) {
      const line = el('p', 'option-ro');
      line.appendChild(el('span', 'title', o.label));
      line.appendChild(el('span', 'meta', who));
      box.appendChild(line);
      continue;
    }
    const b = button('option', 'option:' + pollId + ':' + (o.id || ''), () => tapVote(v, p, o));
    const mine = !!voter && !!p.votes && p.votes[voter] === o.id;
    b.setAttribute('aria-pressed', mine ? 'true' : 'false');
    b.appendChild(el('span', 'title', o.label));
    b.appendChild(el('span', 'meta', who));
    box.appendChild(b);
  }
  return box;
}

export function pollsEl(v: View): HTMLElement {
  const s = el('section', 'polls');
  s.id = 'polls';
  s.appendChild(el('h2', null, t('polls')));
  for (const p of v.polls) s.appendChild(pollEl(v, p));
  return s;
}
