/**
 * The frame of every household page: one inline style sheet (large type, high contrast, light
 * and dark by the system's choice, phone-sized first), no outside assets, every value escaped.
 * Forms post back to this daemon and carry their CSRF token (forms.ts).
 */
import { escapeHtml as e, pageHead } from '../door/html.js';

export { e };

const CSS = `
*{box-sizing:border-box}
:root{color-scheme:light dark;--fg:#15201a;--bg:#f6f7f3;--card:#fff;--line:#5f6e64;--muted:#3f4c44;--accent:#1f4a2e;--accent-fg:#fff;--err-bg:#fde8e6;--err:#8c1d18;--ok-bg:#e4f2e6}
@media (prefers-color-scheme:dark){:root{--fg:#eef2ec;--bg:#121714;--card:#1c231f;--line:#9aa89f;--muted:#c9d3cc;--accent:#a8d5b3;--accent-fg:#0d1a12;--err-bg:#3a1513;--err:#ffb4ab;--ok-bg:#1d3323}}
body{margin:0;font:1.15rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:44rem;margin:0 auto;padding:1rem 1rem 4rem}
h1{font-size:1.75rem;line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.3rem;margin:1.75rem 0 .5rem}
a{color:var(--accent);text-underline-offset:.2em}
header{max-width:44rem;margin:0 auto;padding:.5rem 1rem 0}
nav ul{list-style:none;padding:0;margin:0 0 1rem;display:flex;flex-wrap:wrap;gap:.35rem .9rem}
nav a{display:inline-block;padding:.35rem 0;font-weight:600}
nav a[aria-current=page]{text-decoration-thickness:3px}
.card{background:var(--card);border:1px solid var(--line);border-radius:.7rem;padding:.8rem 1rem;margin:.75rem 0}
.muted{color:var(--muted)}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
ul.items{list-style:none;padding:0;margin:0}
ul.items>li{border-bottom:1px solid var(--line);padding:.6rem 0}
label{display:block;font-weight:600;margin:.8rem 0 .25rem}
input,select,textarea{font:inherit;width:100%;padding:.6rem .7rem;border:2px solid var(--line);border-radius:.5rem;background:var(--card);color:var(--fg)}
input[type=checkbox]{width:1.4rem;height:1.4rem;vertical-align:middle;margin-right:.5rem}
label.check{font-weight:400}
button{font:inherit;font-weight:700;padding:.65rem 1.2rem;min-height:2.9rem;border-radius:.5rem;border:2px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;margin-top:1rem}
button.quiet{background:transparent;color:var(--accent);margin-top:0}
form.inline{display:inline;margin:0}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{background:var(--err-bg);color:var(--err);border:2px solid var(--err);border-radius:.5rem;padding:.6rem .8rem}
.done{background:var(--ok-bg);border:2px solid var(--line);border-radius:.5rem;padding:.6rem .8rem}
.qr{background:#fff;padding:.6rem;border-radius:.5rem;width:15rem;max-width:100%}
.qr svg{display:block;width:100%;height:auto}
code,.secret{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere;font-size:1rem}
dl{margin:.25rem 0}dt{font-weight:600;margin-top:.5rem}dd{margin:0 0 .25rem}
`;

const FAVICON = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%231f4a2e'/%3E%3Cpath d='M16 6 5 15.5h3.2V26h5.6v-6.5h4.4V26h5.6V15.5H27z' fill='%23f6f7f3'/%3E%3C/svg%3E">`;

/** The sections a signed-in admin moves between, in the order of the menu. */
export const SECTIONS: readonly (readonly [path: string, title: string])[] = [
  ['/', 'Home'],
  ['/people', 'People'],
  ['/devices', 'Devices'],
  ['/family', 'Family'],
  ['/displays', 'Displays'],
  ['/calendars', 'Calendars'],
  ['/assistants', 'Assistants'],
  ['/webhooks', 'Webhooks'],
  ['/notifications', 'Notifications'],
  ['/backups', 'Backups'],
];

export interface Frame {
  title: string;
  /** The signed-in view: a menu and a sign-out button (with its CSRF token). */
  nav?: { current: string; csrf: string; familyName: string };
  /** An inline script's text; its hash goes into the page's CSP (headers.ts). */
  script?: string;
}

export function page(f: Frame, body: string): string {
  const nav = f.nav
    ? `<header><nav aria-label="Sections"><ul>${SECTIONS.map(
        ([href, title]) =>
          `<li><a href="${href}"${href === f.nav!.current ? ' aria-current="page"' : ''}>${e(title)}</a></li>`,
      ).join('')}</ul></nav>
<form class="inline" method="post" action="/signout">${csrfField(f.nav.csrf)}<button class="quiet" type="submit">Sign out of ${e(f.nav.familyName)}</button></form></header>`
    : '';
  return `${pageHead({ title: `${f.title} · Household`, style: CSS, extra: FAVICON })}<body>
${nav}<main>
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

/** A one-button form (revoke, remove, refresh, test) posting to `action`. */
export function buttonForm(action: string, csrf: string, label: string, quiet = true): string {
  return `<form class="inline" method="post" action="${e(action)}">${csrfField(csrf)}<button${quiet ? ' class="quiet"' : ''} type="submit">${e(label)}</button></form>`;
}
