/**
 * The frame of every household page: one inline style sheet (large type, high contrast, light
 * and dark by the system's choice, phone-sized first, logical properties so a right-to-left
 * language reads right to left), no outside assets, every value escaped. Every word comes from
 * the catalog's `pages` section in the reader's voice (docs/i18n.md), `lang` and `dir` from its
 * locale. Forms post back to this daemon and carry their CSRF token (forms.ts).
 */
import { escapeHtml as e, pageHead } from '../door/html.js';
import type { KeyOf, Values } from '../domain/i18n/messages.js';
import type { Voice } from '../domain/i18n/voice.js';

export { e };

const CSS = `
*{box-sizing:border-box}
:root{color-scheme:light dark;--fg:#15201a;--bg:#f6f7f3;--card:#fff;--line:#5f6e64;--muted:#3f4c44;--accent:#1f4a2e;--accent-fg:#fff;--err-bg:#fde8e6;--err:#8c1d18;--ok-bg:#e4f2e6}
@media (prefers-color-scheme:dark){:root{--fg:#eef2ec;--bg:#121714;--card:#1c231f;--line:#9aa89f;--muted:#c9d3cc;--accent:#a8d5b3;--accent-fg:#0d1a12;--err-bg:#3a1513;--err:#ffb4ab;--ok-bg:#1d3323}}
body{margin:0;font:1.15rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:44rem;margin-block:0;margin-inline:auto;padding-block:1rem 4rem;padding-inline:1rem}
h1{font-size:1.75rem;line-height:1.2;margin-block:.5rem 1rem;margin-inline:0}
h2{font-size:1.3rem;margin-block:1.75rem .5rem;margin-inline:0}
a{color:var(--accent);text-underline-offset:.2em}
header{max-width:44rem;margin-block:0;margin-inline:auto;padding-block:.5rem 0;padding-inline:1rem}
details.menu>summary{cursor:pointer;font-weight:700;padding-block:.45rem;list-style-position:inside}
details.menu>summary .who{font-weight:400;color:var(--muted)}
nav ul{list-style:none;padding:0;margin-block:.25rem .5rem;margin-inline:0;display:flex;flex-wrap:wrap;gap:.35rem .9rem}
nav a{display:inline-block;padding-block:.35rem;font-weight:600}
nav a[aria-current=page]{text-decoration-thickness:3px}
.card{background:var(--card);border:1px solid var(--line);border-radius:.7rem;padding-block:.8rem;padding-inline:1rem;margin-block:.75rem}
.muted{color:var(--muted)}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
ul.items{list-style:none;padding:0;margin:0}
ul.items>li{border-block-end:1px solid var(--line);padding-block:.6rem}
label{display:block;font-weight:600;margin-block:.8rem .25rem}
input,select,textarea{font:inherit;width:100%;padding-block:.6rem;padding-inline:.7rem;border:2px solid var(--line);border-radius:.5rem;background:var(--card);color:var(--fg)}
input[type=checkbox]{width:1.4rem;height:1.4rem;vertical-align:middle;margin-inline-end:.5rem}
label.check{font-weight:400}
button{font:inherit;font-weight:700;padding-block:.65rem;padding-inline:1.2rem;min-height:2.9rem;border-radius:.5rem;border:2px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;margin-block-start:1rem}
button.quiet{background:transparent;color:var(--accent);margin-block-start:0}
form.inline{display:inline;margin:0}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{background:var(--err-bg);color:var(--err);border:2px solid var(--err);border-radius:.5rem;padding-block:.6rem;padding-inline:.8rem}
.done{background:var(--ok-bg);border:2px solid var(--line);border-inline-start-width:.5rem;border-radius:.5rem;padding-block:.6rem;padding-inline:.8rem;text-align:start}
.qr{background:#fff;padding:.6rem;border-radius:.5rem;width:15rem;max-width:100%}
.qr svg{display:block;width:100%;height:auto}
code,.secret{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere;font-size:1rem;unicode-bidi:isolate}
bdi,.data{unicode-bidi:isolate}
dl{margin-block:.25rem}dt{font-weight:600;margin-block-start:.5rem}dd{margin-block:0 .25rem;margin-inline:0}
`;

