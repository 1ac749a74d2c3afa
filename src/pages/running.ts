/**
 * Running the household: wall displays and assistants (OAuth grants); outside calendars and
 * webhooks are in outside.ts. Thin views over their REST routes (rest.ts): what a page adds,
 * changes or removes is the REST request an admin's client would send, so the change log,
 * webhooks and scopes follow; a refusal there is this page's answer. Every time shown is the
 * family's, on its zone and its locale's clock.
 */
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { field } from './forms.js';
import { action, at, back, id, list, strong } from './bits.js';
import { buttonForm, csrfField, doneBox, e, rich, sayer } from './html.js';
import { qrSvg } from './pair.js';
import { rest } from './rest.js';
import { framed } from './sections.js';

// ---- displays ---------------------------------------------------------------------------------

interface Display {
  id: string;
  name: string;
  interactive: boolean;
  createdAt: string;
}

async function displaysPage(r: PageRequest): Promise<PageAnswer> {
  const { displays } = await rest<{ displays: Display[] }>(r, 'GET', '/displays');
  const csrf = sessionOf(r).csrf;
  const say = sayer(r.voice);
  const items = displays.map(
    (
      d,
    ) => `<li class="row"><span>${strong(d.name)} <span class="muted">${say(d.interactive ? 'touchOn' : 'touchOff')} · ${say('since', { when: at(r, d.createdAt) })}</span></span>
<span>${buttonForm(`/displays/${d.id}/touch`, csrf, r.voice.say('pages', d.interactive ? 'turnTouchOff' : 'turnTouchOn', { name: d.name }))} ${buttonForm(`/displays/${d.id}/remove`, csrf, r.voice.say('pages', 'removeThing', { name: d.name }))}</span></li>`,
  );
  const body = `${list(items, say('noDisplays'))}
<h2>${say('addDisplay')}</h2>
<form method="post" action="/displays">${csrfField(csrf)}
<label for="name">${say('whereIsIt')}</label><input id="name" name="name" required maxlength="200" placeholder="${say('displayExample')}">
<label class="check"><input type="checkbox" name="interactive" value="1">${say('touchChoice')}</label>
<button type="submit">${say('addDisplaySubmit')}</button></form>`;
  return framed(r, r.voice.say('pages', 'displaysTitle'), '/displays', body);
}

async function addDisplay(r: PageRequest): Promise<PageAnswer> {
  const made = await rest<{ display: Display; url: string }>(r, 'POST', '/displays', {
    name: field(r.form, 'name'),
    interactive: field(r.form, 'interactive') === '1',
  });
  const say = sayer(r.voice);
  const link = r.origin + new URL(made.url).pathname;
  const body = `${doneBox(rich(r.voice, 'addedName', {}, { name: strong(made.display.name) }))}
<p>${say('displayOpen')}</p>
${await qrSvg(link, r.voice.say('pages', 'displayQr'))}
<p><a class="secret" id="display-link" href="${e(link)}">${e(link)}</a></p>
<p><a href="/displays">${say('backDisplays')}</a></p>`;
  return framed(r, r.voice.say('pages', 'displayTitle'), '/displays', body);
}

async function toggleTouch(r: PageRequest): Promise<PageAnswer> {
  const { displays } = await rest<{ displays: Display[] }>(r, 'GET', '/displays');
  const d = displays.find((x) => x.id === r.params[0]);
  await rest(r, 'PATCH', `/displays/${id(r)}`, { interactive: !d?.interactive });
  return back('/displays');
}

// ---- assistants -------------------------------------------------------------------------------

interface Grant {
  id: string;
  clientName: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

/** Scopes in the reader's words: "read and change". */
export function scopeWords(r: PageRequest, scopes: readonly string[]): string {
  return r.voice.formats.list(
    scopes.map((s) => r.voice.say('pages', 'scope', { scope: s.replace(/^household:/, '') })),
  );
}

async function assistantsPage(r: PageRequest): Promise<PageAnswer> {
  const { grants } = await rest<{ grants: Grant[] }>(r, 'GET', '/oauth-grants');
  const csrf = sessionOf(r).csrf;
  const say = sayer(r.voice);
  const items = grants
    .filter((g) => !g.revokedAt)
    .map(
      (g) =>
        `<li class="row"><span>${strong(g.clientName)} <span class="muted">${e(scopeWords(r, g.scopes))} · ${say('since', { when: at(r, g.createdAt) })}</span></span>${buttonForm(`/assistants/${g.id}/revoke`, csrf, r.voice.say('pages', 'revoke', { name: g.clientName }))}</li>`,
    );
  const body = `<p>${rich(r.voice, 'assistantsIntro', {}, { address: `<code>${e(r.origin)}/mcp</code>` })}</p>
${list(items, say('noAssistants'))}`;
  return framed(r, r.voice.say('pages', 'assistantsTitle'), '/assistants', body);
}

// ---- the routes -------------------------------------------------------------------------------

export const runningRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/displays$/, signedIn: true, handle: displaysPage },
  { method: 'POST', path: /^\/displays$/, signedIn: true, handle: addDisplay },
  { method: 'POST', path: /^\/displays\/([^/]+)\/touch$/, signedIn: true, handle: toggleTouch },
  action(/^\/displays\/([^/]+)\/remove$/, 'DELETE', (r) => `/displays/${id(r)}`, '/displays'),
  { method: 'GET', path: /^\/assistants$/, signedIn: true, handle: assistantsPage },
  action(
    /^\/assistants\/([^/]+)\/revoke$/,
    'DELETE',
    (r) => `/oauth-grants/${id(r)}`,
    '/assistants',
  ),
];
