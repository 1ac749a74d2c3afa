/**
 * Calendar share links (docs/feeds.md): a named selection of the family's events served as a
 * public ICS feed at `/share/calendar/<token>.ics`. The token (`shr_` + 32 base62) is made at
 * the edge and shown once; only its SHA-256 is kept, on the record and in the store-wide
 * `share-token` index that finds the family without a key. Deleting a share removes both in
 * the same transaction, so the feed answers 404 at once.
 */
import { calendarCollections, getCollection } from '../collections/collections.js';
import { activePerson } from '../people/people.js';
import { NotFound, failOnIssues, type Issue } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { eventUid, renderCalendar } from './ics.js';
import type { IcsEvent, IcsOverride, IcsOwnSeries } from './icsTypes.js';
import { feedOccurrenceOn } from '../feeds/expand.js';
import { formatWall, msToWall, parseWall, wallToMs } from '../feeds/wall.js';
import type { FeedRecurrence } from '../feeds/types.js';
import { getEvent, isSeries, occurrenceData } from './events.js';
import { prepared } from './listingItems.js';
import { endMs, zoneOf } from './series.js';
import { addDays, instantToLocal } from '../shared/time.js';
import { rruleFor } from './recurrence.js';
import type { EventRecord } from './types.js';
import { S } from '../shared/schema.js';
import {
  createFields,
  field,
  timestamp,
  viewFields,
  type CreateOf,
  type RecordOf,
  type ViewOf,
} from '../shared/record.js';

export const CALENDAR_SHARES = 'calendar_shares';

const ids = S.array(S.string({ min: 1, max: 100 }), { max: 200 });
const unique = (xs: readonly string[]) => Array.from(new Set(xs));
/** A list of ids a create may send; the record holds each once. */
const idList = () =>
  field(ids, { create: 'optional', patch: 'never', default: [], view: 'always', clean: unique });

/** Every field of a share, once (src/domain/shared/record.ts). A share is not changed. */
export const SHARE_FIELDS = {
  id: field(S.string(), { create: 'never', patch: 'never', view: 'always' }),
  name: field(S.string({ min: 1, max: 200 }), {
    create: 'required',
    patch: 'never',
    view: 'always',
    clean: (v) => v.trim(),
    check: (v) => v !== '' || 'must not be blank',
  }),
  /** Calendar collection keys. */
  categories: idList(),
  eventIds: idList(),
  personIds: idList(),
  sourceIds: idList(),
  /** SHA-256 (hex) of the token. */
  tokenHash: field(S.string(), { create: 'never', patch: 'never', view: 'never' }),
  createdAt: field(timestamp, { create: 'never', patch: 'never', view: 'always' }),
  createdByKeyId: field(S.string(), {
    create: 'never',
    patch: 'never',
    nullable: true,
    view: 'never',
  }),
};

export type CalendarShare = RecordOf<typeof SHARE_FIELDS>;
export type ShareInput = CreateOf<typeof SHARE_FIELDS>;

/** A share as the API shows it: everything but the token's hash and who made it. */
export type CalendarShareView = ViewOf<typeof SHARE_FIELDS>;

export function shareView(s: CalendarShare): CalendarShareView {
  return viewFields(SHARE_FIELDS, s) as CalendarShareView;
}

/** Shares, oldest first. */
export function listShares(state: FamilyState): CalendarShare[] {
  return Array.from(state.table<CalendarShare>(CALENDAR_SHARES).values());
}

export function shareByTokenHash(state: FamilyState, hash: string): CalendarShare | undefined {
  for (const s of state.table<CalendarShare>(CALENDAR_SHARES).values())
    if (s.tokenHash === hash) return s;
  return undefined;
}

