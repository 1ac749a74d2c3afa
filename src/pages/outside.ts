/**
 * The household's ties outside: calendar feeds it reads and webhooks it sends. A feed or a
 * receiver whose address this server's egress policy refuses (`egress.calendarFeeds`,
 * `egress.webhooks`, docs/egress.md) is refused on the form itself, with what was typed kept and
 * the setting that would allow it named; a refusal of REST (an address found only by its
 * lookup, a feed that cannot be read) likewise keeps the form. A webhook's test is a POST that
 * redirects (a reload does not send it again); the page then shows how it went, a failure as an
 * error.
 */
import { EVENT_TYPES } from '../domain/shared/events.js';
import type { AddressClass, EgressPolicy } from '../integrations/addresses.js';
import { policyFor, refusedLiteral } from '../integrations/literalAddress.js';
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { PageError } from './errors.js';
import { field } from './forms.js';
import { action, at, back, id, list, strong } from './bits.js';
import { buttonForm, csrfField, doneBox, e, errorBox, rich, sayer } from './html.js';
import { rest } from './rest.js';
import { framed, query } from './sections.js';

/** What a refused form keeps: what was typed, and why it was refused. */
interface Typed {
  name: string;
  url: string;
  error: string;
}

/** The sentence for an address the policy refuses, naming the setting that allows it. */
function refusedText(r: PageRequest, url: string, cls: AddressClass, setting: string): string {
  const current: EgressPolicy =
    r.deps.services.config.egress[setting === 'egress.webhooks' ? 'webhooks' : 'calendarFeeds'];
  return r.voice.say('pages', 'addressRefused', {
    address: addressOf(url),
    kind: cls,
    setting,
    value: policyFor(cls),
    current,
  });
}

function addressOf(url: string): string {
  try {
    return new URL(url.replace(/^webcals?:/i, 'https:')).host;
  } catch {
    return url;
  }
}

/** The class REST names in a refusal ("… (a loopback address)"), when it names one. */
function classInMessage(message: string): AddressClass | null {
  const m = /not allowed for [a-z ]+(?: \(an? ([A-Za-z]+) address\))?/.exec(message);
  return m ? ((m[1] as AddressClass | undefined) ?? 'reserved') : null;
}

