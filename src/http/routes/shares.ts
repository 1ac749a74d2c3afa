/**
 * Calendar share links (admin scope): create (the token is shown once), list (no tokens),
 * delete (the public feed answers 404 at once). See docs/feeds.md.
 */
import { route, defineRoutes } from '../route.js';
import {
  decideCreateShare,
  decideDeleteShare,
  listShares,
  shareView,
} from '../../domain/calendar/shares.js';
import { calendarShareToken } from '../../family/shareTokens.js';
import {
  CreateShareBody,
  SHARE_CREATED_RESPONSE,
  SHARE_DELETED_RESPONSE,
  SHARE_LIST_RESPONSE,
} from './shares.schema.js';

const tags = ['Calendar shares'];
const base = '/calendar/shares';

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    scope: 'admin',
    summary: 'List calendar share links (without their tokens)',
    response: SHARE_LIST_RESPONSE,
    handler: ({ family }) =>
      family.read((state) => ({ ok: true, shares: listShares(state).map(shareView) })),
  }),
  route({
    method: 'post',
    path: base,
    tags,
    scope: 'admin',
    status: 201,
    body: CreateShareBody,
    summary: 'Create a calendar share link',
    description:
      "Answers the token (`shr_` + 32 base62) and the public feed `url` once; only the token's SHA-256 is kept. Logs calendar_share.created.",
    response: SHARE_CREATED_RESPONSE,
    handler: ({ body, family, services, koa }) => {
      const { token, tokenHash } = calendarShareToken.make();
      const url = `${services.addresses.forRequest(koa)}/share/calendar/${token}.ics`;
      return family.execute(
        (state, ctx) => decideCreateShare(state, body, tokenHash, ctx),
        (share) => ({ ok: true, share: shareView(share), token, url }),
      );
    },
  }),
  route({
    method: 'delete',
    path: `${base}/:shareId`,
    tags,
    scope: 'admin',
    summary: 'Revoke a calendar share link',
    description: 'The public feed answers 404 from this moment. Logs calendar_share.deleted.',
    response: SHARE_DELETED_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideDeleteShare(state, params.shareId, ctx),
        (share) => ({ ok: true, share: shareView(share) }),
      ),
  }),
]);
