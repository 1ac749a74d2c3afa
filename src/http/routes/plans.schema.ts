/**
 * Request structs and response schemas of the plans endpoints, and the OpenAPI names of all of
 * them (the element schemas are in planObjects.schema.ts; the public page's is described with
 * its type in src/domain/plans/publicView.ts).
 */
import { S, named, type Infer, type JsonSchema, type SomeStruct } from '../../door/schema.js';
import { withExamples } from './collections.schema.js';
import { PLAN_DERIVED, PLAN_SUMMARY_DERIVED } from '../../domain/plans/views.js';
import {
  EVENT_ITEM_SCHEMA,
  NOTE_SCHEMA,
  OPTION_SCHEMA,
  POLL_SCHEMA,
  TIMING_SCHEMA,
  body,
  ok,
  str,
  strOrNull,
} from './planObjects.schema.js';
import { PUBLIC_PLAN } from '../../domain/plans/publicView.js';
import { createStruct, patchStruct, recordSchema } from '../../domain/shared/record.js';
import {
  NOTE_FIELDS,
  OPTION_FIELDS,
  OPTION_NOTE,
  PLAN_FIELDS,
  PLAN_SUMMARY_FIELDS,
  POLL_FIELDS,
  type OptionInput,
} from '../../domain/plans/types.js';

// ---- requests ---------------------------------------------------------------------------------

const flag = (): ReturnType<typeof S.boolean> => S.boolean();

// Built from the tables (PLAN_FIELDS, NOTE_FIELDS, POLL_FIELDS, OPTION_FIELDS): a field is added
// there, not here.
export const CreatePlanBody = withExamples(createStruct(PLAN_FIELDS), {
  title: 'Lake weekend',
  prose: 'Two nights at the cabin with the cousins.',
});
export type CreatePlanBody = Infer<typeof CreatePlanBody>;

export const UpdatePlanBody = withExamples(
  patchStruct(PLAN_FIELDS, {
    description:
      'At least one of title, prose, archived; prose null clears it, archived true archives (linked events stay)',
  }),
  { archived: true },
  { prose: null },
);
export type UpdatePlanBody = Infer<typeof UpdatePlanBody>;

const id = (description: string) => S.string({ min: 1, max: 100, description });

export const LinkEventBody = withExamples(
  S.object(
    {
      eventId: id('A calendar event of this family'),
      showDetailsOnShare: S.optional(flag()),
      showLocationOnShare: S.optional(flag()),
    },
    'showDetailsOnShare (default true) and showLocationOnShare (default false) are an extension; linking again with them changes them',
  ),
  { eventId: 'ent_01kaq5m2v8x3c4d5e6f7', showLocationOnShare: true },
);
export type LinkEventBody = Infer<typeof LinkEventBody>;

export const CreateNoteBody = withExamples(createStruct(NOTE_FIELDS), {
  body: 'Bring the big tent.',
  showOnSharedPage: true,
});
export type CreateNoteBody = Infer<typeof CreateNoteBody>;

export const UpdateNoteBody = withExamples(
  patchStruct(NOTE_FIELDS, {
    description: 'At least one of body, showOnSharedPage; author and place are kept',
  }),
  { showOnSharedPage: false },
);
export type UpdateNoteBody = Infer<typeof UpdateNoteBody>;

/** Option fields may be null (as responses show them) or left out: both mean unset. */
export const OptionBody = withExamples(
  createStruct(OPTION_FIELDS, OPTION_NOTE),
  { label: 'First weekend', date: '2026-06-13', endDate: '2026-06-15' },
  { date: '2026-06-20', time: '3:30 PM', endTime: '6:00 PM' },
);
export type OptionBody = Infer<typeof OptionBody>;

export const CreatePollBody = withExamples(
  createStruct(POLL_FIELDS) as unknown as SomeStruct<{
    question: string;
    options: Infer<typeof OptionBody>[];
  }>,
  {
    question: 'Which weekend?',
    options: [
      { label: 'Early June', date: '2026-06-13', endDate: '2026-06-15' },
      { label: 'Late June', date: '2026-06-27', endDate: '2026-06-29' },
    ],
  },
);
export type CreatePollBody = Infer<typeof CreatePollBody>;

/** A PATCH of a poll changes its question, which it must send. */
export const UpdatePollBody = withExamples(S.object({ question: POLL_FIELDS.question.struct }), {
  question: 'Which weekend works?',
});
export type UpdatePollBody = Infer<typeof UpdatePollBody>;

export const ChooseOptionBody = withExamples(S.object({ optionId: id('An option of this poll') }), {
  optionId: 'option_01kaq5m2v8x3c4d5e6f7',
});
export type ChooseOptionBody = Infer<typeof ChooseOptionBody>;

export const ShareBody = withExamples(S.object({ enabled: flag() }), { enabled: true });
export type ShareBody = Infer<typeof ShareBody>;