/** Creates a share for a token the caller made; `tokenHash` is its SHA-256 (hex). */
export function decideCreateShare(
  state: FamilyState,
  input: ShareInput,
  tokenHash: string,
  ctx: CommandContext,
): Decision<CalendarShare> {
  const issues: Issue[] = [];
  const own = {
    id: ctx.newId('share'),
    tokenHash,
    createdAt: ctx.now.toISOString(),
    createdByKeyId: ctx.caller.keyId,
  };
  const share = createFields(SHARE_FIELDS, input, own, issues);
  const { categories, eventIds, personIds, sourceIds } = share;
  categories.forEach((k, i) => {
    if (getCollection(state, k)?.category !== 'calendar')
      issues.push({ path: ['categories', i], message: `is not a calendar of this family: ${k}` });
  });
  eventIds.forEach((id, i) => {
    if (!getEvent(state, id))
      issues.push({
        path: ['eventIds', i],
        message: `is not a calendar event of this family: ${id}`,
      });
  });
  personIds.forEach((id, i) => {
    if (!activePerson(state, id))
      issues.push({ path: ['personIds', i], message: `is not a person of this family: ${id}` });
  });
  const feeds = new Set(
    calendarCollections(state)
      .map((c) => c.sourceId)
      .filter(Boolean),
  );
  sourceIds.forEach((id, i) => {
    if (!feeds.has(id))
      issues.push({
        path: ['sourceIds', i],
        message: `is not an external calendar of this family: ${id}`,
      });
  });
  failOnIssues(issues);
  return {
    result: share,
    changes: [{ table: CALENDAR_SHARES, id: share.id, value: share }],
    events: [{ type: 'calendar_share.created', object: shareView(share) }],
    indexes: [{ index: 'share-token', key: tokenHash, familyId: ctx.family.id }],
  };
}

export function decideDeleteShare(
  state: FamilyState,
  id: string,
  _ctx: CommandContext,
): Decision<CalendarShare> {
  const share = state.get<CalendarShare>(CALENDAR_SHARES, id);
  if (!share) throw new NotFound(`No calendar share ${id} in this family`);
  return {
    result: share,
    changes: [{ table: CALENDAR_SHARES, id, value: null }],
    events: [{ type: 'calendar_share.deleted', object: shareView(share) }],
    indexes: [{ index: 'share-token', key: share.tokenHash, familyId: null }],
  };
}

// ---- the feed -------------------------------------------------------------------------------

/**
 * The share's events: the union of its calendars, events, people (owner, responsible, or
 * answering going/maybe) and feeds; every calendar when all four are empty. Archived series
 * are left out (as in listings); an archived occurrence is written as CANCELLED.
 */
export function sharedEvents(state: FamilyState, s: CalendarShare): EventRecord[] {
  const all = prepared(state).events.filter((ev) => ev.status !== 'archived');
  if (!s.categories.length && !s.eventIds.length && !s.personIds.length && !s.sourceIds.length)
    return all;
  const categories = new Set(s.categories);
  const eventIds = new Set(s.eventIds);
  const people = new Set(s.personIds);
  const sources = new Set(s.sourceIds);
  return all.filter((ev) => {
    if (categories.has(ev.collectionKey) || eventIds.has(ev.id)) return true;
    const feed = ev.sourceId ?? getCollection(state, ev.collectionKey)?.sourceId;
    if (feed && sources.has(feed)) return true;
    if (!people.size) return false;
    const d = ev.data;
    if (d.ownerPersonId && people.has(d.ownerPersonId)) return true;
    if (d.responsiblePersonIds?.some((id) => people.has(id))) return true;
    return Object.entries(d.attendance ?? {}).some(([id, a]) => a !== 'out' && people.has(id));
  });
}

/**
 * An event as the ICS writer takes it: its zone, RRULE, EXDATEs for removed dates, overrides.
 * `tz` is the family's zone (the event's when it has none of its own).
 */
