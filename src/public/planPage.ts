/**
 * The public plan page: `GET /p/<token>`, no API key. The token is a capability:
 * its SHA-256 finds the family through the store-wide index and then the plan whose enabled
 * share carries that hash. Unknown, malformed and disabled tokens answer the same 404.
 *
 * One content object feeds both answers: `Accept: application/json` gets it as JSON, everyone
 * else an HTML page built from it (self-contained: inline CSS, no scripts, no outside assets,
 * every value escaped, readable on a phone). What the page shows: title, prose, when, linked
 * events (the title only when `showDetailsOnShare`, the location only when
 * `showLocationOnShare` too), notes marked for the shared page, polls with their counts. Times
 * are in the family's zone and convention (src/domain/plans/clock.ts), with the zone named; the
 * schedule can be added to a calendar from `/p/<token>.ics` (planIcs.ts). The content itself is
 * the plans domain's public view (src/domain/plans/publicView.ts).
 */
import { NotFound } from '../domain/shared/errors.js';
import { publicPlan, type PublicPlan } from '../domain/plans/publicView.js';
import { route, defineRoutes, withStatus } from './route.js';
import { PUBLIC_PLAN_SCHEMA } from '../http/routes/plans.schema.js';
import { readSharedPlan } from './shared.js';
import { escapeHtml, pageHead } from '../door/html.js';
import type { KeyOf, Values } from '../domain/i18n/messages.js';
import { bestLocale } from '../domain/i18n/negotiate.js';
import { voiceOf, type Voice } from '../domain/i18n/voice.js';
import { familyLocale } from '../domain/shared/state.js';

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2a24;background:#f4f6f2}
main{max-width:40rem;margin-block:0;margin-inline:auto;padding-block:1.25rem 3rem;padding-inline:1rem}
h1{font-size:1.6rem;line-height:1.25;margin-block:.25rem;margin-inline:0;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin-block:1.75rem .5rem;margin-inline:0;color:#3c5a47;text-transform:uppercase;letter-spacing:.04em}
:lang(ar) h2{text-transform:none;letter-spacing:0}
.when{font-size:1.1rem;font-weight:600;color:#3c5a47;margin:0}
.phase{display:inline-block;font-size:.8rem;padding-block:.05rem;padding-inline:.5rem;border-radius:1rem;background:#dfe9df;color:#2f4a38;margin-inline-start:.4rem;vertical-align:middle}
.prose{white-space:pre-wrap;overflow-wrap:anywhere;margin-block:.75rem 0;margin-inline:0;text-align:start}
ul{list-style:none;margin:0;padding:0}
li.card{background:#fff;border:1px solid #dde3dc;border-radius:.6rem;padding-block:.7rem;padding-inline:.85rem;margin-block:0 .6rem;margin-inline:0}
.title{font-weight:600;overflow-wrap:anywhere}
.muted{color:#5d6b62;font-size:.92rem}
.note{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.q{font-weight:600;margin-block:0 .5rem;margin-inline:0;overflow-wrap:anywhere}
.opt{display:flex;justify-content:space-between;gap:.75rem;align-items:baseline;margin-block:.35rem .1rem;margin-inline:0}
.opt .label{overflow-wrap:anywhere}
.count{font-variant-numeric:tabular-nums;white-space:nowrap;font-weight:600}
.bar{height:.4rem;border-radius:.2rem;background:#e6ebe5;overflow:hidden}
.bar span{display:block;height:100%;background:#7fa487;margin-inline-end:auto}
.tick{margin-inline-end:.25rem}
.chosen .label{font-weight:700}
footer{margin-block-start:2.5rem;font-size:.8rem;color:#5d6b62}
.zone{margin-block:.35rem 0;margin-inline:0;color:#5d6b62;font-size:.92rem}
bdi{unicode-bidi:isolate}
.add{margin-block:.75rem 0;margin-inline:0}
.add a{display:inline-block;padding-block:.45rem;padding-inline:.9rem;border-radius:.5rem;background:#2f4a38;color:#fff;font-weight:600;text-decoration:none}
.add a:focus-visible{outline:3px solid #7fa487;outline-offset:2px}
`;

/** A house in the page's colours, inline so that no request is needed for it. */
const FAVICON = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%232f4a38'/%3E%3Cpath d='M16 6 5 15.5h3.2V26h5.6v-6.5h4.4V26h5.6V15.5H27z' fill='%23f4f6f2'/%3E%3C/svg%3E">`;

/**
 * The HTML page of the content (every value escaped; nothing loaded from elsewhere), every word
 * from the catalog's `plan` section in the family's voice, `lang` and `dir` from its locale.
 * `icsHref` is the schedule's .ics address relative to the page (`<token>.ics`).
 */
export function renderPlanPage(c: PublicPlan, icsHref: string, voice: Voice): string {
  const e = escapeHtml;
  const say = (key: KeyOf<'plan'>, values?: Values) => e(voice.say('plan', key, values));
  const parts: string[] = [];
  parts.push(`${pageHead({ title: c.title, style: CSS, extra: FAVICON, voice })}<body>
<main>
<h1 id="title">${e(c.title)}</h1>
<p class="when" id="when">${e(c.when)}${c.phase !== 'unscheduled' ? ` <span class="phase">${say('phase', { phase: c.phase })}</span>` : ''}</p>
`);
  const dated = c.events.length > 0 || c.polls.some((p) => p.options.some((o) => o.when !== null));
  if (dated)
    parts.push(
      `<p class="zone" id="zone">${say('timesIn', { zone: '\u0001' }).replace('\u0001', `<bdi>${e(c.timezone)}</bdi>`)}</p>\n`,
    );
  if (c.prose) parts.push(`<p class="prose" id="prose">${e(c.prose)}</p>\n`);
  if (c.events.length) parts.push(eventsSection(c, icsHref, say));
  if (c.polls.length) parts.push(pollsSection(c, say));
  if (c.notes.length) {
    parts.push(`<section id="notes"><h2>${say('notes')}</h2><ul>\n`);
    for (const n of c.notes)
      parts.push(
        `<li class="card"><p class="note">${e(n.body)}</p><div class="muted">— <bdi>${e(n.author)}</bdi></div></li>\n`,
      );
    parts.push('</ul></section>\n');
  }
  parts.push(`<footer>${say('footer')}</footer>\n</main>\n</body>\n</html>\n`);
  return parts.join('');
}

type PlanSay = (key: KeyOf<'plan'>, values?: Values) => string;

function eventsSection(c: PublicPlan, icsHref: string, say: PlanSay): string {
  const e = escapeHtml;
  const items = c.events.map(
    (ev) =>
      `<li class="card event"><div class="title">${ev.title === null ? say('busy') : e(ev.title)}</div><div class="muted">${e(ev.when)}</div>${
        ev.location
          ? `<div class="muted location">${say('where', { place: ev.location })}</div>`
          : ''
      }</li>\n`,
  );
  return `<section id="events"><h2>${say('schedule')}</h2><ul>\n${items.join('')}</ul><p class="add"><a id="add-to-calendar" href="${e(icsHref)}" type="text/calendar">${say('addToCalendar')}</a></p></section>\n`;
}

function pollsSection(c: PublicPlan, say: PlanSay): string {
  const e = escapeHtml;
  const parts = [`<section id="polls"><h2>${say('polls')}</h2><ul>\n`];
  for (const p of c.polls) {
    const total = p.options.reduce((n, o) => n + o.votes, 0);
    parts.push(
      `<li class="card poll"><p class="q">${e(p.question)}${p.status === 'settled' ? ` <span class="phase">${say('decided')}</span>` : ''}</p>\n`,
    );
    for (const o of p.options) {
      const name = [o.label, o.when]
        .filter((x): x is string => !!x)
        .map(e)
        .join(' · ');
      const pct = total ? Math.round((o.votes / total) * 100) : 0;
      const tick = o.chosen
        ? `<span class="tick" role="img" aria-label="${say('chosen')}">✓</span>`
        : '';
      parts.push(
        `<div class="option${o.chosen ? ' chosen' : ''}"><div class="opt"><span class="label">${tick}${name}</span>` +
          `<span class="count">${say('votes', { count: o.votes })}</span></div>` +
          `<div class="bar"><span style="width:${pct}%"></span></div></div>\n`,
      );
    }
    parts.push('</li>\n');
  }
  parts.push('</ul></section>\n');
  return parts.join('');
}

/** The page of a link that shares nothing, in the browser's language. */
function notFoundPage(voice: Voice): string {
  const say = (key: KeyOf<'plan'>) => escapeHtml(voice.say('plan', key));
  return `${pageHead({ title: voice.say('plan', 'notFoundTitle'), style: 'body{font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#1f2a24}', extra: FAVICON, voice })}<body><main><h1>${say('notFoundHeading')}</h1><p>${say('notFoundText')}</p></main></body></html>
`;
}

export const HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  vary: 'Accept',
};

export default defineRoutes([
  route({
    method: 'get',
    path: '/p/:token',
    family: false,
    scope: 'public',
    tags: ['Plans'],
    summary: 'The public page of a shared plan',
    description:
      "No API key: the token in the address is the credential (a capability URL). Renders the live plan as a self-contained HTML page: title, prose, when, linked events (the title only when showDetailsOnShare, the location only when showLocationOnShare), notes marked for the shared page and polls with their counts. Times are in the family's zone, which the page names; the page speaks the family's locale (its words, dates and clock, docs/i18n.md), while the JSON's `when` texts keep the contract's English on the zone's convention (12-hour for zones of the United States, 24-hour elsewhere); the schedule links to `/p/{token}.ics`. With `Accept: application/json` it answers the same content as JSON: `{ok, title, prose, when, phase, timezone, events: [{title|null, when, timing, location?}], notes: [{body, author}], polls: [{question, status, options: [{label, when, date, endDate, time, endTime, votes, chosen}]}]}`. Unknown or disabled → 404.",
    produces: 'text/html',
    response: { type: 'string', description: 'A self-contained HTML page' },
    alsoResponses: [
      {
        status: 200,
        contentType: 'application/json',
        schema: PUBLIC_PLAN_SCHEMA,
        description: 'The same content as JSON (Accept: application/json)',
      },
      {
        status: 404,
        contentType: 'text/html',
        schema: { type: 'string', description: 'A page saying the plan is not shared' },
        description:
          'Unknown, malformed or unshared token: a page for browsers, the error JSON with Accept: application/json',
      },
    ],
    handler: async ({ koa, params, services }) => {
      const wantsJson = koa.accepts('html', 'json') === 'json';
      const gone = () => {
        if (wantsJson) throw new NotFound('No shared plan at this address');
        return withStatus(
          404,
          notFoundPage(voiceOf(bestLocale(koa.get('accept-language')), 'UTC')),
          HEADERS,
        );
      };
      const token = params.token ?? '';
      const read = await readSharedPlan(koa, services, token, (state, plan) => {
        // The HTML speaks the family's language; the JSON keeps the contract's English.
        const voice = voiceOf(familyLocale(state.family), state.family.timezone);
        return {
          voice,
          content: publicPlan(state, plan, services.now(), wantsJson ? undefined : voice),
        };
      });
      if (!read) return gone();
      return withStatus(
        200,
        wantsJson ? read.content : renderPlanPage(read.content, `${token}.ics`, read.voice),
        HEADERS,
      );
    },
  }),
]);
