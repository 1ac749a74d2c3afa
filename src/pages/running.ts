/**
 * Running the household: wall displays, assistants (OAuth grants), outside calendars (feeds)
 * and webhooks. Thin views over their REST routes (rest.ts): what a page adds, changes or
 * removes is the REST request an admin's client would send, so the change log, webhooks and
 * scopes follow; a refusal there is this page's answer.
 */
import { EVENT_TYPES } from '../domain/shared/events.js';
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { field } from './forms.js';
import { buttonForm, csrfField, e } from './html.js';
import { qrSvg } from './pair.js';
import { rest } from './rest.js';
import { framed } from './sections.js';

const at = (iso: string | null | undefined) =>
  iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never';
const back = (path: string): PageAnswer => ({ redirect: path });
const id = (r: PageRequest) => encodeURIComponent(r.params[0]);
const list = (items: string[], empty: string) =>
  items.length ? `<ul class="items">${items.join('')}</ul>` : `<p>${e(empty)}</p>`;

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
  const items = displays.map(
    (
      d,
    ) => `<li class="row"><span><strong>${e(d.name)}</strong> <span class="muted">${d.interactive ? 'touch on' : 'touch off'} · since ${at(d.createdAt)}</span></span>
<span>${buttonForm(`/displays/${d.id}/touch`, csrf, d.interactive ? `Turn touch off for ${d.name}` : `Turn touch on for ${d.name}`)} ${buttonForm(`/displays/${d.id}/remove`, csrf, `Remove ${d.name}`)}</span></li>`,
  );
  const body = `${list(items, 'No displays yet.')}
<h2>Add a display</h2>
<form method="post" action="/displays">${csrfField(csrf)}
<label for="name">Where is it?</label><input id="name" name="name" required maxlength="200" placeholder="Kitchen">
<label class="check"><input type="checkbox" name="interactive" value="1">People may tick off and add things on it (touch)</label>
<button type="submit">Add and show its link</button></form>`;
  return framed(r, 'Displays', '/displays', body);
}

