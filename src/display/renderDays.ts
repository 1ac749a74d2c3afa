/**
 * Drawing the days: each event with its times, place, who is going and when to leave; on an
 * interactive display an event opens to its people's going / not going buttons.
 */
import { tapAttend } from './actions.js';
import { button, el } from './dom.js';
import { t } from './page.js';
import { hooks, S, type View, type ViewDay, type ViewEvent } from './state.js';
import { clock, dayHeading, names, onDay, weatherText, when } from './words.js';

/** An event's lines: time, title, then place, who is going, leave-by. */
function eventParts(v: View, ev: ViewEvent): HTMLElement[] {
  const out = [el('span', 't', when(ev)), el('span', 'title', ev.title)];
  const meta: string[] = [];
  if (ev.where) meta.push(ev.where);
  if (ev.going.length) meta.push(t('going', { names: names(ev.going) }));
  else if (v.interactive && v.people.length) meta.push(t('whoIsGoing'));
  if (ev.endDate) meta.push(onDay(ev.endDate, 'untilToday', 'until'));
  if (ev.pending) meta.push(t('waiting'));
  if (meta.length) out.push(el('span', 'meta', meta.join(t('separator'))));
  if (ev.leaveBy) out.push(el('span', 'leave meta', t('leaveBy', { time: clock(ev.leaveBy) })));
  return out;
}

const MARKS = { going: 'answerGoing', out: 'answerOut', maybe: 'answerMaybe' } as const;

function whoEl(v: View, ev: ViewEvent): HTMLElement {
  const g = el('div', 'who');
  g.setAttribute('role', 'group');
  g.setAttribute('aria-label', t('whoIsGoingTo', { title: ev.title }));
  for (const p of v.people) {
    const a = ev.answers ? ev.answers[p.id] : undefined;
    const k = 'go:' + (ev.id || '') + ':' + (ev.occurrence || '') + ':' + p.id;
    const b = button('chip' + (a === 'out' ? ' out' : ''), k, () => tapAttend(ev, p));
    b.textContent = a ? t(MARKS[a], { name: p.name }) : p.name;
    b.setAttribute('aria-pressed', a === 'going' ? 'true' : 'false');
    g.appendChild(b);
  }
  return g;
}

function eventEl(v: View, d: ViewDay, ev: ViewEvent): HTMLElement {
  const li = el('li', 'event');
  const parts = eventParts(v, ev);
  if (!v.interactive || !v.people.length) {
    const head = el('div');
    head.appendChild(parts[0]);
    head.appendChild(parts[1]);
    li.appendChild(head);
    for (let i = 2; i < parts.length; i++) li.appendChild(parts[i]);
    return li;
  }
  const k = 'ev:' + (ev.id || '') + ':' + (ev.occurrence || '') + ':' + d.date;
  const open = S.ui.open === k;
  const b = button('open', k, () => {
    S.ui.open = open ? null : k;
    hooks.render();
  });
  b.setAttribute('aria-expanded', open ? 'true' : 'false');
  const inner = el('span');
  for (const p of parts) inner.appendChild(p);
  b.appendChild(inner);
  li.appendChild(b);
  if (open) li.appendChild(whoEl(v, ev));
  return li;
}

export function dayEl(v: View, day: ViewDay): HTMLElement {
  const s = el('section', 'day');
  s.setAttribute('data-date', day.date);
  // "Today" large, "Thursday 26 November" below.
  const heading = dayHeading(day.date);
  s.appendChild(el('h2', null, heading.name));
  s.appendChild(el('p', 'date', heading.date));
  const w = weatherText(day.weather);
  if (w) {
    const first = v.weatherPlace && day === v.days[0];
    s.appendChild(
      el('p', 'wx', first ? t('weatherPlace', { place: v.weatherPlace || '', weather: w }) : w),
    );
  }
  const ul = el('ul');
  if (!day.events.length) ul.appendChild(el('li', 'empty', t('nothingPlanned')));
  for (const ev of day.events) ul.appendChild(eventEl(v, day, ev));
  s.appendChild(ul);
  return s;
}
