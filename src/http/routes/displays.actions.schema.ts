/**
 * The request and answer of an interactive display's actions, `POST /display/<token>/actions`
 * (src/domain/displays/actions.ts; docs/display.md, "Touch").
 */
import { S, named, type Infer, type JsonSchema } from '../../door/schema.js';
import { withExamples } from './collections.schema.js';
import { DISPLAY_CHANGE } from '../../domain/displays/shown.js';

const id = S.string({ min: 1, max: 100 });
const collection = S.string({
  min: 1,
  max: 100,
  description: 'A collection the display shows: chores, or one of its lists',
});

export const DisplayActionBody = withExamples(
  S.tagged('action', {
    done: S.object({ action: S.literal('done'), collection, entryId: id }),
    undone: S.object({ action: S.literal('undone'), collection, entryId: id }),
    add: S.object({
      action: S.literal('add'),
      collection,
      title: S.string({ min: 1, max: 200 }),
    }),
    remove: S.object(
      { action: S.literal('remove'), collection, entryId: id },
      'The undo of an add: only an item this display added, untouched since',
    ),
    attend: S.object(
      {
        action: S.literal('attend'),
        eventId: id,
        occurrence: S.optional(S.date()),
        personId: id,
        going: S.nullable(S.boolean()),
      },
      'going true: going, false: not going, null: no answer (the undo of a first answer)',
    ),
    vote: S.object(
      {
        action: S.literal('vote'),
        planId: id,
        pollId: id,
        optionIds: S.array(id, { max: 1 }),
        personId: id,
      },
      'One option (a person has one vote in a poll), or none to withdraw the vote',
    ),
  }),
  { action: 'done', collection: 'chores', entryId: 'ent_01kaq5m2v8x3c4d5e6f7' },
);
export type DisplayActionBody = Infer<typeof DisplayActionBody>;

export const DISPLAY_ACTION_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'change'],
  properties: {
    ok: { const: true },
    change: {
      anyOf: [DISPLAY_CHANGE.schema, { type: 'null' }],
      description:
        'The change the action made, as the display renders it (its actor carries the displayId); null when the family already was that way',
    },
  },
  examples: [
    {
      ok: true,
      change: {
        id: 'event_01kaq5m2v8x3c4d5e6f8',
        seq: 42,
        at: '2026-11-22T08:30:00.000Z',
        type: 'tracker.entry.updated',
        actor: { keyId: null, personId: null, displayId: 'display_01kaq5m2v8x3c4d5e6f7' },
        object: {
          id: 'ent_01kaq5m2v8x3c4d5e6f7',
          collectionKey: 'chores',
          title: 'Bins out',
          status: 'done',
        },
      },
    },
  ],
};

named('DisplayAction', DisplayActionBody);
