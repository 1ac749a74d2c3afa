/**
 * The family display's script, first part: its state, what it keeps in localStorage, the
 * family's clock, and the view — the content the daemon sent with the taps not yet confirmed
 * laid over it, so a tap shows at once and still shows while the network is away.
 *
 * The script is shipped as written (no build step) to the browsers old wall tablets run, so it
 * is ES2017: no `?.`, no `??`, no object spread, no optional catch binding, no APIs newer than
 * Safari 12 / Chrome 80 without a check (test/public/displayScript.unit.test.ts parses it so).
 */
export const STATE_JS = String.raw`
  var $ = function (id) { return document.getElementById(id); };
  var PATH = location.pathname.replace(/[/]+$/, '');
  var KEY = 'household-display:' + location.pathname;
  var QKEY = 'household-display-queue:' + PATH;
  var AKEY = 'household-display-added:' + PATH;
  /** How long the undo of a tap is offered, and how long a confirmed tap stays laid over. */
  var UNDO_MS = 6000;
  var ACK_MS = 3000;

  function load(k, fallback) {
    try { var v = JSON.parse(localStorage.getItem(k)); return v === null || v === undefined ? fallback : v; }
    catch (e) { return fallback; }
  }
  function keep(k, v) { try { localStorage.setItem(k, JSON.stringify(v)); } catch (e) { /* full or off */ } }

  var content = null;
  try { content = JSON.parse($('initial').textContent); } catch (e) { content = null; }
  if (!content) content = load(KEY, null);
  /** Taps not yet confirmed, oldest first: {key, body, label}. Sent one by one, in order. */
  var queue = load(QKEY, []);
  /** Taps confirmed in the last moments (the stream's next content may not show them yet). */
  var acked = [];
  /** The entry each confirmed add made, by the add's Idempotency-Key (its undo names it). */
  var added = load(AKEY, {});
  var since = Date.now();
  var stopped = false;
  var retry = 1000;
  var source = null;
  /** What the person at the screen opened or chose: kept across redraws. */
  var ui = { open: null, voter: {}, drafts: {} };

  var formats = {};
  /** The family's local date and time at ms: {date: 'YYYY-MM-DD', time: 'HH:mm'}. */
  function local(ms) {
    var tz = content ? content.timezone : 'UTC';
    if (!formats[tz]) {
      formats[tz] = new Intl.DateTimeFormat('en-GB', { timeZone: tz, year: 'numeric', month: '2-digit',
        day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
    }
    var p = {};
    formats[tz].formatToParts(new Date(ms)).forEach(function (x) { p[x.type] = x.value; });
    // Some engines write midnight as 24:00.
    var h = p.hour === '24' ? '00' : p.hour;
    return { date: p.year + '-' + p.month + '-' + p.day, time: h + ':' + p.minute };
  }
  function hhmm(ms) { return local(ms).time; }

  function clone(x) { return JSON.parse(JSON.stringify(x)); }
  function each(xs, fn) { for (var i = 0; i < xs.length; i++) fn(xs[i], i); }
  function personName(v, id) {
    for (var i = 0; i < v.people.length; i++) if (v.people[i].id === id) return v.people[i].name;
    return null;
  }
  function withName(names, name, on) {
    var out = names.filter(function (n) { return n !== name; });
    if (on && name) out.push(name);
    return out;
  }

  function tickIn(v, b, pending) {
    var done = b.action === 'done';
    if (b.collection === 'chores') {
      var from = done ? v.chores.due : v.chores.done;
      var to = done ? v.chores.done : v.chores.due;
      for (var i = 0; i < from.length; i++) {
        if (from[i].id !== b.entryId) continue;
        var c = from.splice(i, 1)[0];
        c.pending = pending;
        to.push(c);
        return;
      }
      return;
    }
    each(v.lists, function (l) {
      if (l.key !== b.collection) return;
      each(l.items, function (it) { if (it.id === b.entryId) { it.done = done; it.pending = pending; } });
    });
  }
  function addIn(v, b, a) {
    each(v.lists, function (l) {
      if (l.key !== b.collection) return;
      var id = added[a.key] || null;
      // Confirmed and already in the content the stream sent: shown once. Not confirmed yet,
      // but an item of that title the list did not have at the tap: the stream was first.
      if (id && l.items.some(function (it) { return it.id === id; })) return;
      var before = a.before || [];
      if (!id && l.items.some(function (it) { return it.title === b.title && it.id && before.indexOf(it.id) < 0; })) return;
      l.items.push({ id: id, ref: a.key, title: b.title, done: false, pending: a.pending });
    });
  }
  function removeIn(v, b) {
    each(v.lists, function (l) {
      if (l.key !== b.collection) return;
      l.items = l.items.filter(function (it) {
        return !((b.entryId && it.id === b.entryId) || (b.ref && (it.ref === b.ref || it.id === added[b.ref])));
      });
    });
  }
  function attendIn(v, b, pending) {
    var name = personName(v, b.personId);
    each(v.days, function (d) {
      each(d.events, function (ev) {
        if (ev.id !== b.eventId || (ev.occurrence || null) !== (b.occurrence || null)) return;
        if (b.going === null) delete ev.answers[b.personId];
        else ev.answers[b.personId] = b.going ? 'going' : 'out';
        ev.going = withName(ev.going, name, b.going === true);
        ev.pending = pending;
      });
    });
  }
  function voteIn(v, b, pending) {
    var name = personName(v, b.personId);
    each(v.polls, function (p) {
      if (p.planId !== b.planId || p.pollId !== b.pollId) return;
      var choice = b.optionIds.length ? b.optionIds[0] : null;
      if (choice) p.votes[b.personId] = choice;
      else delete p.votes[b.personId];
      each(p.options, function (o) { o.voters = withName(o.voters, name, o.id === choice); });
      p.pending = pending;
    });
  }

  /** The content with every unconfirmed (and just confirmed) tap laid over it. */
  function view() {
    if (!content) return null;
    var v = clone(content);
    var now = Date.now();
    acked = acked.filter(function (a) { return a.until > now; });
    var taps = acked.map(function (a) { return { key: a.key, body: a.body, before: a.before, pending: false }; })
      .concat(queue.map(function (q) { return { key: q.key, body: q.body, before: q.before, pending: true }; }));
    each(taps, function (a) {
      var b = a.body;
      if (b.action === 'done' || b.action === 'undone') tickIn(v, b, a.pending);
      else if (b.action === 'add') addIn(v, b, a);
      else if (b.action === 'remove') removeIn(v, b);
      else if (b.action === 'attend') attendIn(v, b, a.pending);
      else if (b.action === 'vote') voteIn(v, b, a.pending);
    });
    return v;
  }
`;