async function addDisplay(r: PageRequest): Promise<PageAnswer> {
  const made = await rest<{ display: Display; url: string }>(r, 'POST', '/displays', {
    name: field(r.form, 'name'),
    interactive: field(r.form, 'interactive') === '1',
  });
  const link = r.origin + new URL(made.url).pathname;
  const body = `<p class="done" role="status">Added <strong>${e(made.display.name)}</strong>.</p>
<p>Open this link on the tablet on the wall (scan the code with its camera). It is shown only now.</p>
${await qrSvg(link, 'QR code: the link of the new display')}
<p><a class="secret" id="display-link" href="${e(link)}">${e(link)}</a></p>
<p><a href="/displays">Back to the displays</a></p>`;
  return framed(r, 'Set up the display', '/displays', body);
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

async function assistantsPage(r: PageRequest): Promise<PageAnswer> {
  const { grants } = await rest<{ grants: Grant[] }>(r, 'GET', '/oauth-grants');
  const csrf = sessionOf(r).csrf;
  const items = grants
    .filter((g) => !g.revokedAt)
    .map(
      (g) =>
        `<li class="row"><span><strong>${e(g.clientName)}</strong> <span class="muted">${e(g.scopes.join(', '))} · since ${at(g.createdAt)}</span></span>${buttonForm(`/assistants/${g.id}/revoke`, csrf, `Revoke ${g.clientName}`)}</li>`,
    );
  const body = `<p>Assistants connect at <code>${e(r.origin)}/mcp</code>; an admin approves each one once.</p>
${list(items, 'No assistant is connected.')}`;
  return framed(r, 'Assistants', '/assistants', body);
}

// ---- outside calendars ------------------------------------------------------------------------

interface Feed {
  sourceId: string;
  name: string;
  url: string;
  eventCount: number;
  lastSyncedAt: string | null;
  lastError: string | null;
}

async function calendarsPage(r: PageRequest): Promise<PageAnswer> {
  const { feeds } = await rest<{ feeds: Feed[] }>(r, 'GET', '/calendar/external');
  const csrf = sessionOf(r).csrf;
  const items = feeds.map(
    (
      f,
    ) => `<li><div class="row"><span><strong>${e(f.name)}</strong> <span class="muted">${f.eventCount} events · updated ${at(f.lastSyncedAt)}</span></span>
<span>${buttonForm(`/calendars/${f.sourceId}/refresh`, csrf, `Refresh ${f.name}`)} ${buttonForm(`/calendars/${f.sourceId}/remove`, csrf, `Remove ${f.name}`)}</span></div>
${f.lastError ? `<p class="error">Last error: ${e(f.lastError)}</p>` : ''}</li>`,
  );
  const body = `${list(items, 'No outside calendars yet.')}
<h2>Add a calendar feed</h2>
<form method="post" action="/calendars">${csrfField(csrf)}
<label for="url">Its address (https or webcal)</label><input id="url" name="url" required inputmode="url">
<label for="name">Name (optional)</label><input id="name" name="name" maxlength="200" placeholder="School">
<button type="submit">Add</button></form>`;
  return framed(r, 'Outside calendars', '/calendars', body);
}

async function addFeed(r: PageRequest): Promise<PageAnswer> {
  const name = field(r.form, 'name');
  await rest(r, 'POST', '/calendar/external', {
    url: field(r.form, 'url'),
    ...(name ? { name } : {}),
  });
  return back('/calendars');
}

// ---- webhooks ---------------------------------------------------------------------------------

interface Attempt {
  type: string;
  at: string;
  status: string;
  responseStatus: number | null;
  error: string | null;
}
interface Destination {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  history: Attempt[];
}

function attempts(history: Attempt[]): string {
  if (!history.length) return '<p class="muted">No deliveries yet.</p>';
  return `<ul>${history
    .slice(-5)
    .reverse()
    .map(
      (a) =>
        `<li>${at(a.at)} · ${e(a.type)} · ${e(a.status)}${a.responseStatus ? ` (${a.responseStatus})` : ''}${a.error ? ` · ${e(a.error)}` : ''}</li>`,
    )
    .join('')}</ul>`;
}

async function webhooksPage(r: PageRequest, note = ''): Promise<PageAnswer> {
  const { destinations } = await rest<{ destinations: Destination[] }>(
    r,
    'GET',
    '/webhook-destinations',
  );
  const csrf = sessionOf(r).csrf;
  const items = destinations.map(
    (
      d,
    ) => `<li><div class="row"><span><strong>${e(d.name)}</strong> <span class="muted">${e(d.url)}${d.enabled ? '' : ' · disabled'}</span></span>
<span>${buttonForm(`/webhooks/${d.id}/test`, csrf, `Send a test to ${d.name}`)} ${buttonForm(`/webhooks/${d.id}/remove`, csrf, `Remove ${d.name}`)}</span></div>
<p><strong>Recent deliveries</strong></p>${attempts(d.history)}</li>`,
  );
  const body = `${note}${list(items, 'No webhooks yet.')}
<h2>Add a webhook</h2>
<form method="post" action="/webhooks">${csrfField(csrf)}
<label for="name">Name</label><input id="name" name="name" required maxlength="200" placeholder="Home Assistant">
<label for="url">Receiver address</label><input id="url" name="url" required inputmode="url">
<p class="muted">It receives every change of the household, signed (Standard Webhooks).</p>
<button type="submit">Add</button></form>`;
  return framed(r, 'Webhooks', '/webhooks', body);
}

async function addWebhook(r: PageRequest): Promise<PageAnswer> {
  const made = await rest<{ destination: Destination; signingSecret: string }>(
    r,
    'POST',
    '/webhook-destinations',
    {
      name: field(r.form, 'name'),
      url: field(r.form, 'url'),
      eventTypes: [...EVENT_TYPES],
    },
  );
  return webhooksPage(
    r,
    `<p class="done" role="status">Added ${e(made.destination.name)}. Its signing secret, shown only now: <span class="secret">${e(made.signingSecret)}</span></p>`,
  );
}

async function testWebhook(r: PageRequest): Promise<PageAnswer> {
  const { delivery } = await rest<{
    delivery: { status: string; responseStatus: number | null; error: string | null };
  }>(r, 'POST', `/webhook-destinations/${id(r)}/test`);
  const outcome = `${delivery.status}${delivery.responseStatus ? ` (${delivery.responseStatus})` : ''}${delivery.error ? `: ${delivery.error}` : ''}`;
  return webhooksPage(
    r,
    `<p class="done" role="status" id="test-outcome">Test delivery ${e(outcome)}.</p>`,
  );
}

// ---- the routes -------------------------------------------------------------------------------

/** A one-button action: the REST request, then back to the section. */
function action(
  path: RegExp,
  method: 'POST' | 'DELETE',
  to: (r: PageRequest) => string,
  section: string,
): PageRoute {
  return {
    method: 'POST',
    path,
    signedIn: true,
    handle: async (r) => {
      await rest(r, method, to(r));
      return back(section);
    },
  };
}

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
  { method: 'GET', path: /^\/calendars$/, signedIn: true, handle: calendarsPage },
  { method: 'POST', path: /^\/calendars$/, signedIn: true, handle: addFeed },
  action(
    /^\/calendars\/([^/]+)\/refresh$/,
    'POST',
    (r) => `/calendar/external/${id(r)}/refresh`,
    '/calendars',
  ),
  action(
    /^\/calendars\/([^/]+)\/remove$/,
    'DELETE',
    (r) => `/calendar/external/${id(r)}`,
    '/calendars',
  ),
  { method: 'GET', path: /^\/webhooks$/, signedIn: true, handle: (r) => webhooksPage(r) },
  { method: 'POST', path: /^\/webhooks$/, signedIn: true, handle: addWebhook },
  { method: 'POST', path: /^\/webhooks\/([^/]+)\/test$/, signedIn: true, handle: testWebhook },
  action(
    /^\/webhooks\/([^/]+)\/remove$/,
    'DELETE',
    (r) => `/webhook-destinations/${id(r)}`,
    '/webhooks',
  ),
];
