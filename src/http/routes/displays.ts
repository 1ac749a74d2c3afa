/**
 * Family display links (admin scope): create (the token is shown once), list (no tokens),
 * change what one shows and may do, delete (the page and its stream stop at once). See
 * docs/display.md.
 */
import { route, defineRoutes } from '../route.js';
import {
  decideCreateDisplay,
  decideDeleteDisplay,
  decideUpdateDisplay,
  displayView,
  listDisplays,
} from '../../domain/displays/displays.js';
import { displayToken } from '../../family/shareTokens.js';
import {
  CreateDisplayBody,
  DISPLAY_CREATED_RESPONSE,
  DISPLAY_RESPONSE,
  DISPLAY_LIST_RESPONSE,
  UpdateDisplayBody,
} from './displays.schema.js';

const tags = ['Family displays'];
const base = '/displays';

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    scope: 'admin',
    summary: 'List family display links (without their tokens)',
    response: DISPLAY_LIST_RESPONSE,
    handler: ({ family }) =>
      family.read((state) => ({ ok: true, displays: listDisplays(state).map(displayView) })),
  }),
  route({
    method: 'post',
    path: base,
    tags,
    scope: 'admin',
    status: 201,
    body: CreateDisplayBody,
    summary: 'Create a family display link',
    description:
      "Answers the token (`dsp_` + 32 base62) and the page `url` once; only the token's SHA-256 is kept. Logs display.created.",
    response: DISPLAY_CREATED_RESPONSE,
    handler: ({ body, family, services, koa }) => {
      const { token, tokenHash } = displayToken.make();
      const url = `${services.addresses.forRequest(koa)}/display/${token}`;
      return family.execute(
        (state, ctx) => decideCreateDisplay(state, body, tokenHash, ctx),
        (display) => ({ ok: true, display: displayView(display), token, url }),
      );
    },
  }),
  route({
    method: 'patch',
    path: `${base}/:displayId`,
    tags,
    scope: 'admin',
    body: UpdateDisplayBody,
    summary: 'Change what a family display shows and may do',
    description:
      'Fields left out stay. `interactive: true` lets its page tick chores and list items off, add to its lists, answer for its people and vote (`POST /display/{displayToken}/actions`). The token and the address stay; open pages get the change from their stream. Logs display.updated when something changed.',
    response: DISPLAY_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideUpdateDisplay(state, params.displayId, body, ctx),
        (display) => ({ ok: true, display: displayView(display) }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:displayId`,
    tags,
    scope: 'admin',
    summary: 'Turn a family display link off',
    description:
      'The page answers 404 and its open streams get `event: gone` from this moment. Logs display.deleted.',
    response: DISPLAY_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideDeleteDisplay(state, params.displayId, ctx),
        (display) => ({ ok: true, display: displayView(display) }),
      ),
  }),
]);
