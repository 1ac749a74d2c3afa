/**
 * The family display's page parts (docs/display.md): its style, inline in the page and allowed
 * by its hash, and its script, the ES2017 modules of src/display/ served from this daemon
 * (displayAssets.ts). The Content-Security-Policy allows nothing else: scripts only from the
 * daemon's own origin (module scripts must come with a JavaScript content type, and every other
 * answer of the daemon is JSON, HTML or a calendar with `nosniff`), no inline script at all.
 */
import { createHash } from 'node:crypto';

export { DISPLAY_CSS } from './displayStyle.js';
import { DISPLAY_CSS } from './displayStyle.js';

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** Nothing but the page's own script and style, and its own stream and actions. */
export const DISPLAY_CSP =
  `default-src 'none'; script-src 'self'; style-src ${sha256(DISPLAY_CSS)}; ` +
  "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
