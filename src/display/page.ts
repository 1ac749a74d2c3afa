/**
 * What the page gives its script (src/public/displayPage.ts writes it): the first content and
 * the words and locale to show it in, both as JSON in `<script type="application/json">`
 * elements (data, never run), and the elements the script fills. The words and locale change
 * when the stream sends new ones (the family's or the display's locale changed): `setText`.
 */
import type { DisplayContent } from '../domain/displays/view.js';
import type { DisplayMessageKey, DisplayText } from '../domain/displays/text.js';
import { fill } from '../locale/displayMessages.js';

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

/** The page's words and how its locale writes (replaced by `setText`). */
export const text: DisplayText = {
  locale: (given && given.locale) || 'en',
  dir: given && given.dir === 'rtl' ? 'rtl' : 'ltr',
  intl: (given && given.intl) || 'en',
  pseudo: !!(given && given.pseudo),
  hour12: !!(given && given.hour12),
  temperature: given && given.temperature === 'fahrenheit' ? 'fahrenheit' : 'celsius',
  messages: (given && given.messages) || ({} as DisplayText['messages']),
};

/** New words and locale from the stream: the page's `lang` and `dir` follow. */
export function setText(next: DisplayText): void {
  Object.assign(text, next);
  const root = document.documentElement;
  root.setAttribute('lang', text.locale);
  root.setAttribute('dir', text.dir);
}

/**
 * The text of a message, its `{name}` marks filled in. Every word comes from the page's
 * catalog; a key it lacks shows as the key (a test fails on that long before a wall does).
 */
export function t(key: DisplayMessageKey, values?: Record<string, string | number>): string {
  const m = (text.messages as Partial<Record<DisplayMessageKey, string>>)[key];
  return fill(
    typeof m === 'string' ? m : key,
    values && text.dir === 'rtl' ? isolated(values) : values,
  );
}

/** First-strong isolate and its end: a value keeps its own direction inside a sentence. */
const FSI = String.fromCharCode(0x2068);
const PDI = String.fromCharCode(0x2069);

/**
 * On a right-to-left page, each text value isolated, so a name or title written left to right
 * ("Mum", "Swimming lesson") does not reorder the Arabic sentence around it.
 */
function isolated(values: Record<string, string | number>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const k of Object.keys(values)) {
    const v = values[k];
    out[k] = typeof v === 'string' ? FSI + v + PDI : v;
  }
  return out;
}
