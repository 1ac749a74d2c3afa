/**
 * "Which key is this?": `GET /api/v1/families/<slug>` answers the family and the calling key,
 * so a client (a dashboard, Home Assistant, a script) can check its setup with one call that
 * any key may make. Never the key's secret or hash. `PATCH` (admin) changes the family's own
 * settings through its actor (src/domain/family/settings.ts).
 */
import { route, defineRoutes } from '../route.js';
import { named, S, type JsonSchema } from '../../door/schema.js';
import { withExamples } from './collections.schema.js';
import {
  decideUpdateFamily,
  familyView,
  FAMILY_NAME_MAX,
  LOCATION_MAX,
} from '../../domain/family/settings.js';
import { LOCALE_MAX_LENGTH } from '../../domain/i18n/locale.js';
import type { ApiKeyRecord } from '../../store/types.js';

export const FAMILY_SCHEMA: JsonSchema = named('Family', {
  type: 'object',
  required: ['slug', 'name', 'timezone', 'location', 'locale'],
  properties: {
    slug: { type: 'string', description: "The family's part of every path" },
    name: { type: 'string' },
    timezone: {
      type: 'string',
      description: 'IANA time zone: dates and local times of the family are in it',
    },
    location: {
      type: ['string', 'null'],
      description: 'Where the household is (for weather); null until set',
    },
    locale: {
      type: 'string',
      description:
        "The household's language and formats, a BCP 47 tag (de-DE, en-US, pt-BR, ar-EG): what the display, the pages and the notifications speak; `en` until chosen",
    },
  },
});

export const KEY_SCHEMA: JsonSchema = named('ApiKey', {
  type: 'object',
  required: ['id', 'name', 'scopes', 'personId'],
  properties: {
    id: {
      type: 'string',
      pattern: '^[0-9A-Za-z]{12}$',
      description:
        "The key's id: the part between `hk_` and the secret; the id `key list` and `key revoke` use",
    },
    name: { type: 'string' },
    scopes: {
      type: 'array',
      items: { type: 'string', enum: ['read', 'write', 'admin'] },
      description: 'read < write < admin: a scope includes those before it',
    },
    personId: {
      type: ['string', 'null'],
      description: 'The household member the key acts for (votes, note authors), or null',
    },
  },
});

const WHOAMI_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'family', 'key'],
  properties: { ok: { const: true }, family: FAMILY_SCHEMA, key: KEY_SCHEMA },
  examples: [
    {
      ok: true,
      family: {
        slug: 'home',
        name: 'Home',
        timezone: 'Europe/Berlin',
        location: null,
        locale: 'de-DE',
      },
      key: { id: '7Fq2LmN8pR4s', name: 'kitchen tablet', scopes: ['read'], personId: null },
    },
  ],
};

export { familyView };

export const UpdateFamilyBody = withExamples(
  S.refine(
    S.object(
      {
        name: S.optional(
          S.string({ min: 1, max: FAMILY_NAME_MAX, description: 'What the household is called' }),
        ),
        timezone: S.optional(
          S.string({
            min: 1,
            max: 64,
            description: 'IANA time zone; an unknown one answers 400 naming `timezone`',
          }),
        ),
        location: S.optional(
          S.nullable(
            S.string({
              max: LOCATION_MAX,
              description: 'A place name or `lat,lon` for the weather; null (or empty) removes it',
            }),
          ),
        ),
        locale: S.optional(
          S.string({
            min: 1,
            max: LOCALE_MAX_LENGTH,
            description:
              'A BCP 47 language tag (de-DE, en-US, pt-BR, ar-EG), stored in its canonical form; one that is not answers 400 naming `locale`',
          }),
        ),
      },
      'Only the fields to change',
    ),
    'nonEmpty',
    (v) => Object.keys(v).length > 0 || 'must change at least one field',
    'Only the fields to change',
  ),
  { timezone: 'America/New_York' },
);

const UPDATE_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'family'],
  properties: { ok: { const: true }, family: FAMILY_SCHEMA },
  examples: [
    {
      ok: true,
      family: {
        slug: 'home',
        name: 'Home',
        timezone: 'America/New_York',
        location: 'Boston',
        locale: 'en-US',
      },
    },
  ],
};

export function keyView(key: ApiKeyRecord): Record<string, unknown> {
  return { id: key.id, name: key.name, scopes: [...key.scopes], personId: key.personId };
}

export default defineRoutes([
  route({
    method: 'get',
    path: '',
    tags: ['Family'],
    scope: 'read',
    summary: 'The family and the API key making this call',
    description:
      'Any key of the family may call it (every scope includes read): a client checks here that its key works and which family, zone and scopes it has.',
    response: WHOAMI_RESPONSE,
    handler: ({ family, caller }) => ({
      ok: true,
      family: familyView(family.info),
      key: keyView(caller.key),
    }),
  }),
  route({
    method: 'patch',
    path: '',
    tags: ['Family'],
    scope: 'admin',
    body: UpdateFamilyBody,
    summary: "Change the family's name, time zone, location or locale",
    description:
      'Send only what changes. A new time zone moves everything with it in the same write: the family\'s own events keep their local dates and times; events of external calendars keep their instants (and each feed is read again in the new zone); reminders, leave-by times, coverage alerts and checks are planned again (what already fired never fires again; a time now past is not sent, the next occurrence\'s is planned); routines made without a zone follow it. `excludeEnded`, "today", plan times and the share feed follow at once. Logs `family.updated` (not sent to webhooks). A new `locale` is spoken at once: the display (live, through its stream), the pages and the next notification. Answers the family as `GET` shows it.',
    response: UPDATE_RESPONSE,
    handler: ({ body, family }) =>
      family.execute(
        (state, ctx) => decideUpdateFamily(state, body, ctx),
        (f) => ({ ok: true, family: familyView(f) }),
      ),
  }),
]);
