/**
 * The family display's script, third part: taps, their queue and their undo.
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
 * previous vote (ES2017, see displayScriptState.ts).
 */
export const ACTIONS_JS = String.raw`
  var sending = false;
  var sendTimer = null;
  var sendRetry = 1000;
  var undoTimer = null;
  var notices = [];

  function newKey() {
    var a = new Uint8Array(16);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(a);
    else for (var i = 0; i < a.length; i++) a[i] = Math.floor(Math.random() * 256);
    return 'tap-' + Array.prototype.map.call(a, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function saveQueue() { keep(QKEY, queue); }

  function notice(text) {
    notices.push(text);
    if (notices.length > 3) notices.shift();
    $('notice-text').textContent = notices.join(' · ');
    $('notice').hidden = false;
  }
  function hideUndo() { $('undo').hidden = true; if (undoTimer) clearTimeout(undoTimer); undoTimer = null; }
  function offerUndo(label, undo) {
    hideUndo();
    $('undo-text').textContent = label;
    var b = $('undo-button');
    b.hidden = !undo;
    b.onclick = function () { hideUndo(); if (undo) undo(); };
    $('undo').hidden = false;
    undoTimer = setTimeout(hideUndo, UNDO_MS);
  }

  function enqueue(body, label, before) {
    var item = { key: newKey(), body: body, label: label, before: before };
    queue.push(item);
    saveQueue();
    render(true);
    showStatus();
    flush();
    return item;
  }
  /** A tap: its action now, and for a few seconds its inverse (made when Undo is tapped). */
  function tap(body, label, inverse, before) {
    var item = enqueue(body, label, before);
    offerUndo(label, inverse ? function () { enqueue(inverse(item), 'Undo: ' + label); } : null);
  }

  function tapTick(collection, item, done) {
    var body = { action: done ? 'undone' : 'done', collection: collection, entryId: item.id };
    var back = { action: done ? 'done' : 'undone', collection: collection, entryId: item.id };
    tap(body, (done ? 'Back on: “' : 'Ticked off: “') + item.title + '”', function () { return back; });
  }
  function tapAdd(l, title) {
    // The items of that title already there: the stream may bring the new one before the
    // action's answer names it, and it must not be shown twice meanwhile (addIn).
    var before = l.items.filter(function (it) { return it.title === title && it.id; })
      .map(function (it) { return it.id; });
    tap({ action: 'add', collection: l.key, title: title }, 'Added to ' + l.name + ': “' + title + '”',
      function (item) { return { action: 'remove', collection: l.key, ref: item.key }; }, before);
  }
  function attendBody(ev, personId, going) {
    var b = { action: 'attend', eventId: ev.id, personId: personId, going: going };
    if (ev.occurrence) b.occurrence = ev.occurrence;
    return b;
  }
  function tapAttend(v, ev, person) {
    var was = ev.answers[person.id];
    var going = was !== 'going';
    var before = was === 'going' ? true : was === 'out' ? false : was === undefined ? null : 'maybe';
    tap(attendBody(ev, person.id, going), person.name + (going ? ' is going to ' : ' is not going to ') + ev.title,
      // A "maybe" is not one of the display's answers, so that one tap has no undo.
      before === 'maybe' ? null : function () { return attendBody(ev, person.id, before); });
  }
  function tapVote(v, p, o) {
    var voter = ui.voter[p.pollId];
    if (!voter) { notice('Choose who is voting first, then the option'); return; }
    var was = p.votes[voter] || null;
    var body = { action: 'vote', planId: p.planId, pollId: p.pollId, personId: voter,
      optionIds: was === o.id ? [] : [o.id] };
    var back = { action: 'vote', planId: p.planId, pollId: p.pollId, personId: voter,
      optionIds: was ? [was] : [] };
    var name = personName(v, voter);
    tap(body, was === o.id ? name + ' took back the vote' : name + ' voted for ' + o.label,
      function () { return back; });
  }

  /** What is sent for a queued action: the undo of an add names the entry that add made. */
  function wire(item) {
    var b = JSON.parse(JSON.stringify(item.body));
    if (b.action === 'remove' && b.ref) {
      var id = added[b.ref];
      delete b.ref;
      if (!id) return null;
      b.entryId = id;
    }
    return b;
  }
  function later(ms) {
    if (sendTimer) clearTimeout(sendTimer);
    sendTimer = setTimeout(function () { sendTimer = null; flush(); }, ms || sendRetry);
    if (!ms) sendRetry = Math.min(sendRetry * 2, 30000);
  }
  function settle(item, status, json, retryAfter) {
    // Not answered for good: the same action, with the same key, goes again later.
    var again = status === 429 || status >= 500 ||
      (status === 409 && /still being processed/.test(json.error || ''));
    if (again) return later(status === 429 ? Math.max(1, Number(retryAfter) || 5) * 1000 : 0);
    queue.shift();
    saveQueue();
    sendRetry = 1000;
    if (status >= 200 && status < 300) {
      acked.push({ key: item.key, body: item.body, before: item.before, until: Date.now() + ACK_MS });
      if (item.body.action === 'add' && json.change && json.change.object) {
        added[item.key] = json.change.object.id;
        var keys = Object.keys(added);
        if (keys.length > 50) delete added[keys[0]];
        keep(AKEY, added);
      }
      setTimeout(render, ACK_MS + 50);
    } else {
      notice('Not done — ' + item.label + ': ' + (json.error || 'the daemon answered ' + status));
    }
    render();
    showStatus();
    flush();
  }
  /** Sends the oldest queued action, then the next, until the queue is empty or cannot go. */
  function flush() {
    if (sending || stopped || !queue.length || sendTimer) return;
    var item = queue[0];
    var body = wire(item);
    if (!body) {
      queue.shift();
      saveQueue();
      notice('Nothing to undo — ' + item.label + ': what it would undo did not go through');
      render();
      return flush();
    }
    sending = true;
    fetch(PATH + '/actions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': item.key },
      body: JSON.stringify(body),
      cache: 'no-store',
    }).then(function (r) {
      return r.json().then(function (j) { return j; }, function () { return {}; }).then(function (j) {
        sending = false;
        settle(item, r.status, j, r.headers.get('retry-after'));
      });
    }, function () {
      sending = false;
      showStatus();
      later(0);
    });
  }
`;
