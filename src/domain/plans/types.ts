/**
 * Records of the plans area. One record per plan in table `plans` holds everything
 * that belongs to the plan alone: its event links, notes (in their order), polls with their
 * options and votes, and its share link. A plan is small and every plan command touches one
 * plan, so one record keeps each decision to one record change and deleting a plan takes its
 * notes, polls and share with it by construction. Calendar events stay in the calendar area;
 * a link only points at one.
 */
import { field, timestamp, type RecordOf } from '../shared/record.js';
import { S } from '../shared/schema.js';
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
    clean: (v) => v.trim(),
    check: (v) =>
      v === ''
        ? 'must not be blank'
        : charCount(v) <= NOTE_MAX || `must be at most ${NOTE_MAX} characters long`,
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

/** A poll option; times are stored `HH:mm` and shown `3:30 PM`. */
export interface OptionRecord {
  id: string;
  label: string | null;
  date: string | null;
  endDate: string | null;
  time: string | null;
  endTime: string | null;
}

export type PollStatus = 'open' | 'settled';

export interface PollRecord {
  id: string;
  question: string;
  status: PollStatus;
  options: OptionRecord[];
  /** personId → optionId: one vote per person. */
  votes: Record<string, string>;
  settledOptionId: string | null;
  /** The calendar event settling created (cleared when that event is deleted). */
  settledEventId: string | null;
  settledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

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

export interface PlanRecord {
  id: string;
  title: string;
  prose: string | null;
  archived: boolean;
  events: EventLink[];
  notes: NoteRecord[];
  polls: PollRecord[];
  share: ShareRecord | null;
  createdAt: string;
  updatedAt: string;
}

/** An option as the request carries it (times already normalized to `HH:mm`). */
export interface OptionInput {
  label?: string | undefined;
  date?: string | undefined;
  endDate?: string | undefined;
  time?: string | undefined;
  endTime?: string | undefined;
}
