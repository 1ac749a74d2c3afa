/**
 * The family display's script, last part: staying live and awake. It follows the display's
 * stream (keeping the last content, also in localStorage, and saying since when it is offline),
 * reconnects by itself with a growing pause, stops for good when the link is turned off, sends
 * the queued taps as soon as the network is back, asks for a screen wake lock where the browser
 * offers one (again whenever the page becomes visible: the browser drops it when hidden), dims
 * at night, and keeps what is next in the bar at the top (ES2017, see displayScriptState.ts).
 */
export const LIVE_JS = String.raw`
  function showStatus() {
    var s = $('status');
    var waiting = queue.length ? ' · ' + queue.length + ' waiting' : '';
    if (stopped) { s.setAttribute('data-state', 'gone'); s.textContent = 'This display link was turned off'; return; }
    if (!source || source.readyState !== 1) {
      s.setAttribute('data-state', 'offline');
      s.textContent = 'Offline since ' + hhmm(since) + ' · reconnecting' + waiting;
      return;
    }
    s.setAttribute('data-state', 'live');
    s.textContent = 'Live' + waiting;
  }

  function kick() {
    if (sendTimer) { clearTimeout(sendTimer); sendTimer = null; }
    sendRetry = 1000;
    flush();
  }

  function gone() {
    stopped = true;
    if (source) source.close();
    document.body.className = 'gone';
    showStatus();
    try { localStorage.removeItem(KEY); localStorage.removeItem(QKEY); } catch (e) { /* nothing kept */ }
  }

  function connect() {
    if (stopped) return;
    source = new EventSource(PATH + '/events');
    source.addEventListener('display', function (ev) {
      content = JSON.parse(ev.data);
      since = Date.now();
      retry = 1000;
      keep(KEY, content);
      render();
      showStatus();
      kick();
    });
    source.addEventListener('gone', gone);
    source.onerror = function () {
      if (stopped) return;
      since = Math.min(since, Date.now());
      showStatus();
      if (source.readyState !== 2) return;
      // The browser gave up (an error answer): ask the page whether the link still exists.
      source = null;
      setTimeout(function () {
        fetch(location.pathname, { headers: { accept: 'application/json' }, cache: 'no-store' })
          .then(function (r) { if (r.status === 404) gone(); else connect(); }, function () { connect(); });
      }, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  /** Keeps the screen on where the browser can (a secure context, a recent browser). */
  function stayAwake() {
    if (!navigator.wakeLock || document.visibilityState !== 'visible') return;
    navigator.wakeLock.request('screen').then(function () { /* held until hidden */ }, function () { /* refused */ });
  }

  function isNight(v, t) {
    var n = v.night;
    if (!n) return false;
    return n.from < n.to ? t >= n.from && t < n.to : t >= n.from || t < n.to;
  }
  /** "Now: Swimming until 18:00 · Next: 18:30 Piano lesson · Leave by 18:10". */
  function nextText(v, now) {
    var current = null;
    for (var i = 0; i < v.days.length; i++) {
      var d = v.days[i];
      if (d.date < now.date) continue;
      for (var j = 0; j < d.events.length; j++) {
        var ev = d.events[j];
        if (!ev.time) continue;
        if (d.date === now.date && ev.time <= now.time) {
          if (ev.endTime && ev.endTime > now.time && !current) current = ev;
          continue;
        }
        var day = d.date === now.date ? '' : d.label.split(' ')[0] + ' ';
        var text = 'Next: ' + day + ev.time + ' ' + ev.title + (ev.leaveBy ? ' · Leave by ' + ev.leaveBy : '');
        return (current ? 'Now: ' + current.title + ' until ' + current.endTime + ' · ' : '') + text;
      }
    }
    return current ? 'Now: ' + current.title + ' until ' + current.endTime : 'Nothing more planned';
  }
  var lastNext = null;
  function tick() {
    if (!content) return;
    var now = local(Date.now());
    $('clock').textContent = now.time;
    var night = isNight(content, now.time);
    var root = document.documentElement;
    if (night !== (root.className === 'night')) root.className = night ? 'night' : '';
    var text = nextText(view(), now);
    if (text !== lastNext) { $('next').textContent = text; lastNext = text; }
  }

  $('notice-ok').addEventListener('click', function () { notices = []; $('notice').hidden = true; });
  window.addEventListener('online', kick);
  document.addEventListener('visibilitychange', stayAwake);
  render();
  keep(KEY, content);
  showStatus();
  setInterval(tick, 1000);
  stayAwake();
  connect();
  flush();
`;
