/**
 * Staying live and awake: following the display's stream (keeping the last content, also in
 * localStorage, and saying since when it is offline), reconnecting by itself with a growing
 * pause, stopping for good when the link is turned off, and asking for a screen wake lock where
 * the browser offers one (again whenever the page becomes visible: the browser drops it when
 * hidden).
 */
import type { DisplayContent } from '../domain/displays/view.js';
import type { DisplayText } from '../domain/displays/text.js';
import { kick } from './actions.js';
import { $, setText, t, text } from './page.js';
import { fixedWords, render } from './render.js';
import { keep, KEYS, local, S } from './state.js';
import { clock } from './words.js';

let source: EventSource | null = null;
let retry = 1000;

export function showStatus(): void {
  const s = $('status');
  const count = S.queue.length;
  if (S.stopped) {
    s.setAttribute('data-state', 'gone');
    s.textContent = t('statusGone');
    return;
  }
  if (!source || source.readyState !== 1) {
    s.setAttribute('data-state', 'offline');
    const time = clock(local(S.since).time);
    s.textContent = t(count ? 'statusOfflineWaiting' : 'statusOffline', { time, count });
    return;
  }
  s.setAttribute('data-state', 'live');
  s.textContent = t(count ? 'statusLiveWaiting' : 'statusLive', { count });
}

function gone(): void {
  S.stopped = true;
  if (source) source.close();
  document.body.className = 'gone';
  showStatus();
  try {
    localStorage.removeItem(KEYS.content);
    localStorage.removeItem(KEYS.queue);
  } catch {
    // Nothing was kept.
  }
}

/** The browser gave up (an error answer): asks the page whether the link still exists. */
function askPage(): void {
  source = null;
  setTimeout(() => {
    fetch(location.pathname, { headers: { accept: 'application/json' }, cache: 'no-store' }).then(
      (r) => (r.status === 404 ? gone() : connect()),
      () => connect(),
    );
  }, retry);
  retry = Math.min(retry * 2, 30000);
}

export function connect(): void {
  if (S.stopped) return;
  const es = new EventSource(KEYS.path + '/events');
  source = es;
  es.addEventListener('display', (ev) => {
    S.content = JSON.parse((ev as MessageEvent<string>).data) as DisplayContent;
    S.since = Date.now();
    retry = 1000;
    keep(KEYS.content, S.content);
    render();
    showStatus();
    kick();
  });
  // The family's or the display's locale changed: new words, the page's lang and dir follow.
  es.addEventListener('text', (ev) => {
    const next = JSON.parse((ev as MessageEvent<string>).data) as DisplayText;
    // Sent when the stream opens too: only another locale changes the page.
    if (next.locale === text.locale) return;
    setText(next);
    fixedWords();
    render(true);
    showStatus();
  });
  es.addEventListener('gone', gone);
  es.onerror = () => {
    if (S.stopped) return;
    S.since = Math.min(S.since, Date.now());
    showStatus();
    if (es.readyState === 2) askPage();
  };
}

interface WakeLockNavigator {
  wakeLock?: { request(type: 'screen'): Promise<unknown> };
}

/** Keeps the screen on where the browser can (a secure context, a recent browser). */
export function stayAwake(): void {
  const lock = (navigator as WakeLockNavigator).wakeLock;
  if (!lock || document.visibilityState !== 'visible') return;
  lock.request('screen').then(
    () => undefined, // held until hidden
    () => undefined, // refused
  );
}
