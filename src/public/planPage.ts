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
import type { Phase } from '../domain/plans/timing.js';
import { publicPlan, type PublicPlan } from '../domain/plans/publicView.js';
import { route, defineRoutes, withStatus } from './route.js';
import { PUBLIC_PLAN_SCHEMA } from '../http/routes/plans.schema.js';
import { readSharedPlan } from './shared.js';
import { escapeHtml, pageHead } from '../door/html.js';

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2a24;background:#f4f6f2}
main{max-width:40rem;margin:0 auto;padding:1.25rem 1rem 3rem}
h1{font-size:1.6rem;line-height:1.25;margin:.25rem 0 .25rem;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:1.75rem 0 .5rem;color:#3c5a47;text-transform:uppercase;letter-spacing:.04em}
.when{font-size:1.1rem;font-weight:600;color:#3c5a47;margin:0}
.phase{display:inline-block;font-size:.8rem;padding:.05rem .5rem;border-radius:1rem;background:#dfe9df;color:#2f4a38;margin-left:.4rem;vertical-align:middle}
.prose{white-space:pre-wrap;overflow-wrap:anywhere;margin:.75rem 0 0}
ul{list-style:none;margin:0;padding:0}
li.card{background:#fff;border:1px solid #dde3dc;border-radius:.6rem;padding:.7rem .85rem;margin:0 0 .6rem}
.title{font-weight:600;overflow-wrap:anywhere}
.muted{color:#5d6b62;font-size:.92rem}
.note{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.q{font-weight:600;margin:0 0 .5rem;overflow-wrap:anywhere}
.opt{display:flex;justify-content:space-between;gap:.75rem;align-items:baseline;margin:.35rem 0 .1rem}
.opt .label{overflow-wrap:anywhere}
.count{font-variant-numeric:tabular-nums;white-space:nowrap;font-weight:600}
.bar{height:.4rem;border-radius:.2rem;background:#e6ebe5;overflow:hidden}
.bar span{display:block;height:100%;background:#7fa487}
.chosen .label{font-weight:700}
footer{margin-top:2.5rem;font-size:.8rem;color:#5d6b62}
.zone{margin:.35rem 0 0;color:#5d6b62;font-size:.92rem}
.add{margin:.75rem 0 0}
.add a{display:inline-block;padding:.45rem .9rem;border-radius:.5rem;background:#2f4a38;color:#fff;font-weight:600;text-decoration:none}
.add a:focus-visible{outline:3px solid #7fa487;outline-offset:2px}
`;

const PHASE_TEXT: Record<Phase, string> = {
  unscheduled: 'Not scheduled',
  upcoming: 'Upcoming',
  happening: 'Happening now',
  past: 'Past',
};

/** A house in the page's colours, inline so that no request is needed for it. */
const FAVICON = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%232f4a38'/%3E%3Cpath d='M16 6 5 15.5h3.2V26h5.6v-6.5h4.4V26h5.6V15.5H27z' fill='%23f4f6f2'/%3E%3C/svg%3E">`;

/**
 * The HTML page of the content (every value escaped; nothing loaded from elsewhere).
 * `icsHref` is the schedule's .ics address relative to the page (`<token>.ics`).
 */
export function renderPlanPage(c: PublicPlan, icsHref: string): string {
  const e = escapeHtml;
  const parts: string[] = [];
  parts.push(`${pageHead({ title: c.title, style: CSS, extra: FAVICON })}<body>
<main>
<h1 id="title">${e(c.title)}</h1>
<p class="when" id="when">${e(c.when)}${c.phase !== 'unscheduled' ? ` <span class="phase">${e(PHASE_TEXT[c.phase])}</span>` : ''}</p>
`);
  const dated = c.events.length > 0 || c.polls.some((p) => p.options.some((o) => o.when !== null));
  if (dated) parts.push(`<p class="zone" id="zone">Times in ${e(c.timezone)}</p>\n`);
  if (c.prose) parts.push(`<p class="prose" id="prose">${e(c.prose)}</p>\n`);
  if (c.events.length) {
    parts.push('<section id="events"><h2>Schedule</h2><ul>\n');
    for (const ev of c.events) {
      parts.push(
        `<li class="card event"><div class="title">${ev.title === null ? 'Busy' : e(ev.title)}</div><div class="muted">${e(ev.when)}</div>${
          ev.location ? `<div class="muted location">Where: ${e(ev.location)}</div>` : ''
        }</li>\n`,
      );
    }
    parts.push(
      `</ul><p class="add"><a id="add-to-calendar" href="${e(icsHref)}" type="text/calendar">Add to my calendar</a></p></section>\n`,
    );
  }
  if (c.polls.length) {
    parts.push('<section id="polls"><h2>Polls</h2><ul>\n');
    for (const p of c.polls) {
      const total = p.options.reduce((n, o) => n + o.votes, 0);
      parts.push(
        `<li class="card poll"><p class="q">${e(p.question)}${p.status === 'settled' ? ' <span class="phase">Decided</span>' : ''}</p>\n`,
      );
      for (const o of p.options) {
        const name = [o.label, o.when]
          .filter((x): x is string => !!x)
          .map(e)
          .join(' · ');
        const pct = total ? Math.round((o.votes / total) * 100) : 0;
        parts.push(
          `<div class="option${o.chosen ? ' chosen' : ''}"><div class="opt"><span class="label">${o.chosen ? '✓ ' : ''}${name}</span>` +
            `<span class="count">${o.votes} ${o.votes === 1 ? 'vote' : 'votes'}</span></div>` +
            `<div class="bar"><span style="width:${pct}%"></span></div></div>\n`,
        );
      }
      parts.push('</li>\n');
    }
    parts.push('</ul></section>\n');
  }
  if (c.notes.length) {
    parts.push('<section id="notes"><h2>Notes</h2><ul>\n');
    for (const n of c.notes)
      parts.push(
        `<li class="card"><p class="note">${e(n.body)}</p><div class="muted">— ${e(n.author)}</div></li>\n`,
      );
    parts.push('</ul></section>\n');
  }
  parts.push(
    '<footer>Shared from Household Organizer. This page shows the plan as it is now.</footer>\n</main>\n</body>\n</html>\n',
  );
  return parts.join('');
}

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
${FAVICON}
<title>Not found</title><style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#1f2a24}</style></head>
<body><main><h1>Nothing here</h1><p>This plan is not shared (any more), or the address is mistyped.</p></main></body></html>
`;

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
      "No API key: the token in the address is the credential (a capability URL). Renders the live plan as a self-contained HTML page: title, prose, when, linked events (the title only when showDetailsOnShare, the location only when showLocationOnShare), notes marked for the shared page and polls with their counts. Times are in the family's zone, which the page names, and its convention: 12-hour for zones of the United States, 24-hour elsewhere; the schedule links to `/p/{token}.ics`. With `Accept: application/json` it answers the same content as JSON: `{ok, title, prose, when, phase, timezone, events: [{title|null, when, timing, location?}], notes: [{body, author}], polls: [{question, status, options: [{label, when, date, endDate, time, endTime, votes, chosen}]}]}`. Unknown or disabled → 404.",
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
        return withStatus(404, NOT_FOUND_PAGE, HEADERS);
      };
      const token = params.token ?? '';
      const content = await readSharedPlan(koa, services, token, (state, plan) =>
        publicPlan(state, plan, services.now()),
      );
      if (!content) return gone();
      return withStatus(
        200,
        wantsJson ? content : renderPlanPage(content, `${token}.ics`),
        HEADERS,
      );
    },
  }),
]);
