/**
 * What the page gives its script (src/public/displayPage.ts writes it): the first content and
 * the words and locale to show it in, both as JSON in `<script type="application/json">`
 * elements (data, never run), and the elements the script fills.
 */
import type { DisplayContent } from '../domain/displays/view.js';
import { fill, type DisplayMessageKey, type DisplayText } from '../locale/displayMessages.js';

/** An element of the page the daemon wrote; it is there (the page and the script ship together). */
export function $(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

function json(id: string): unknown {
  try {
    const e = document.getElementById(id);
    return e ? (JSON.parse(e.textContent || 'null') as unknown) : null;
  } catch {
    return null;
  }
}

/** The first content the page carries; null when it carries none that reads. */
export function initialContent(): DisplayContent | null {
  return json('initial') as DisplayContent | null;
}

const given = json('display-text') as Partial<DisplayText> | null;

/** The locale the page's dates are written in. */
export const locale = given && given.locale ? given.locale : 'en';
const messages: Partial<Record<DisplayMessageKey, string>> = (given && given.messages) || {};

/**
 * The text of a message, its `{name}` marks filled in. Every word comes from the page's
 * catalog; a key it lacks shows as the key (a test fails on that long before a wall does).
 */
export function t(key: DisplayMessageKey, values?: Record<string, string | number>): string {
  const m = messages[key];
  return fill(typeof m === 'string' ? m : key, values);
}
