/**
 * The family display's page parts (docs/display.md): its style and its script, inline in the
 * page and allowed by their hashes in the page's CSP (nothing is loaded from anywhere else).
 *
 * The script draws the content it is given (the page carries the first one), follows the
 * display's stream, keeps the last content it had (also in localStorage, so a reload while
 * offline still shows it), says when it is offline, and reconnects by itself with a growing
 * pause. A link that was turned off (the stream says `gone`, or the page answers 404 on a
 * reconnect) stops it for good. On an interactive display it also takes taps, queues them
 * while the network is away and offers their undo. No service worker: a LAN address is not a
 * secure context. Its four parts are in displayScript*.ts; the style in displayStyle.ts.
 */
import { createHash } from 'node:crypto';
import { STATE_JS } from './displayScriptState.js';
import { RENDER_JS } from './displayScriptRender.js';
import { ACTIONS_JS } from './displayScriptActions.js';
import { LIVE_JS } from './displayScriptLive.js';

export { DISPLAY_CSS } from './displayStyle.js';
import { DISPLAY_CSS } from './displayStyle.js';

/** One function, so nothing leaks into the page's globals. */
export const DISPLAY_JS = `(function () {\n  'use strict';${STATE_JS}${RENDER_JS}${ACTIONS_JS}${LIVE_JS}})();`;

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** Nothing but the page's own script and style, and its own stream and actions. */
export const DISPLAY_CSP =
  `default-src 'none'; script-src ${sha256(DISPLAY_JS)}; style-src ${sha256(DISPLAY_CSS)}; ` +
  "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