/** Request option → domain input (null and absent both mean unset). */
export function optionInput(o: OptionBody): OptionInput {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

// ---- responses ------------------------------------------------------------------------------

export const PLAN_LIST_ITEM_SCHEMA: JsonSchema = recordSchema(
  PLAN_SUMMARY_FIELDS,
  PLAN_SUMMARY_DERIVED,
);

export const PLAN_SCHEMA: JsonSchema = recordSchema(PLAN_FIELDS, PLAN_DERIVED);

const EXAMPLE_PLAN_ITEM = {
  planId: 'plan_01kaq5m2v8x3c4d5e6f7',
  title: 'Lake weekend',
  when: 'Jun 13 – 15, 2026',
  phase: 'upcoming',
  archived: false,
  eventCount: 1,
  shareEnabled: false,
  shareUrl: null,
  createdAt: '2026-05-02T08:30:00.000Z',
  updatedAt: '2026-05-02T08:30:00.000Z',
};

export const PLAN_LIST_RESPONSE = body(
  ['plans'],
  {
    plans: {
      type: 'array',
      items: PLAN_LIST_ITEM_SCHEMA,
      description: 'Newest first, archived ones included',
    },
  },
  { ok: true, plans: [EXAMPLE_PLAN_ITEM] },
);
export const PLAN_CREATE_RESPONSE = body(['planId', 'title'], {
  planId: str,
  title: str,
  plan: PLAN_SCHEMA,
});
export const PLAN_DETAIL_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', ...(PLAN_SCHEMA.required as string[])],
  properties: { ok, ...(PLAN_SCHEMA.properties as Record<string, JsonSchema>) },
};
export const PLAN_UPDATE_RESPONSE = body(['planId', 'title', 'archived'], {
  planId: str,
  title: str,
  archived: { type: 'boolean' },
  prose: strOrNull,
  plan: PLAN_SCHEMA,
});
export const PLAN_DELETE_RESPONSE = body(['planId'], { planId: str });
export const LINK_RESPONSE = body(['planId', 'eventId'], {
  planId: str,
  eventId: str,
  event: EVENT_ITEM_SCHEMA,
});
export const UNLINK_RESPONSE = body(['planId', 'eventId'], { planId: str, eventId: str });
export const SHARE_RESPONSE = body(
  ['enabled', 'shareUrl'],
  {
    enabled: { type: 'boolean' },
    shareUrl: {
      ...strOrNull,
      description:
        'A capability URL: keep it private. The same address comes back when sharing is enabled again',
    },
  },
  {
    ok: true,
    enabled: true,
    shareUrl: 'https://household.example/p/pln_7Hq2mXr9TbK4wZ1sV8cN3yD6fJ0gL5aP',
  },
);
export const NOTE_CREATE_RESPONSE = body(['noteId'], { noteId: str, note: NOTE_SCHEMA });
export const NOTE_UPDATE_RESPONSE = body(['noteId', 'onSharedPage'], {
  noteId: str,
  onSharedPage: { type: 'boolean' },
  note: NOTE_SCHEMA,
});
export const NOTE_DELETE_RESPONSE = body(['noteId'], { noteId: str });
export const POLL_RESPONSE = body(['pollId'], { pollId: str, poll: POLL_SCHEMA });
export const POLL_DELETE_RESPONSE = body(['pollId'], { pollId: str });
export const OPTION_RESPONSE = body(['optionId'], { optionId: str, poll: POLL_SCHEMA });
export const VOTE_RESPONSE = body(['pollId', 'optionId'], {
  pollId: str,
  optionId: str,
  poll: POLL_SCHEMA,
});
export const CLEAR_VOTE_RESPONSE = body(['pollId'], { pollId: str, poll: POLL_SCHEMA });
export const SETTLE_RESPONSE = body(
  ['addedToCalendar', 'eventId'],
  {
    addedToCalendar: {
      type: 'boolean',
      description: 'True when the option was dated and became a calendar event linked to the plan',
    },
    eventId: { ...strOrNull, description: 'That event' },
    pollId: str,
    settledOptionId: str,
    poll: POLL_SCHEMA,
  },
  {
    ok: true,
    addedToCalendar: true,
    eventId: 'ent_01kaq5m2v8x3c4d5e6f7',
    pollId: 'poll_01kaq5m2v8x3c4d5e6f7',
    settledOptionId: 'option_01kaq5m2v8x3c4d5e6f7',
  },
);
export const REOPEN_RESPONSE = body(['removedFromCalendar', 'removedEventId'], {
  removedFromCalendar: {
    type: 'boolean',
    description: 'True when the event settling created still existed and was deleted',
  },
  removedEventId: { ...strOrNull, description: 'That event; null when nothing was removed' },
  pollId: str,
  poll: POLL_SCHEMA,
});

/** The shared page's JSON: the domain's one description of it, its type read from it too. */
export const PUBLIC_PLAN_SCHEMA: JsonSchema = PUBLIC_PLAN.schema;

// Published once in the OpenAPI document, as components/schemas/<name>.
named('EventTiming', TIMING_SCHEMA);
named('PlanEvent', EVENT_ITEM_SCHEMA);
named('PlanNote', NOTE_SCHEMA);
named('PollOption', OPTION_SCHEMA);
named('Poll', POLL_SCHEMA);
named('PlanSummary', PLAN_LIST_ITEM_SCHEMA);
named('Plan', PLAN_SCHEMA);
named('PublicPlan', PUBLIC_PLAN_SCHEMA);
named('CreatePlanBody', CreatePlanBody);
named('UpdatePlanBody', UpdatePlanBody);
named('LinkEventBody', LinkEventBody);
named('CreateNoteBody', CreateNoteBody);
named('UpdateNoteBody', UpdateNoteBody);
named('PollOptionBody', OptionBody);
named('CreatePollBody', CreatePollBody);
named('UpdatePollBody', UpdatePollBody);
named('ChooseOptionBody', ChooseOptionBody);
named('PlanShareBody', ShareBody);
