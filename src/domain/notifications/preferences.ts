/**
 * Notification preferences (docs/notifications.md): per family, channel (email, push) × kind →
 * enabled, everything on by default. One record holds the whole table; it is written only once the
 * household changes something. They govern the service's own notifications; a notification
 * sent through the API goes to the channels it names.
 */
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import {
  PREFERENCE_CHANNELS,
  PREFERENCE_KINDS,
  PREFERENCES,
  type PreferenceChannel,
  type PreferenceKind,
  type Preferences,
} from './types.js';
import { noChange } from '../shared/decision.js';

const ID = 'preferences';

function defaults(): Preferences {
  const row = () =>
    Object.fromEntries(PREFERENCE_KINDS.map((k) => [k, true])) as Record<PreferenceKind, boolean>;
  return Object.fromEntries(PREFERENCE_CHANNELS.map((c) => [c, row()])) as Preferences;
}

/** The family's preferences: what it set over the defaults (kinds added later start on). */
export function preferencesOf(state: FamilyState): Preferences {
  const stored = state.get<{
    preferences: Partial<Record<PreferenceChannel, Partial<Record<PreferenceKind, boolean>>>>;
  }>(PREFERENCES, ID);
  const out = defaults();
  if (!stored) return out;
  for (const c of PREFERENCE_CHANNELS) Object.assign(out[c], stored.preferences[c] ?? {});
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
  return {
    result: next,
    changes: [
      {
        table: PREFERENCES,
        id: ID,
        value: { preferences: next, updatedAt: ctx.now.toISOString() },
      },
    ],
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
