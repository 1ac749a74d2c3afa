/**
 * Plans: list, create, read, update, delete, linked events, share.
 * Notes are in planNotes.ts, polls in planPolls.ts, the public page in src/public/planPage.ts.
 */
import type Koa from 'koa';
import { route, defineRoutes, withStatus, type RestServices } from '../route.js';
import type { Caller } from '../../domain/shared/state.js';
import {
  decideCreatePlan,
  decideDeletePlan,
  decideLinkEvent,
  decideSharePlan,
  decideUnlinkEvent,
  decideUpdatePlan,
  requirePlan,
} from '../../domain/plans/plans.js';
import {
  listPlans,
  planDetail,
  planListItem,
  shareUrlOf,
  type Viewer,
} from '../../domain/plans/views.js';
import { planShareToken } from '../../family/shareTokens.js';
import {
  CreatePlanBody,
  LINK_RESPONSE,
  LinkEventBody,
  PLAN_CREATE_RESPONSE,
  PLAN_DELETE_RESPONSE,
  PLAN_DETAIL_RESPONSE,
  PLAN_LIST_RESPONSE,
  PLAN_UPDATE_RESPONSE,
  SHARE_RESPONSE,
  ShareBody,
  UNLINK_RESPONSE,
  UpdatePlanBody,
} from './plans.schema.js';

export const PLAN_TAGS = ['Plans'];
const tags = PLAN_TAGS;

/**
 * How the calling key reads plans: today from the service clock, its own person's votes, and
 * share links on the address the request came to (the change log's copies use the stored base).
 */
export function viewerOfCaller(services: RestServices, actor: Caller, koa: Koa.Context): Viewer {
  return {
    now: services.now(),
    publicUrl: services.addresses.forRequest(koa),
    personId: actor.personId,
  };
}

export default defineRoutes([
  route({
    method: 'get',
    path: '/plans',
    tags,
    summary: 'List plans',
    description:
      "Newest first, archived plans included. `phase` and `when` come from the linked events and the settled dated poll options, in the family's time zone.",
    response: PLAN_LIST_RESPONSE,
    handler: ({ family, services, caller, koa }) => {
      const v = viewerOfCaller(services, caller, koa);
      return family.read((s) => ({
        ok: true,
        plans: listPlans(s).map((p) => planListItem(s, p, v)),
      }));
    },
  }),
  route({
    method: 'post',
    path: '/plans',
    tags,
    status: 201,
    body: CreatePlanBody,
    summary: 'Create a plan',
    response: PLAN_CREATE_RESPONSE,
    handler: ({ body, family, services, caller, koa }) =>
      family.execute(
        (s, ctx) => decideCreatePlan(s, body, ctx),
        (p, s) => ({
          ok: true,
          planId: p.id,
          title: p.title,
          plan: planDetail(s, p, viewerOfCaller(services, caller, koa)),
        }),
      ),
  }),
  route({
    method: 'get',
    path: '/plans/:planId',
    tags,
    summary: 'Read a plan',
    description:
      "With its linked events, notes (in order) and polls; each poll shows the calling key's person's vote as `myVoteOptionId`.",
    response: PLAN_DETAIL_RESPONSE,
    handler: ({ params, family, services, caller, koa }) => {
      const v = viewerOfCaller(services, caller, koa);
      return family.read((s) => ({ ok: true, ...planDetail(s, requirePlan(s, params.planId), v) }));
    },
  }),
  route({
    method: 'patch',
    path: '/plans/:planId',
    tags,
    body: UpdatePlanBody,
    summary: 'Update a plan',
    description:
      'At least one of title, prose, archived. `prose: null` clears the description; archiving keeps the linked events.',
    response: PLAN_UPDATE_RESPONSE,
    handler: ({ params, body, family, services, caller, koa }) =>
      family.execute(
        (s, ctx) => decideUpdatePlan(s, params.planId, body, ctx),
        (p, s) => ({
          ok: true,
          planId: p.id,
          title: p.title,
          archived: p.archived,
          prose: p.prose,
          plan: planDetail(s, p, viewerOfCaller(services, caller, koa)),
        }),
      ),
  }),
  route({
    method: 'delete',
    path: '/plans/:planId',
    tags,
    summary: 'Delete a plan',
    description:
      'Deletes its notes, polls (with their votes) and share link; linked calendar events stay, including events settling created.',
    response: PLAN_DELETE_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (s, ctx) => decideDeletePlan(s, params.planId, ctx),
        (p) => ({ ok: true, planId: p.id }),
      ),
  }),
  route({
    method: 'post',
    path: '/plans/:planId/events',
    tags,
    status: 201,
    body: LinkEventBody,
    summary: 'Link a calendar event to a plan',
    description:
      "Answers 201 when linked, 200 with the same body when the event was already linked (flags sent then replace the link's flags). Unknown event → 404. Nothing is copied: the plan reads the event live.",
    response: LINK_RESPONSE,
    alsoResponses: [
      { status: 200, schema: LINK_RESPONSE, description: 'Already linked: the same body' },
    ],
    handler: ({ params, body, family }) =>
      family.execute(
        (s, ctx) => decideLinkEvent(s, params.planId, body, ctx),
        (r) => {
          const out = { ok: true, planId: r.plan.id, eventId: r.item.eventId, event: r.item };
          return r.created ? out : withStatus(200, out);
        },
      ),
  }),
  route({
    method: 'delete',
    path: '/plans/:planId/events/:eventId',
    tags,
    summary: 'Unlink a calendar event from a plan',
    description: 'The event stays on the calendar. An event that is not linked → 404.',
    response: UNLINK_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (s, ctx) => decideUnlinkEvent(s, params.planId, params.eventId, ctx),
        (p) => ({ ok: true, planId: p.id, eventId: params.eventId }),
      ),
  }),
  route({
    method: 'post',
    path: '/plans/:planId/share',
    tags,
    body: ShareBody,
    summary: 'Turn the public plan page on or off',
    description:
      'The page (`GET /p/<token>`, no key) shows the live plan. `shareUrl` is a capability URL: anyone holding it can read the plan, so keep it private. Disabling makes it answer 404 at once; enabling again brings back the same address.',
    response: SHARE_RESPONSE,
    handler: ({ params, body, family, services, koa }) => {
      const fresh = planShareToken.make();
      // The log's record carries the stored base; the answer, the address asked at.
      return family.execute(
        (s, ctx) => decideSharePlan(s, params.planId, body.enabled, fresh, ctx),
        (r, s) => ({
          ok: true,
          enabled: r.enabled,
          shareUrl: shareUrlOf(requirePlan(s, params.planId), services.addresses.forRequest(koa)),
        }),
      );
    },
  }),
]);
