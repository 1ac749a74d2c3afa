/**
 * `POST /display/<token>/actions` (docs/display.md, "Touch"): what an interactive family
 * display's page may change — tick a chore or list item off (or back), add to one of its
 * lists (and remove that again as its undo), answer going / not going for one of its people,
 * vote in an open poll. The token in the address is the only credential, good for this route
 * and the display's own page and stream, nowhere else.
 *
 * In order:
 *   1. the token names a display (404 for an unknown, malformed or deleted one);
 *   2. the request carries an Idempotency-Key (400 without): the page makes one per tap and
 *      sends it with every retry;
 *   3. the link has requests left this minute (its budget of every door, `rateLimit.perMinute`,
 *      which its page and stream spend too) and the display has actions left
 *      (`display.actionsPerMinute`, bucket `display:<id>` of its own limiter); 429 with
 *      Retry-After past either;
 *   4. a key seen before replays its kept answer (the REST rules: 422 for another request, 409
 *      while the first runs), scoped to the display and sealed under its token;
 *   5. the action is decided on the family's actor by the REST commands
 *      (src/domain/displays/actions.ts) — only on an item the display shows right now (403 for
 *      any other id: shown.ts) —, its answer (the change as the display renders it, nothing
 *      more) kept in the same transaction as the change.
 */
import { Invalid, NotFound } from '../domain/shared/errors.js';
import type { Caller } from '../domain/shared/state.js';
import { displayByTokenHash } from '../domain/displays/displays.js';
import { decideDisplayAction, type DisplayAction } from '../domain/displays/actions.js';
import { displayChange } from '../domain/displays/shown.js';
import { displayToken } from '../family/shareTokens.js';
import { rateLimited } from '../door/errors.js';
import { keptAnswer, keptUnder, repeatOf } from '../door/idempotency.js';
import { countToken } from '../door/limits.js';
import { route, defineRoutes, withStatus } from './route.js';
import {
  DISPLAY_ACTION_RESPONSE,
  DisplayActionBody,
} from '../http/routes/displays.actions.schema.js';

export default defineRoutes([
  route({
    method: 'post',
    path: '/display/:displayToken/actions',
    family: false,
    scope: 'public',
    tags: ['Family displays'],
    body: DisplayActionBody,
    idempotencyKey: 'required',
    summary: "An interactive display's action: tick off, add, answer, vote",
    description:
      'No API key: the token in the address is the credential. One of `done` / `undone` (a chore or an item of one of its lists), `add` (to one of its lists) and `remove` (the undo of an add), `attend` (going, not going, or no answer for one of its people), `vote` (one of its people, in an open poll). ' +
      'Each goes through the same command as the REST API; the change it answers carries the display in `actor.displayId` and, of the object, only what the display renders (id, collection, title, status, vote). ' +
      '403 when the display is not interactive or does not show that collection, calendar, person or item right now (an id it does not show is 403, whatever it is); 404/409 when the family changed meanwhile (the entry was deleted, the poll settled). ' +
      'The Idempotency-Key is required: a retry with the same key is answered with the first answer and applies nothing. ' +
      'At most `display.actionsPerMinute` actions a minute per display (429).',
    response: DISPLAY_ACTION_RESPONSE,
    errors: [403, 404, 409],
    handler: async ({ koa, params, body, services }) => {
      // 1. The display.
      const token = params.displayToken ?? '';
      const hash = displayToken.hashOf(token);
      const actor = hash ? await services.registry.byShareToken(hash) : undefined;
      const display = actor ? await actor.read((s) => displayByTokenHash(s, hash!)) : undefined;
      if (!actor || !display) throw new NotFound('No family display at this address');
      // 2. Its Idempotency-Key.
      const idemKey = koa.get('idempotency-key');
      if (!idemKey)
        throw Invalid.at(
          ['header', 'Idempotency-Key'],
          'is required: make one for each tap and send it again with every retry of it',
        );
      // 3. Its rate: the link's budget, then its actions'.
      countToken(koa, services.limits, { kind: 'display', displayId: display.id });
      const bucket = `display:${display.id}`;
      const taken = services.display.limiter.take(bucket);
      if (taken.retryAfter !== null)
        throw rateLimited(
          `Too many actions from this display; try again in ${taken.retryAfter} s`,
          taken.retryAfter,
        );
      // 4. A replay, or the intent to keep this answer.
      const opened = services.display.replays(koa, { keyId: bucket, secret: token }, idemKey);
      if ('replay' in opened)
        return withStatus(opened.replay.status, opened.replay.body, {
          'Idempotent-Replayed': 'true',
        });
      // 5. The action, by the display (and for the person it answers for).
      const action: DisplayAction = body;
      const caller: Caller = {
        keyId: null,
        personId: 'personId' in action ? action.personId : null,
        keyName: display.name,
        displayId: display.id,
      };
      try {
        return await actor.execute(
          (state, ctx) =>
            decideDisplayAction(state, hash!, action, ctx, services.config.display.days),
          caller,
          {
            // Only what the display renders (shown.ts): never the whole record.
            answer: (_result, _state, log) => ({ ok: true, change: displayChange(log[0]) }),
            idempotency: keptUnder(opened.intent, (answer) =>
              keptAnswer(opened.intent, 200, answer),
            ),
          },
        );
      } catch (err) {
        // The family's actor found the tap answered after all (another node held the family a
        // moment ago): its kept answer, as the look above would have given it.
        const replay = repeatOf(err, opened);
        if (!replay) throw err;
        return withStatus(replay.status, replay.body, { 'Idempotent-Replayed': 'true' });
      } finally {
        opened.close();
      }
    },
  }),
]);
