/**
 * The family display's script (docs/display.md): it draws the content the page carries,
 * follows the display's stream, keeps the last content it had (also in localStorage, so a
 * reload while offline still shows it), says when it is offline, and reconnects by itself. On
 * an interactive display it also takes taps, queues them while the network is away and offers
 * their undo. No service worker: a LAN address is not a secure context.
 *
 * Compiled by src/display/tsconfig.json to ES2017 modules (Safari 12, Chrome 80) in
 * dist/browser/, which the daemon serves as they are (src/public/displayAssets.ts).
 */
import { clearNotices, flush, kick } from './actions.js';
import { connect, showStatus, stayAwake } from './live.js';
import { tick } from './next.js';
import { $ } from './page.js';
import { fixedWords, render } from './render.js';
import { hooks, keep, KEYS, S } from './state.js';

hooks.render = render;
hooks.showStatus = showStatus;

fixedWords();
$('notice-ok').addEventListener('click', clearNotices);
window.addEventListener('online', kick);
document.addEventListener('visibilitychange', stayAwake);
render();
keep(KEYS.content, S.content);
showStatus();
setInterval(tick, 1000);
stayAwake();
connect();
flush();
