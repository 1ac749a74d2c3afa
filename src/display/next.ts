/**
 * The clock, the night and the bar at the top ("Now: Swimming until 18:00 · Next: 18:30 Piano
 * lesson · Leave by 18:10"), worked out by the page from its clock each second, so they move
 * on as the day does.
 */
import { $, t } from './page.js';
import { local, S, view, type View, type ViewEvent } from './state.js';
import { clock, dayHeading } from './words.js';

function isNight(v: View, time: string): boolean {
  const n = v.night;
  if (!n) return false;
  return n.from < n.to ? time >= n.from && time < n.to : time >= n.from || time < n.to;
}

function nextText(v: View, now: { date: string; time: string }): string {
  let current: ViewEvent | null = null;
  const sep = t('separator');
  for (const d of v.days) {
    if (d.date < now.date) continue;
    for (const ev of d.events) {
      if (!ev.time) continue;
      if (d.date === now.date && ev.time <= now.time) {
        if (ev.endTime && ev.endTime > now.time && !current) current = ev;
        continue;
      }
      const what = { time: clock(ev.time), title: ev.title };
      let text =
        d.date === now.date
          ? t('next', what)
          : t('nextOnDay', Object.assign({ day: dayHeading(d.date).name }, what));
      if (ev.leaveBy) text += sep + t('leaveBy', { time: clock(ev.leaveBy) });
      return current ? nowText(current) + sep + text : text;
    }
  }
  return current ? nowText(current) : t('nothingMore');
}
function nowText(ev: ViewEvent): string {
  return t('now', { title: ev.title, time: ev.endTime ? clock(ev.endTime) : '' });
}

let lastNext: string | null = null;
/** The clock, night mode and the bar at the top, as of now. */
export function tick(): void {
  if (!S.content) return;
  const now = local(Date.now());
  $('clock').textContent = clock(now.time);
  const night = isNight(S.content, now.time);
  const root = document.documentElement;
  if (night !== (root.className === 'night')) root.className = night ? 'night' : '';
  const v = view();
  const text = v ? nextText(v, now) : '';
  if (text !== lastNext) {
    $('next').textContent = text;
    lastNext = text;
  }
}