/** Adds through REST; a refusal is shown on the form again, with what was typed. */
async function addOrRefuse(
  r: PageRequest,
  setting: 'egress.calendarFeeds' | 'egress.webhooks',
  add: () => Promise<PageAnswer>,
  again: (typed: Typed) => Promise<PageAnswer>,
): Promise<PageAnswer> {
  const typed = { name: field(r.form, 'name'), url: field(r.form, 'url'), error: '' };
  const policy =
    r.deps.services.config.egress[setting === 'egress.webhooks' ? 'webhooks' : 'calendarFeeds'];
  const refused = refusedLiteral(typed.url, policy);
  if (refused) return again({ ...typed, error: refusedText(r, typed.url, refused, setting) });
  try {
    return await add();
  } catch (err) {
    if (!(err instanceof PageError) || err.status !== 400) throw err;
    const cls = classInMessage(err.message);
    const error = cls
      ? refusedText(r, typed.url, cls, setting)
      : r.voice.say('pages', 'errorApi', { reason: err.message });
    return again({ ...typed, error });
  }
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

async function calendarsPage(r: PageRequest, typed?: Typed): Promise<PageAnswer> {
  const { feeds } = await rest<{ feeds: Feed[] }>(r, 'GET', '/calendar/external');
  const csrf = sessionOf(r).csrf;
  const say = sayer(r.voice);
  const items = feeds.map(
    (
      f,
    ) => `<li><div class="row"><span>${strong(f.name)} <span class="muted">${say('feedLine', { count: f.eventCount, when: at(r, f.lastSyncedAt) })}</span></span>
<span>${buttonForm(`/calendars/${f.sourceId}/refresh`, csrf, r.voice.say('pages', 'refresh', { name: f.name }))} ${buttonForm(`/calendars/${f.sourceId}/remove`, csrf, r.voice.say('pages', 'removeThing', { name: f.name }))}</span></div>
${f.lastError ? `<p class="error">${say('lastError', { error: f.lastError })}</p>` : ''}</li>`,
  );
  const added = query(r, 'added');
  const body = `${added ? doneBox(rich(r.voice, 'addedName', {}, { name: strong(added) }), 'added') : ''}${list(items, say('noCalendars'))}
<h2 id="add">${say('addFeed')}</h2>
${errorBox(typed?.error)}<form method="post" action="/calendars">${csrfField(csrf)}
<label for="url">${say('fieldFeedUrl')}</label><input id="url" name="url" required inputmode="url" value="${e(typed?.url ?? '')}">
<label for="name">${say('fieldOptionalName')}</label><input id="name" name="name" maxlength="200" placeholder="${say('feedExample')}" value="${e(typed?.name ?? '')}">
<button type="submit">${say('add')}</button></form>`;
  const answer = framed(r, r.voice.say('pages', 'calendarsTitle'), '/calendars', body);
  return typed ? { ...answer, status: 400 } : answer;
}

function addFeed(r: PageRequest): Promise<PageAnswer> {
  return addOrRefuse(
    r,
    'egress.calendarFeeds',
    async () => {
      const name = field(r.form, 'name');
      const made = await rest<{ feed: Feed }>(r, 'POST', '/calendar/external', {
        url: field(r.form, 'url'),
        ...(name ? { name } : {}),
      });
      return back(`/calendars?added=${encodeURIComponent(made.feed.name)}`);
    },
    (typed) => calendarsPage(r, typed),
  );
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

function attempts(r: PageRequest, history: Attempt[]): string {
  const say = sayer(r.voice);
  if (!history.length) return `<p class="muted">${say('noDeliveries')}</p>`;
  // The history is newest first.
  return `<ul>${history
    .slice(0, 5)
    .map(
      (a) =>
        `<li>${say('delivery', { when: at(r, a.at), type: a.type, status: a.status })}${a.responseStatus ? ` (${a.responseStatus})` : ''}${a.error ? ` · ${e(a.error)}` : ''}</li>`,
    )
    .join('')}</ul>`;
}

/** How the last test of `tested` went: delivered in the success box, else an error. */
function testOutcome(r: PageRequest, destinations: Destination[]): string {
  const d = destinations.find((x) => x.id === query(r, 'tested'));
  const last = d?.history.find((a) => a.type === 'webhook.test');
  if (!d || !last) return '';
  if (last.status === 'succeeded')
    return doneBox(
      e(r.voice.say('pages', 'testReached', { name: d.name, status: last.responseStatus ?? '' })),
      'test-outcome',
    );
  const reason = last.error ?? (last.responseStatus ? String(last.responseStatus) : last.status);
  return `<p class="error" role="alert" id="test-outcome">${e(r.voice.say('pages', 'testFailed', { name: d.name, reason }))}</p>`;
}

async function webhooksPage(r: PageRequest, note = '', typed?: Typed): Promise<PageAnswer> {
  const { destinations } = await rest<{ destinations: Destination[] }>(
    r,
    'GET',
    '/webhook-destinations',
  );
  const csrf = sessionOf(r).csrf;
  const say = sayer(r.voice);
  const items = destinations.map(
    (
      d,
    ) => `<li><div class="row"><span>${strong(d.name)} <span class="muted"><bdi>${e(d.url)}</bdi>${d.enabled ? '' : ` · ${say('disabled')}`}</span></span>
<span>${buttonForm(`/webhooks/${d.id}/test`, csrf, r.voice.say('pages', 'sendTest', { name: d.name }))} ${buttonForm(`/webhooks/${d.id}/remove`, csrf, r.voice.say('pages', 'removeThing', { name: d.name }))}</span></div>
<p><strong>${say('recentDeliveries')}</strong></p>${attempts(r, d.history)}</li>`,
  );
  const body = `${note}${testOutcome(r, destinations)}${list(items, say('noWebhooks'))}
<h2 id="add">${say('addWebhook')}</h2>
${errorBox(typed?.error)}<form method="post" action="/webhooks">${csrfField(csrf)}
<label for="name">${say('fieldName')}</label><input id="name" name="name" required maxlength="200" placeholder="${say('webhookExample')}" value="${e(typed?.name ?? '')}">
<label for="url">${say('fieldReceiver')}</label><input id="url" name="url" required inputmode="url" value="${e(typed?.url ?? '')}">
<p class="muted">${say('webhookHelp')}</p>
<button type="submit">${say('add')}</button></form>`;
  const answer = framed(r, r.voice.say('pages', 'webhooksTitle'), '/webhooks', body);
  return typed ? { ...answer, status: 400 } : answer;
}

function addWebhook(r: PageRequest): Promise<PageAnswer> {
  return addOrRefuse(
    r,
    'egress.webhooks',
    async () => {
      const made = await rest<{ destination: Destination; signingSecret: string }>(
        r,
        'POST',
        '/webhook-destinations',
        { name: field(r.form, 'name'), url: field(r.form, 'url'), eventTypes: [...EVENT_TYPES] },
      );
      // The secret is shown only now: this answer is the page (a reload asks to resend the form).
      const note = rich(
        r.voice,
        'webhookAdded',
        {},
        {
          name: strong(made.destination.name),
          secret: `<span class="secret">${e(made.signingSecret)}</span>`,
        },
      );
      return webhooksPage(r, doneBox(note));
    },
    (typed) => webhooksPage(r, '', typed),
  );
}

/** Sends the test, then back to the page (POST/redirect/GET), which shows how it went. */
async function testWebhook(r: PageRequest): Promise<PageAnswer> {
  await rest(r, 'POST', `/webhook-destinations/${id(r)}/test`);
  return back(`/webhooks?tested=${id(r)}#test-outcome`);
}

export const outsideRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/calendars$/, signedIn: true, handle: (r) => calendarsPage(r) },
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