const FAVICON = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%231f4a2e'/%3E%3Cpath d='M16 6 5 15.5h3.2V26h5.6v-6.5h4.4V26h5.6V15.5H27z' fill='%23f6f7f3'/%3E%3C/svg%3E">`;

type PageKey = KeyOf<'pages'>;

/** The sections a signed-in admin moves between, in the order of the menu. */
export const SECTIONS: readonly (readonly [path: string, title: PageKey])[] = [
  ['/', 'navHome'],
  ['/people', 'navPeople'],
  ['/devices', 'navDevices'],
  ['/family', 'navFamily'],
  ['/displays', 'navDisplays'],
  ['/calendars', 'navCalendars'],
  ['/assistants', 'navAssistants'],
  ['/webhooks', 'navWebhooks'],
  ['/notifications', 'navNotifications'],
  ['/backups', 'navBackups'],
];

export interface Frame {
  title: string;
  /** The reader's voice: every word of the frame, `lang` and `dir`. */
  voice: Voice;
  /** The signed-in view: a menu and a sign-out button (with its CSRF token). */
  nav?: { current: string; csrf: string; familyName: string };
  /** An inline script's text; its hash goes into the page's CSP (headers.ts). */
  script?: string;
}

/**
 * The signed-in menu: one line (`<details>`, no script) that opens to the sections and the
 * sign-out, so that on a phone the heading comes first.
 */
function menu(v: Voice, nav: NonNullable<Frame['nav']>): string {
  const say = (k: PageKey, values?: Values) => e(v.say('pages', k, values));
  const links = SECTIONS.map(
    ([href, key]) =>
      `<li><a href="${href}"${href === nav.current ? ' aria-current="page"' : ''}>${say(key)}</a></li>`,
  ).join('');
  return `<header><details class="menu"><summary>${say('menu')} <span class="who">· <bdi>${e(nav.familyName)}</bdi></span></summary>
<nav aria-label="${say('sectionsLabel')}"><ul>${links}</ul></nav>
<form class="inline" method="post" action="/signout">${csrfField(nav.csrf)}<button class="quiet" type="submit">${say('signOut', { family: nav.familyName })}</button></form></details></header>`;
}

export function page(f: Frame, body: string): string {
  const title = f.voice.say('pages', 'pageTitle', { title: f.title });
  return `${pageHead({ title, style: CSS, extra: FAVICON, voice: f.voice })}<body>
${f.nav ? menu(f.voice, f.nav) : ''}<main>
<h1>${e(f.title)}</h1>
${body}
</main>
${f.script ? `<script>${f.script}</script>\n` : ''}</body>
</html>
`;
}

export function csrfField(token: string): string {
  return `<input type="hidden" name="csrf" value="${e(token)}">`;
}

export function errorBox(message: string | undefined): string {
  return message ? `<p class="error" role="alert">${e(message)}</p>` : '';
}

/** A success note (`role="status"`), its text already HTML (from `rich`). */
export function doneBox(html: string, id?: string): string {
  return `<p class="done" role="status"${id ? ` id="${id}"` : ''}>${html}</p>`;
}

/** A one-button form (revoke, remove, refresh, test) posting to `action`. */
export function buttonForm(action: string, csrf: string, label: string, quiet = true): string {
  return `<form class="inline" method="post" action="${e(action)}">${csrfField(csrf)}<button${quiet ? ' class="quiet"' : ''} type="submit">${e(label)}</button></form>`;
}

/**
 * A message as HTML: its text escaped, with some placeholders given as markup (a name in
 * `<strong>`, a link, a command in `<code>`): the message is said with a marker in their place,
 * escaped, and the markers replaced (a message itself holds no HTML, docs/i18n.md).
 */
export function rich(
  v: Voice,
  key: PageKey,
  values: Values,
  markup: Readonly<Record<string, string>> = {},
): string {
  const marked: Record<string, string | number> = { ...values };
  Object.keys(markup).forEach((name, i) => (marked[name] = `\u0001${i}\u0001`));
  const html = e(v.say('pages', key, marked));
  return Object.values(markup).reduce((out, m, i) => out.split(`\u0001${i}\u0001`).join(m), html);
}

/** The reader's `say` for the pages section, escaped for HTML. */
export function sayer(v: Voice): (key: PageKey, values?: Values) => string {
  return (key, values) => e(v.say('pages', key, values));
}
