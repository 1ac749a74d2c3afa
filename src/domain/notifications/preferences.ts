/**
 * Notification preferences (docs/notifications.md): per family, channel (email, push) × kind →
 * enabled, everything on by default. One record holds the whole table; it is written only once the
 * household changes something. They govern the service's own notifications; a notification
 * sent through the API goes to the channels it names. The table's fields — one per channel,
 * each a row kind → enabled — are described once, in `PREFERENCE_FIELDS`.
 */
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { field, readFields, recordSchema, type RecordOf } from '../shared/record.js';
import { S, type JsonSchema, type SomeStruct } from '../shared/schema.js';
import {
  PREFERENCE_CHANNELS,
  PREFERENCE_KINDS,
  PREFERENCES,
  type PreferenceChannel,
  type PreferenceKind,
  type Preferences,
} from './types.js';
import { noChange } from '../shared/decision.js';

/** The one record's id in its table. */
export const PREFERENCES_ID = 'preferences';

type Row = Record<PreferenceKind, boolean>;
const everyKindOn = (): Row => Object.fromEntries(PREFERENCE_KINDS.map((k) => [k, true])) as Row;

/** A channel's row as stored: the kinds set (a kind added later is absent: on). */
const ROW = S.object(
  Object.fromEntries(PREFERENCE_KINDS.map((k) => [k, S.optional(S.boolean())])),
) as unknown as SomeStruct<Partial<Row>>;

/** A channel's row as answered: every kind. */
const ROW_ANSWERED: JsonSchema = {
  type: 'object',
  required: [...PREFERENCE_KINDS],
  additionalProperties: false,
  properties: Object.fromEntries(PREFERENCE_KINDS.map((k) => [k, { type: 'boolean' }])),
};

const channelRow = field(ROW, {
  create: 'never',
  patch: 'never',
  view: 'always',
  default: everyKindOn(),
  response: ROW_ANSWERED,
});

/**
 * Every field of the preferences, once (src/domain/shared/record.ts): one per channel, a row
 * kind → enabled. A row a family never changed reads every kind on; a kind added later reads on
 * in a row stored before it existed. They are changed one switch at a time (`decideSetPreference`),
 * not by a PATCH of the record.
 */
export const PREFERENCE_FIELDS = Object.fromEntries(
  PREFERENCE_CHANNELS.map((c) => [c, channelRow]),
) as { readonly [C in PreferenceChannel]: typeof channelRow };

/** The stored record: its rows under `preferences`, and when it last changed. */
export interface PreferencesRecord {
  preferences: Partial<RecordOf<typeof PREFERENCE_FIELDS>>;
  updatedAt: string;
}

/** The JSON Schema of the table the API answers. */
export const PREFERENCES_SCHEMA: JsonSchema = recordSchema(
  PREFERENCE_FIELDS,
  {},
  { additionalProperties: false, description: 'channel → kind → enabled; all true by default' },
);

/** The family's preferences: what it set over the defaults (kinds added later start on). */
export function preferencesOf(state: FamilyState): Preferences {
  const stored = state.get<PreferencesRecord>(PREFERENCES, PREFERENCES_ID)?.preferences ?? {};
  const rows = readFields(PREFERENCE_FIELDS, stored as RecordOf<typeof PREFERENCE_FIELDS>);
  const out = {} as Preferences;
  for (const c of PREFERENCE_CHANNELS) out[c] = { ...everyKindOn(), ...rows[c] };
  return out;
}

export interface PreferenceChange {
  channel: PreferenceChannel;
  eventKind: PreferenceKind;
  isEnabled: boolean;
}

/** Sets one switch; setting it to what it is already writes and logs nothing. */
export function decideSetPreference(
  state: FamilyState,
  input: PreferenceChange,
  ctx: CommandContext,
): Decision<Preferences> {
  const before = preferencesOf(state);
  if (before[input.channel][input.eventKind] === input.isEnabled) return noChange(before);
  const next: Preferences = {
    ...before,
    [input.channel]: { ...before[input.channel], [input.eventKind]: input.isEnabled },
  };
  const record: PreferencesRecord = { preferences: next, updatedAt: ctx.now.toISOString() };
  return {
    result: next,
    changes: [{ table: PREFERENCES, id: PREFERENCES_ID, value: record }],
    events: [
      {
        type: 'notification_preference.updated',
        object: {
          channel: input.channel,
          eventKind: input.eventKind,
          isEnabled: input.isEnabled,
          preferences: next,
        },
        previous: { preferences: before },
      },
    ],
  };
}