export function icsEventOf(ev: EventRecord, tz: string, familyId: string): IcsEvent {
  const d = ev.data;
  const out: IcsEvent = {
    uid: eventUid(familyId, ev.id),
    summary: ev.title,
    status: ev.status,
    date: d.date,
    ...(d.endDate ? { endDate: d.endDate } : {}),
    ...(d.time ? { time: d.time } : {}),
    ...(d.endTime ? { endTime: d.endTime } : {}),
    ...(d.allDay ? { allDay: true } : {}),
    ...(d.timeZone ? { timeZone: zoneOf(d, tz) } : {}),
    ...(d.durationMinutes ? { durationMinutes: d.durationMinutes } : {}),
    ...(d.where ? { location: d.where } : {}),
    ...((d.note ?? d.description) ? { description: d.note ?? d.description } : {}),
    createdAt: new Date(ev.createdAt),
    updatedAt: new Date(ev.updatedAt),
  };
  const recur = ev.feed?.recur;
  const own = recur ? ownSeries(recur) : undefined;
  const rrule = isSeries(ev) && !recur ? rruleFor(d) : null;
  if (!rrule && !own) return out;
  if (rrule) out.rrule = rrule;
  if (own) out.own = own;
  const exdates: string[] = [];
  const overrides: IcsOverride[] = [];
  for (const [date, x] of Object.entries(ev.exceptions ?? {}).sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    if (own) {
      // A feed's series names its occurrences by their original start in its own zone.
      const occ = feedOccurrenceOn(recur!, date);
      if (!occ) continue;
      if (x.removed) {
        own.exdates.push(occ.wall);
        continue;
      }
      own.recurrenceIds[date] = occ.wall;
    } else if (x.removed) {
      exdates.push(date);
      continue;
    }
    const o = occurrenceData(ev, date, x);
    const allDay = o.allDay === true || o.time === undefined;
    overrides.push({
      recurrenceDate: date,
      date: o.date,
      endDate: o.endDate ?? o.date,
      allDay,
      // A timed occurrence states its end outright: the writer would otherwise fall back to
      // the series' endTime even where the occurrence has none.
      ...(allDay
        ? {}
        : (() => {
            // In the series' zone, as the writer writes the whole event.
            const end = instantToLocal(new Date(endMs(o, tz)), zoneOf(o, tz));
            return { time: o.time!, endDate: end.date, endTime: end.time };
          })()),
      summary: x.title ?? ev.title,
      status: x.status ?? ev.status,
      // Empty strings (not undefined) so an occurrence that dropped them does not inherit the
      // series'.
      location: o.where ?? '',
      description: o.note ?? o.description ?? '',
      updatedAt: new Date(x.updatedAt),
    });
  }
  if (exdates.length) out.exdates = exdates;
  if (overrides.length) out.overrides = overrides;
  return out;
}

/** A feed's series as the ICS writer takes it: its own start, end, rule and zone. */
function ownSeries(r: FeedRecurrence): IcsOwnSeries {
  let end: string;
  if (!r.tz) end = addDays(r.start, Math.max(1, r.days ?? 1));
  else {
    const w = parseWall(r.start);
    const e = msToWall(wallToMs(w.date, w.seconds, r.tz) + (r.durationSec ?? 0) * 1000, r.tz);
    end = formatWall(e.date, e.seconds);
  }
  return {
    tz: r.tz ?? null,
    start: r.start,
    end,
    ...(r.rrule ? { rrule: r.rrule } : {}),
    rdates: [...(r.rdates ?? [])],
    exdates: [],
    recurrenceIds: {},
  };
}

/** The share's ICS text (cached until the family's next write). */
export function renderShare(state: FamilyState, s: CalendarShare, now: Date): string {
  return state.derived(`calendar:share:${s.id}:${now.getUTCFullYear()}`, () =>
    renderCalendar({
      name: s.name,
      timezone: state.family.timezone,
      now,
      events: sharedEvents(state, s).map((ev) =>
        icsEventOf(ev, state.family.timezone, state.family.id),
      ),
    }),
  );
}
