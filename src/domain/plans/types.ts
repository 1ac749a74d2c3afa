/**
 * Records of the plans area. One record per plan in table `plans` holds everything
 * that belongs to the plan alone: its event links, notes (in their order), polls with their
 * options and votes, and its share link. A plan is small and every plan command touches one
 * plan, so one record keeps each decision to one record change and deleting a plan takes its
 * notes, polls and share with it by construction. Calendar events stay in the calendar area;
 * a link only points at one.
 */
import {
  createStruct,
  field,
  timestamp,
  typedText,
  type CreateOf,
  type RecordOf,
} from '../shared/record.js';
import { S, type SomeStruct } from '../shared/schema.js';
import { charCount } from '../shared/text.js';

export const PLANS = 'plans';

/** Limits of our own choosing (docs/decisions.md). */
export const TITLE_MAX = 200;
export const PROSE_MAX = 20_000;
export const NOTE_MAX = 20_000;
export const QUESTION_MAX = 500;
export const LABEL_MAX = 200;
export const OPTIONS_MIN = 2;
export const OPTIONS_MAX = 12;
/** Per plan; they keep a plan record small (409 past them). */
export const NOTES_MAX = 500;
export const POLLS_MAX = 100;
export const EVENTS_MAX = 500;

export interface EventLink {
  eventId: string;
  showDetailsOnShare: boolean;
  showLocationOnShare: boolean;
  linkedAt: string;
}

const own = { create: 'never', patch: 'never', view: 'always' } as const;
const hidden = { create: 'never', patch: 'never', view: 'never' } as const;

/**
 * Every field of a plan note, once (src/domain/shared/record.ts). A note lives in its plan's
 * record (`notes`, in the order written); the answer names its id `noteId`, shows the author's
 * name (`author`) and `showOnSharedPage` as `onSharedPage` (`NOTE_DERIVED`, views.ts).
 */
export const NOTE_FIELDS = {
  id: field(S.string(), hidden),
  body: field(S.string({ min: 1, max: NOTE_MAX }), {
    create: 'required',
    patch: 'value',
    view: 'always',
    ...typedText(NOTE_MAX),
  }),
  /** The key's person when it had one (the author shows that person's display name). */
  authorPersonId: field(S.string(), { ...hidden, nullable: true }),
  /** The key's name at the time of writing: the author when the key has no person. */
  authorKeyName: field(S.string(), hidden),
  /** Puts the note on the public plan page. */
  showOnSharedPage: field(S.boolean(), {
    create: 'optional',
    patch: 'value',
    default: false,
    view: 'never',
  }),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
};

export type NoteRecord = RecordOf<typeof NOTE_FIELDS>;

const optional = { create: 'optional', patch: 'never', nullable: true } as const;

/**
 * Every field of a poll option, once (src/domain/shared/record.ts). A request may send each as
 * null or leave it out (both: unset); `makeOption` (pollChecks.ts) holds the rules between them.
 * Times are stored `HH:mm` and shown `3:30 PM`; the answer names the id `optionId` and counts
 * its `votes` (`OPTION_DERIVED`, views.ts).
 */
export const OPTION_FIELDS = {
  id: field(S.string(), hidden),
  label: field(S.string({ max: LABEL_MAX }), { ...optional, view: 'always' }),
  date: field(S.date(), { ...optional, view: 'always' }),
  endDate: field(S.date(), { ...optional, view: 'always' }),
  time: field(S.time(), { ...optional, view: 'never' }),
  endTime: field(S.time(), { ...optional, view: 'never' }),
};

export type OptionRecord = RecordOf<typeof OPTION_FIELDS>;

/** An option as the domain takes it: null and absent both mean unset, so only values come. */
export type OptionInput = {
  [K in keyof CreateOf<typeof OPTION_FIELDS>]?: NonNullable<CreateOf<typeof OPTION_FIELDS>[K]>;
};

export const OPTION_NOTE =
  'A label or a date (or both); endDate, time and endTime only with a date. Times as HH:mm or 3:30 PM.';

/** The struct of one option a request sends. */
export const OptionBody = createStruct(OPTION_FIELDS, OPTION_NOTE);

