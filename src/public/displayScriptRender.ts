/**
 * The family display's script, second part: drawing the view. The days (each event with its
 * times, place, who is going and when to leave), the chores, the lists and the open polls; on an
 * interactive display every chore and item is a button that ticks it off or back, each list has
 * a field to add to it, an event opens to its people's going / not going buttons, and a poll
 * lets one of its people vote. What the person at the screen opened, chose or typed survives a
 * redraw (ES2017, see displayScriptState.ts).
 */
export const RENDER_JS = String.raw`
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function button(cls, k, onTap) {
    var b = el('button', cls);
    b.type = 'button';
    b.setAttribute('data-k', k);
    b.addEventListener('click', onTap);
    return b;
  }
  function shortDay(d) {
    return content && d === content.today ? 'today'
      : new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })
        .format(new Date(d + 'T12:00:00Z'));
  }
  function wx(w) {
    if (!w) return null;
    var parts = [];
    if (w.summary) parts.push(w.summary);
    if (w.minC !== null && w.maxC !== null) parts.push(Math.round(w.minC) + '–' + Math.round(w.maxC) + ' °C');
    if (w.precipitationProbability !== null) parts.push(Math.round(w.precipitationProbability) + '% rain');
    return parts.join(' · ');
  }
  function when(ev) { return ev.time ? ev.time + (ev.endTime ? '–' + ev.endTime : '') : 'All day'; }

  /** An event's lines: time, title, then place, who is going, leave-by. */
  function eventParts(v, ev) {
    var out = [el('span', 't', when(ev)), el('span', 'title', ev.title)];
    var meta = [];
    if (ev.where) meta.push(ev.where);
    if (ev.going.length) meta.push('Going: ' + ev.going.join(', '));
    else if (v.interactive && v.people.length) meta.push('Who is going?');
    if (ev.endDate) meta.push('until ' + shortDay(ev.endDate));
    if (ev.pending) meta.push('waiting to be sent');
    if (meta.length) out.push(el('span', 'meta', meta.join(' · ')));
    if (ev.leaveBy) out.push(el('span', 'leave meta', 'Leave by ' + ev.leaveBy));
    return out;
  }
  function whoEl(v, ev) {
    var g = el('div', 'who');
    g.setAttribute('role', 'group');
    g.setAttribute('aria-label', 'Who is going to ' + ev.title);
    each(v.people, function (p) {
      var a = ev.answers[p.id];
      var mark = a === 'going' ? '✓ ' : a === 'out' ? '✗ ' : a === 'maybe' ? '? ' : '';
      var b = button('chip' + (a === 'out' ? ' out' : ''), 'go:' + ev.id + ':' + (ev.occurrence || '') + ':' + p.id,
        function () { tapAttend(v, ev, p); });
      b.textContent = mark + p.name;
      b.setAttribute('aria-pressed', a === 'going' ? 'true' : 'false');
      g.appendChild(b);
    });
    return g;
  }
  function eventEl(v, d, ev) {
    var li = el('li', 'event');
    var parts = eventParts(v, ev);
    if (!v.interactive || !v.people.length) {
      var head = el('div');
      head.appendChild(parts[0]);
      head.appendChild(parts[1]);
      li.appendChild(head);
      for (var i = 2; i < parts.length; i++) li.appendChild(parts[i]);
      return li;
    }
    var k = 'ev:' + ev.id + ':' + (ev.occurrence || '') + ':' + d.date;
    var open = ui.open === k;
    var b = button('open', k, function () { ui.open = open ? null : k; render(); });
    b.setAttribute('aria-expanded', open ? 'true' : 'false');
    var inner = el('span');
    each(parts, function (p) { inner.appendChild(p); });
    b.appendChild(inner);
    li.appendChild(b);
    if (open) li.appendChild(whoEl(v, ev));
    return li;
  }
  function dayEl(v, day) {
    var s = el('section', 'day');
    s.setAttribute('data-date', day.date);
    // "Today · Thursday 26 November": the day large, its date below.
    var cut = day.label.indexOf(' · ');
    var words = day.label.split(' ');
    s.appendChild(el('h2', null, cut >= 0 ? day.label.slice(0, cut) : words[0]));
    s.appendChild(el('p', 'date', cut >= 0 ? day.label.slice(cut + 3) : words.slice(1).join(' ')));
    var w = wx(day.weather);
    var place = v.weatherPlace && day === v.days[0] ? v.weatherPlace + ': ' : '';
    if (w) s.appendChild(el('p', 'wx', place + w));
    var ul = el('ul');
    if (!day.events.length) ul.appendChild(el('li', 'empty', 'Nothing planned'));
    each(day.events, function (ev) { ul.appendChild(eventEl(v, day, ev)); });
    s.appendChild(ul);
    return s;
  }

  /** A chore or list item: a button that ticks it off (or back) on an interactive display. */
  function itemEl(v, collection, item, done, metaText, extra) {
    var li = el('li', 'item' + (done ? ' done' : ''));
    var title = el('span', 'title', (done && !v.interactive ? '✓ ' : '') + item.title);
    var meta = metaText || item.pending ? el('span', 'meta', metaText) : null;
    if (meta && extra) meta.appendChild(extra);
    if (meta && item.pending) meta.appendChild(el('span', 'pending', (metaText ? ' · ' : '') + 'waiting to be sent'));
    if (!v.interactive || !item.id) {
      li.appendChild(title);
      if (meta) li.appendChild(meta);
      return li;
    }
    var b = button('tick', 'tick:' + collection + ':' + item.id, function () { tapTick(collection, item, done); });
    b.setAttribute('aria-pressed', done ? 'true' : 'false');
    b.appendChild(el('span', 'box', done ? '✓' : ''));
    var text = el('span');
    text.appendChild(title);
    if (meta) text.appendChild(meta);
    b.appendChild(text);
    li.appendChild(b);
    return li;
  }
  function choresEl(v) {
    var c = el('section', 'chores');
    c.id = 'chores';
    c.appendChild(el('h2', null, 'Chores'));
    var ul = el('ul');
    if (!v.chores.due.length && !v.chores.done.length) ul.appendChild(el('li', 'empty', 'No chores due'));
    each(v.chores.due, function (ch) {
      var text = [ch.who.join(', '), ch.due && !ch.overdue ? 'due ' + shortDay(ch.due) : ''].filter(Boolean).join(' · ');
      var late = ch.overdue ? el('span', 'overdue', (text ? ' · ' : '') + 'overdue since ' + shortDay(ch.due)) : null;
      ul.appendChild(itemEl(v, 'chores', ch, false, text, late));
    });
    each(v.chores.done, function (ch) { ul.appendChild(itemEl(v, 'chores', ch, true, ch.who.join(', '), null)); });
    c.appendChild(ul);
    return c;
  }
  function addForm(l) {
    var f = el('form', 'add');
    var id = 'add-' + l.key;
    var label = el('label', null, 'Add to ' + l.name);
    label.htmlFor = id;
    var input = el('input');
    input.id = id;
    input.setAttribute('data-k', id);
    input.autocomplete = 'off';
    input.maxLength = 200;
    input.value = ui.drafts[l.key] || '';
    input.addEventListener('input', function () { ui.drafts[l.key] = input.value; });
    // Content that came while someone was typing is drawn when they leave the field.
    input.addEventListener('blur', function () { if (stale) setTimeout(function () { render(); }, 0); });
    var go = el('button', 'act', 'Add');
    go.type = 'submit';
    f.appendChild(label);
    f.appendChild(input);
    f.appendChild(go);
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      var title = input.value.trim();
      if (!title) return;
      ui.drafts[l.key] = '';
      tapAdd(l, title);
    });
    return f;
  }
  function listEl(v, l) {
    var s = el('section', 'list');
    s.setAttribute('data-list', l.key);
    s.appendChild(el('h2', null, l.name));
    var ul = el('ul');
    if (!l.items.length) ul.appendChild(el('li', 'empty', 'Nothing on the list'));
    each(l.items, function (it) { ul.appendChild(itemEl(v, l.key, it, it.done, '', null)); });
    s.appendChild(ul);
    if (v.interactive) s.appendChild(addForm(l));
    return s;
  }
  function pollEl(v, p) {
    var box = el('div', 'poll');
    box.appendChild(el('h3', null, p.question));
    box.appendChild(el('span', 'meta', p.plan + (p.pending ? ' · waiting to be sent' : '')));
    var voting = v.interactive && v.people.length && p.pollId;
    var voter = voting ? ui.voter[p.pollId] || null : null;
    if (voting) {
      box.appendChild(el('span', 'meta', 'Who is voting?'));
      var g = el('div', 'who');
      g.setAttribute('role', 'group');
      g.setAttribute('aria-label', 'Who is voting on ' + p.question);
      each(v.people, function (person) {
        var b = button('chip', 'voter:' + p.pollId + ':' + person.id, function () {
          ui.voter[p.pollId] = voter === person.id ? null : person.id;
          render();
        });
        b.textContent = person.name;
        b.setAttribute('aria-pressed', voter === person.id ? 'true' : 'false');
        g.appendChild(b);
      });
      box.appendChild(g);
    }
    each(p.options, function (o) {
      var who = o.voters.length ? o.voters.join(', ') : 'no votes yet';
      if (!voting) {
        var line = el('p', 'option-ro');
        line.appendChild(el('span', 'title', o.label));
        line.appendChild(el('span', 'meta', who));
        box.appendChild(line);
        return;
      }
      var b = button('option', 'option:' + p.pollId + ':' + o.id, function () { tapVote(v, p, o); });
      b.setAttribute('aria-pressed', voter && p.votes[voter] === o.id ? 'true' : 'false');
      b.appendChild(el('span', 'title', o.label));
      b.appendChild(el('span', 'meta', who));
      box.appendChild(b);
    });
    return box;
  }
  function pollsEl(v) {
    var s = el('section', 'polls');
    s.id = 'polls';
    s.appendChild(el('h2', null, 'Polls'));
    each(v.polls, function (p) { s.appendChild(pollEl(v, p)); });
    return s;
  }

  /** Whether someone is typing into a list's field: redrawing would take the field away. */
  function typing() {
    var a = document.activeElement;
    return !!a && a.tagName === 'INPUT' && a.value !== '' && $('board').contains(a);
  }
  var stale = false;
  /** Draws the view; while someone types, only when forced (their own tap). */
  function render(force) {
    if (!force && typing()) { stale = true; return; }
    stale = false;
    var v = view();
    if (!v) return;
    var focused = document.activeElement && document.activeElement.getAttribute
      ? document.activeElement.getAttribute('data-k') : null;
    $('name').textContent = v.family + ' · ' + v.name;
    var main = $('board');
    clear(main);
    var days = el('div', 'days');
    each(v.days, function (d) { days.appendChild(dayEl(v, d)); });
    main.appendChild(days);
    var side = el('div', 'side');
    side.appendChild(choresEl(v));
    each(v.lists, function (l) { side.appendChild(listEl(v, l)); });
    if (v.polls.length) side.appendChild(pollsEl(v));
    main.appendChild(side);
    if (focused) {
      var again = main.querySelector('[data-k="' + focused.replace(/"/g, '') + '"]');
      if (again) {
        again.focus();
        if (again.tagName === 'INPUT') again.setSelectionRange(again.value.length, again.value.length);
      }
    }
    tick();
  }
`;
