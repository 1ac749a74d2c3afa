/**
 * The family display's page parts (docs/display.md): its style and its script, inline in the
 * page and allowed by their hashes in the page's CSP (nothing is loaded from anywhere else).
 *
 * The script draws the content it is given (the page carries the first one), follows the
 * display's stream, keeps the last content it had (also in localStorage, so a reload while
 * offline still shows it), says when it is offline, and reconnects by itself with a growing
 * pause. A link that was turned off (the stream says `gone`, or the page answers 404 on a
 * reconnect) stops it for good. No service worker: a LAN address is not a secure context.
 */
import { createHash } from 'node:crypto';

export const DISPLAY_CSS = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#111418;--muted:#3d4550;--card:#f1f3f5;--line:#c9ced4;--accent:#1d5c3a;--warn:#8a1c1c;--ok:#1d5c3a}
@media (prefers-color-scheme:dark){:root{--bg:#0b0d10;--fg:#f4f6f8;--muted:#c3cad2;--card:#181c21;--line:#3a424c;--accent:#8fd6a8;--warn:#ffb4a8;--ok:#8fd6a8}}
*{box-sizing:border-box}
html{font-size:clamp(18px,2.3vw,48px)}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{display:flex;align-items:baseline;justify-content:space-between;gap:1rem;padding:.8rem 1.2rem .4rem;border-bottom:2px solid var(--line)}
h1{font-size:1.5rem;margin:0;overflow-wrap:anywhere}
#clock{font-size:3rem;font-weight:700;font-variant-numeric:tabular-nums;letter-spacing:.02em}
#status{font-size:.8rem;font-weight:600;padding:.1rem .6rem;border-radius:1rem;border:2px solid currentColor}
#status[data-state=live]{color:var(--ok)}
#status[data-state=offline],#status[data-state=gone]{color:var(--warn)}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:1rem;padding:1rem 1.2rem}
@media (min-width:900px) and (min-aspect-ratio:4/3){main{grid-template-columns:1.35fr 1fr 1fr 1.1fr}}
section{background:var(--card);border:2px solid var(--line);border-radius:.8rem;padding:.7rem .9rem;min-width:0}
h2{font-size:1.3rem;margin:0}
.date{font-size:.85rem;font-weight:600;color:var(--muted);margin:0 0 .4rem}
.wx{font-size:.85rem;color:var(--muted);margin:0 0 .5rem}
ul{list-style:none;margin:0;padding:0}
li{padding:.45rem 0;border-top:1px solid var(--line)}
li:first-child{border-top:0}
.t{display:block;font-weight:700;font-variant-numeric:tabular-nums}
.title{font-weight:600;overflow-wrap:break-word}
.meta{font-size:.85rem;color:var(--muted);overflow-wrap:anywhere}
.leave{font-size:.85rem;font-weight:700;color:var(--accent)}
.overdue{color:var(--warn);font-weight:700}
.done .title{text-decoration:line-through}
.empty{color:var(--muted)}
body.gone main{opacity:.35}
`;

export const DISPLAY_JS = `(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const KEY = 'household-display:' + location.pathname;
  let content = null;
  try { content = JSON.parse($('initial').textContent); } catch (e) { content = null; }
  if (!content) { try { content = JSON.parse(localStorage.getItem(KEY)); } catch (e) { content = null; } }
  let since = Date.now();
  let stopped = false;
  let retry = 1000;
  let source = null;

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  };
  const hhmm = (ms) => new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit', minute: '2-digit', timeZone: content ? content.timezone : undefined,
  }).format(new Date(ms));
  const status = (state, text) => { const s = $('status'); s.dataset.state = state; s.textContent = text; };
  const save = () => { try { localStorage.setItem(KEY, JSON.stringify(content)); } catch (e) { /* full or off */ } };
  const day = (d) => (content && d === content.today ? 'today'
    : new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(d + 'T12:00:00Z')));
  const wx = (w) => {
    if (!w) return null;
    const parts = [];
    if (w.summary) parts.push(w.summary);
    if (w.minC !== null && w.maxC !== null) parts.push(Math.round(w.minC) + '–' + Math.round(w.maxC) + ' °C');
    if (w.precipitationProbability !== null) parts.push(Math.round(w.precipitationProbability) + '% rain');
    return parts.join(' · ');
  };

  function render() {
    if (!content) return;
    $('name').textContent = content.family + ' · ' + content.name;
    const main = $('board');
    main.replaceChildren();
    for (const day of content.days) {
      const s = el('section', 'day');
      s.dataset.date = day.date;
      // "Today · Thursday 26 November": the day large, its date below.
      const cut = day.label.indexOf(' · ');
      const words = day.label.split(' ');
      s.append(el('h2', null, cut >= 0 ? day.label.slice(0, cut) : words[0]));
      s.append(el('p', 'date', cut >= 0 ? day.label.slice(cut + 3) : words.slice(1).join(' ')));
      const w = wx(day.weather);
      const place = content.weatherPlace && day === content.days[0] ? content.weatherPlace + ': ' : '';
      if (w) s.append(el('p', 'wx', place + w));
      const ul = el('ul');
      if (!day.events.length) ul.append(el('li', 'empty', 'Nothing planned'));
      for (const ev of day.events) {
        const li = el('li', 'event');
        const head = el('div');
        head.append(el('span', 't', ev.time ? ev.time + (ev.endTime ? '–' + ev.endTime : '') : 'All day'));
        head.append(el('span', 'title', ev.title));
        li.append(head);
        const meta = [];
        if (ev.where) meta.push(ev.where);
        if (ev.going.length) meta.push('Going: ' + ev.going.join(', '));
        if (ev.endDate) meta.push('until ' + ev.endDate);
        if (meta.length) li.append(el('div', 'meta', meta.join(' · ')));
        if (ev.leaveBy) li.append(el('div', 'leave', 'Leave by ' + ev.leaveBy));
        ul.append(li);
      }
      s.append(ul);
      main.append(s);
    }
    const c = el('section', 'chores');
    c.id = 'chores';
    c.append(el('h2', null, 'Chores'));
    const ul = el('ul');
    if (!content.chores.due.length && !content.chores.done.length) ul.append(el('li', 'empty', 'No chores due'));
    for (const ch of content.chores.due) {
      const li = el('li', 'chore');
      li.append(el('div', 'title', ch.title));
      const meta = el('div', 'meta', [ch.who.join(', '), ch.due && !ch.overdue ? 'due ' + day(ch.due) : ''].filter(Boolean).join(' · '));
      if (ch.overdue) meta.append(el('span', 'overdue', (meta.textContent ? ' · ' : '') + 'overdue since ' + day(ch.due)));
      li.append(meta);
      ul.append(li);
    }
    for (const ch of content.chores.done) {
      const li = el('li', 'chore done');
      li.append(el('div', 'title', '✓ ' + ch.title));
      if (ch.who.length) li.append(el('div', 'meta', ch.who.join(', ')));
      ul.append(li);
    }
    c.append(ul);
    main.append(c);
    tick();
  }

  function tick() { if (content) $('clock').textContent = hhmm(Date.now()); }

  function gone() {
    stopped = true;
    if (source) source.close();
    document.body.classList.add('gone');
    status('gone', 'This display link was turned off');
    try { localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
  }

  function offline() {
    status('offline', 'Offline since ' + hhmm(since) + ' · reconnecting');
  }

  function connect() {
    if (stopped) return;
    source = new EventSource(location.pathname.replace(/\\/+$/, '') + '/events');
    source.addEventListener('display', (ev) => {
      content = JSON.parse(ev.data);
      since = Date.now();
      retry = 1000;
      save();
      render();
      status('live', 'Live');
    });
    source.addEventListener('gone', gone);
    source.onerror = () => {
      if (stopped) return;
      since = Math.min(since, Date.now());
      offline();
      if (source.readyState !== EventSource.CLOSED) return;
      // The browser gave up (an error answer): ask the page whether the link still exists.
      source = null;
      setTimeout(() => {
        fetch(location.pathname, { headers: { accept: 'application/json' }, cache: 'no-store' })
          .then((r) => { if (r.status === 404) gone(); else connect(); }, () => connect());
      }, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  render();
  save();
  setInterval(tick, 1000);
  connect();
})();`;

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** Nothing but the page's own script and style, and its own stream. */
export const DISPLAY_CSP =
  `default-src 'none'; script-src ${sha256(DISPLAY_JS)}; style-src ${sha256(DISPLAY_CSS)}; ` +
  "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