export const POLL_STATUSES = ['open', 'settled'] as const;
export type PollStatus = (typeof POLL_STATUSES)[number];

/**
 * Every field of a date poll, once (src/domain/shared/record.ts). A poll lives in its plan's
 * record (`polls`); the answer names its id `pollId` and shows its options with their votes,
 * the reader's own vote and the count (`POLL_DERIVED`, views.ts). Settling sets the `settled…`
 * fields (pollSettle.ts); a PATCH changes only the question, which it must send.
 */
export const POLL_FIELDS = {
  id: field(S.string(), hidden),
  question: field(S.string({ min: 1, max: QUESTION_MAX }), {
    create: 'required',
    patch: 'value',
    view: 'always',
    ...typedText(QUESTION_MAX),
  }),
  status: field(S.enums(POLL_STATUSES), { ...own, default: 'open' }),
  settledOptionId: field(S.string(), { ...own, nullable: true }),
  settledEventId: field(
    S.string({ description: 'The calendar event settling created, while it exists' }),
    { ...own, nullable: true },
  ),
  /** Each made by `makeOption` from what the request sent (`OptionBody`). */
  options: field(
    S.array(OptionBody, { min: OPTIONS_MIN, max: OPTIONS_MAX }) as unknown as SomeStruct<
      OptionRecord[]
    >,
    { create: 'required', patch: 'never', view: 'never' },
  ),
  /** personId → optionId: one vote per person. */
  votes: field(S.record(S.string(), undefined), { ...hidden, default: {} }),
  settledAt: field(timestamp, { ...hidden, nullable: true }),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
};

export type PollRecord = RecordOf<typeof POLL_FIELDS>;

export interface ShareRecord {
  /**
   * The capability token, kept so the same address can be shown again when the share is turned
   * back on (links already handed out work again). The store-wide index holds only its SHA-256.
   */
  token: string;
  tokenHash: string;
  enabled: boolean;
  changedAt: string;
}

/**
 * Every field of a plan, once (src/domain/shared/record.ts), in the order an empty PATCH names
 * them. Its events, notes, polls and share are written by their own commands; the answer names
 * the id `planId`, adds when it happens and its share, and shows the lists as views
 * (`PLAN_DERIVED`, views.ts). The list of plans shows each without its prose and lists
 * (`PLAN_SUMMARY_FIELDS`).
 */
export const PLAN_FIELDS = {
  id: field(S.string(), hidden),
  title: field(
    S.string({ min: 1, max: TITLE_MAX, description: 'Name of the specific thing planned' }),
    {
      create: 'required',
      patch: 'value',
      view: 'always',
      ...typedText(TITLE_MAX),
    },
  ),
  prose: field(
    S.string({ max: PROSE_MAX, description: 'Description; null (or blank) clears it' }),
    {
      create: 'optional',
      patch: 'value',
      nullable: true,
      view: 'always',
      clean: (v) => v.trim() || null,
      check: (v) => charCount(v) <= PROSE_MAX || `must be at most ${PROSE_MAX} characters long`,
    },
  ),
  /** true archives the plan (its linked events stay). */
  archived: field(S.boolean(), { create: 'never', patch: 'value', default: false, view: 'always' }),
  // Written by their own commands (links, notes, polls, share), never sent with the plan: their
  // structs only give the stored types; the answer shows the lists as views (PLAN_DERIVED).
  events: field(S.array(S.any()) as SomeStruct<EventLink[]>, {
    ...hidden,
    default: [] as EventLink[],
  }),
  notes: field(S.array(S.any()) as SomeStruct<NoteRecord[]>, {
    ...hidden,
    default: [] as NoteRecord[],
  }),
  polls: field(S.array(S.any()) as SomeStruct<PollRecord[]>, {
    ...hidden,
    default: [] as PollRecord[],
  }),
  share: field(S.any() as SomeStruct<ShareRecord>, { ...hidden, nullable: true }),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
};

export type PlanRecord = RecordOf<typeof PLAN_FIELDS>;

/** What the list of plans shows of each: the plan without its prose (nor its lists). */
const { prose: _prose, ...summary } = PLAN_FIELDS;
export const PLAN_SUMMARY_FIELDS = summary;
