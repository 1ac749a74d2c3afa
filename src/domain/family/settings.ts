/**
 * The family's own settings — name, time zone, location — as part of its state, changed by one
 * command on its actor (`PATCH /families/{slug}`, or a `family update` the CLI queued). A new
 * zone moves, in the same decision:
 *   - nothing of the family's own events: their local dates and times stay (a 17:00 swim stays
 *     17:00, now in the new zone);
 *   - external feeds' events, which keep their instants (feedZone.ts);
 *   - every event's reminders, leave-by, coverage alert and checks, planned again in the new
 *     zone by the same rules as an edit: what already fired for an occurrence is marked and
 *     never fires again, a time now in the past is not sent (the next occurrence's is planned);
 *   - routines that follow the family's zone (made without `timezone`): their next run in the
 *     new zone, never the cron time that already fired (its wall clock read in the new zone).
 * Everything read at query time (`excludeEnded`, "today", a plan's `when`, the share feed)
 * follows the state's zone at once.
 */
import { getEvent } from '../calendar/events.js';
import { ENTRIES } from '../collections/types.js';
import { nextRoutineJob } from '../notifications/routines.js';
import { eventAgenda } from '../notifications/schedule.js';
import { ROUTINES, type RoutineRecord } from '../notifications/types.js';
import { Invalid } from '../shared/errors.js';
import {
  FamilyState,
  type AgendaChange,
  type CommandContext,
  type Decision,
  type FamilyInfo,
  type RecordChange,
} from '../shared/state.js';
import { charCount } from '../shared/text.js';
import { familyLocale } from '../shared/state.js';
import { canonicalLocale } from '../i18n/locale.js';
import { instantToLocal, localToInstant, normalizeTimeZone } from '../shared/time.js';
import { shiftFeedEvents } from './feedZone.js';

/** What may change: undefined stays, a null location removes it. */
export interface FamilyPatch {
  name?: string;
  timezone?: string;
  location?: string | null;
  /** A BCP 47 tag in its canonical form (docs/i18n.md). */
  locale?: string;
}

export const FAMILY_NAME_MAX = 200;
export const LOCATION_MAX = 200;

/** The family as clients see it (`GET /families/{slug}`, `family.updated`). */
export function familyView(family: FamilyInfo): {
  slug: string;
  name: string;
  timezone: string;
  location: string | null;
  locale: string;
} {
  const location = family.location;
  return {
    slug: family.slug,
    name: family.name,
    timezone: family.timezone,
    location: typeof location === 'string' ? location : null,
    locale: familyLocale(family),
  };
}

/**
 * Checks and normalizes a patch (the API's and the CLI's one rule): 400 naming the field.
 * An empty location is none; a zone is stored by its IANA name.
 */
export function checkFamilyPatch(input: {
  name?: string | undefined;
  timezone?: string | undefined;
  location?: string | null | undefined;
  locale?: string | undefined;
}): FamilyPatch {
  const patch: FamilyPatch = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name || charCount(name) > FAMILY_NAME_MAX)
      throw Invalid.at(['name'], `must be 1 to ${FAMILY_NAME_MAX} characters long`);
    patch.name = name;
  }
  if (input.timezone !== undefined) {
    const zone = normalizeTimeZone(input.timezone);
    if (!zone) throw Invalid.at(['timezone'], `"${input.timezone}" is not an IANA time zone`);
    patch.timezone = zone;
  }
  if (input.location !== undefined) {
    const location = input.location === null ? '' : input.location.trim();
    if (charCount(location) > LOCATION_MAX)
      throw Invalid.at(['location'], `must be at most ${LOCATION_MAX} characters long`);
    const latLon = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/.exec(location);
    if (latLon && (Math.abs(Number(latLon[1])) > 90 || Math.abs(Number(latLon[2])) > 180)) {
      throw Invalid.at(['location'], 'lat,lon must be within -90..90 and -180..180');
    }
    patch.location = location || null;
  }
  if (input.locale !== undefined) patch.locale = checkLocale(input.locale);
  return patch;
}

/** A locale a family or a person may choose, in its canonical form; 400 naming `locale`. */
export function checkLocale(tag: string): string {
  const locale = canonicalLocale(tag.trim());
  if (!locale)
    throw Invalid.at(['locale'], `"${tag}" is not a BCP 47 language tag such as de-DE or en-US`);
  return locale;
}

/** Applies a checked patch to the family's settings. */
export function patched(family: FamilyInfo, patch: FamilyPatch): FamilyInfo {
  const next: FamilyInfo = { ...family };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.timezone !== undefined) next.timezone = patch.timezone;
  if (patch.location === null) delete next.location;
  else if (patch.location !== undefined) next.location = patch.location;
  if (patch.locale !== undefined) next.locale = patch.locale;
  return next;
}

/**
 * The settings change and everything it moves (see the top). `settles`: the id of the queued
 * CLI update this applies, removed in the same transaction.
 */
export function decideUpdateFamily(
  state: FamilyState,
  input: FamilyPatch,
  ctx: CommandContext,
  settles?: string,
): Decision<FamilyInfo> {
  const patch = checkFamilyPatch(input);
  const before = state.family;
  const next = patched(before, patch);
  const settle = settles !== undefined ? { settlesQueuedUpdate: settles } : {};
  if (JSON.stringify(familyView(next)) === JSON.stringify(familyView(before))) {
    return { result: before, changes: [], events: [], ...settle };
  }
  const changes: RecordChange[] = [];
  const agenda: AgendaChange[] = [];
  if (next.timezone !== before.timezone) {
    const feeds = shiftFeedEvents(state, before.timezone, next.timezone, ctx.now);
    changes.push(...feeds.changes);
    agenda.push(...feeds.agenda);
    const after = stateAfter(state, next, changes);
    for (const id of after.table(ENTRIES).keys()) {
      const ev = getEvent(after, id);
      if (!ev) continue;
      const planned = eventAgenda(after, id, ev, ctx.now);
      changes.push(...planned.changes);
      agenda.push(...planned.agenda);
    }
    for (const r of after.table<RoutineRecord>(ROUTINES).values()) {
      if (r.timezone !== null) continue;
      agenda.push(
        ...nextRoutineJob(
          after,
          r,
          routineResumesAfter(r, before.timezone, next.timezone, ctx.now),
        ),
      );
    }
  }
  return {
    result: next,
    changes,
    agenda,
    family: next,
    ...settle,
    events: [{ type: 'family.updated', object: familyView(next), previous: familyView(before) }],
  };
}

/**
 * Where a routine that follows the family picks up in the new zone: after now, and after the
 * cron time it last fired for read on the new zone's clock — so the 07:00 that fired in the
 * old zone is not sent again at 07:00 of the same day in a zone to the west.
 */
function routineResumesAfter(r: RoutineRecord, from: string, to: string, now: Date): Date {
  if (!r.lastRunAt) return now;
  const wall = instantToLocal(new Date(r.lastRunAt), from);
  const slot = localToInstant(wall.date, wall.time, to);
  return slot > now ? slot : now;
}

/**
 * The state as this decision leaves it, to plan in: a copy (records are shared, they are
 * immutable values) with the new settings and the feed events moved. Its caches are its own,
 * so nothing derived in the old zone is read back.
 */
function stateAfter(
  state: FamilyState,
  family: FamilyInfo,
  changes: readonly RecordChange[],
): FamilyState {
  const copy = new FamilyState(family);
  const all: RecordChange[] = [];
  for (const table of state.tableNames())
    for (const [id, value] of state.table(table)) all.push({ table, id, value });
  copy.apply(all);
  copy.apply(changes);
  return copy;
}
