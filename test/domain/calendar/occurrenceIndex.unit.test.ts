/**
 * The occurrence index (src/domain/calendar/occurrenceIndex.ts): whatever a window over it
 * answers equals the lazy expansion (series.ts, occurrencesFrom) of the same event, zone and
 * range, after every kind of write, on random windows; it answers from its buckets (the same
 * occurrence objects to two windows) and stays within its limits; and a window keeps answering
 * what the read that took it saw, after later writes.
 */
import { expect } from 'chai';
import {
  INDEX_LIMITS,
  occurrenceIndexSize,
  occurrenceWindow,
} from '../../../src/domain/calendar/occurrenceIndex.js';
import {
  occurrencesFrom,
  occurrencesOverlapping,
  type InstantRange,
  type TimedOccurrence,
} from '../../../src/domain/calendar/series.js';
import { decideCreateEvent, decideDeleteEvent } from '../../../src/domain/calendar/events.js';
import {
  decideDeleteEventScoped,
  decideUpdateEvent,
} from '../../../src/domain/calendar/occurrences.js';
import type { EventInput, EventRecord } from '../../../src/domain/calendar/types.js';
import { entriesOf } from '../../../src/domain/collections/listing.js';
import { decideUpdateFamily } from '../../../src/domain/family/settings.js';
import { DomainError } from '../../../src/domain/shared/errors.js';
import { addDays } from '../../../src/domain/shared/time.js';
import { calendarFixture } from './fixture.js';

type F = ReturnType<typeof calendarFixture>;

const ZONES = [undefined, 'America/New_York', 'UTC', 'Asia/Tokyo', 'Europe/Berlin'];
const FAMILY_ZONES = ['Europe/Berlin', 'America/New_York', 'UTC', 'Australia/Sydney'];
const DAY = 86_400_000;

/** A small deterministic generator (the same run every time). */
function random(seed: number) {
  let s = seed;
  const next = (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
  return {
    int: next,
    pick: <T>(xs: readonly T[]): T => xs[next(xs.length)],
    chance: (p: number) => next(1000) < p * 1000,
  };
}
type Random = ReturnType<typeof random>;

const events = (f: F) => entriesOf(f.state, 'calendar') as EventRecord[];

/** What an occurrence is, without the object it is held in. */
const plain = (o: TimedOccurrence) => JSON.stringify(o);

/** Checks one window against the lazy expansion, for every event of the family calendar. */
function checkWindow(f: F, r: InstantRange): void {
  const w = occurrenceWindow(f.state, 'calendar', r);
  const tz = f.state.family.timezone;
  for (const ev of events(f)) {
    const want = [...occurrencesFrom(ev, tz, r)].map(plain);
    const label = `${ev.title} in ${new Date(r.start).toISOString()} – ${new Date(r.end).toISOString()} (${tz})`;
    expect([...w.occurrences(ev)].map(plain), label).to.deep.equal(want);
    expect(w.any(ev), label).to.equal(want.length > 0);
  }
}

function randomWindow(rnd: Random): InstantRange {
  // From mid-2025 to early 2027, at any minute or at a month's start (a bucket's edge).
  const month = Date.UTC(2025, 6 + rnd.int(20), 1);
  const start = rnd.chance(0.3) ? month : month + rnd.int(31 * 24 * 4) * 15 * 60_000;
  // Mostly what clients ask (a day, a week, a month); now and then a year, or more than the
  // index serves.
  const length = rnd.chance(0.1)
    ? rnd.pick([366 * DAY, 500 * DAY])
    : rnd.pick([1, 60 * 60_000, DAY, 7 * DAY, 31 * DAY, 92 * DAY]);
  return { start, end: start + length };
}

function randomEvent(rnd: Random, i: number): EventInput {
  const date = addDays('2025-09-01', rnd.int(420));
  const allDay = rnd.chance(0.25);
  const input: Record<string, unknown> = { title: `Event ${i}`, date };
  if (allDay) {
    input.allDay = true;
    if (rnd.chance(0.3)) input.endDate = addDays(date, 1 + rnd.int(3));
  } else {
    const h = rnd.int(24);
    input.time = `${String(h).padStart(2, '0')}:${rnd.pick(['00', '15', '30', '45'])}`;
    if (rnd.chance(0.6)) {
      if (rnd.chance(0.3)) {
        input.endDate = addDays(date, 1);
        input.endTime = '01:00';
      } else if (h < 23) input.endTime = `${String(h + 1).padStart(2, '0')}:00`;
    }
  }
  const zone = rnd.pick(ZONES);
  if (zone) input.timeZone = zone;
  if (rnd.chance(0.75)) {
    const freq = rnd.pick(['daily', 'weekdays', 'weekends', 'weekly', 'monthly', 'yearly']);
    input.repeatFrequency = freq;
    if (freq === 'weekly' && rnd.chance(0.5)) input.repeatDays = [rnd.int(7), rnd.int(7)];
    if (rnd.chance(0.3)) input.repeatInterval = 1 + rnd.int(3);
    if (rnd.chance(0.3)) input.repeatUntil = addDays(date, 30 + rnd.int(300));
  }
  return input as unknown as EventInput;
}

/** An occurrence date of a series, for a one-occurrence edit, or undefined. */
function someOccurrence(f: F, rnd: Random, ev: EventRecord): string | undefined {
  const all = occurrencesOverlapping(
    ev,
    f.state.family.timezone,
    { start: Date.UTC(2025, 0, 1), end: Date.UTC(2028, 0, 1) },
    40,
  );
  const own = all.filter((o) => !ev.exceptions?.[o.date]);
  return own.length ? rnd.pick(own).date : undefined;
}

/**
 * One random write: create, change a series, change or remove one occurrence, delete, move the
 * family. False when the domain refused it (a move past the series' next occurrence, say).
 */
function randomWrite(f: F, rnd: Random, i: number): boolean {
  try {
    write(f, rnd, i);
    return true;
  } catch (err) {
    if (err instanceof DomainError) return false;
    throw err;
  }
}

function write(f: F, rnd: Random, i: number): void {
  const all = events(f).filter((e) => e.data.repeatFrequency);
  const kind = all.length < 4 ? 0 : rnd.int(100);
  if (kind < 25) {
    f.run((s, c) => decideCreateEvent(s, randomEvent(rnd, i), c));
    return;
  }
  const ev = rnd.pick(all);
  if (kind < 50) {
    f.run((s, c) => decideUpdateEvent(s, ev.id, { time: '06:45', endTime: '07:15' }, c));
  } else if (kind < 75) {
    const date = someOccurrence(f, rnd, ev);
    if (!date) return;
    const patch = rnd.pick([
      { date: addDays(date, rnd.int(40) - 20) },
      { title: `Moved ${i}` },
      { status: 'archived' as const },
      { time: '23:30', endTime: null },
    ]);
    f.run((s, c) =>
      decideUpdateEvent(s, ev.id, { editScope: 'occurrence', occurrenceDate: date, ...patch }, c),
    );
  } else if (kind < 85) {
    const date = someOccurrence(f, rnd, ev);
    if (!date) return;
    f.run((s, c) =>
      decideDeleteEventScoped(s, ev.id, { editScope: 'occurrence', occurrenceDate: date }, c),
    );
  } else if (kind < 93) {
    f.run((s, c) => decideDeleteEvent(s, ev.id, c));
  } else {
    const timezone = rnd.pick(FAMILY_ZONES.filter((z) => z !== f.state.family.timezone));
    f.run((s, c) => decideUpdateFamily(s, { timezone }, c));
  }
  f.tick();
}

describe('occurrenceWindow (the occurrence index)', () => {
  it('answers what the lazy expansion answers, on random windows across 150 random writes', () => {
    const f = calendarFixture({ timezone: 'Europe/Berlin' });
    const rnd = random(30);
    for (let i = 0; i < 8; i++) f.run((s, c) => decideCreateEvent(s, randomEvent(rnd, i), c));
    let windows = 0;
    let written = 0;
    for (let i = 8; i < 158; i++) {
      if (randomWrite(f, rnd, i)) written++;
      for (let k = 0; k < 3; k++, windows++) checkWindow(f, randomWindow(rnd));
    }
    expect(windows).to.equal(450);
    expect(written).to.be.greaterThan(120);
    expect(occurrenceIndexSize(f.state).buckets).to.be.greaterThan(0);
  });

  it('serves two windows over the same month the same occurrence objects, from its buckets', () => {
    const f = calendarFixture({ timezone: 'Europe/Berlin' });
    const ev = f.run((s, c) =>
      decideCreateEvent(
        s,
        { title: 'Daily', date: '2026-01-05', time: '08:00', repeatFrequency: 'daily' },
        c,
      ),
    ).result;
    const a = [
      ...occurrenceWindow(f.state, 'calendar', {
        start: Date.UTC(2026, 2, 1),
        end: Date.UTC(2026, 2, 20),
      }).occurrences(ev),
    ];
    const b = [
      ...occurrenceWindow(f.state, 'calendar', {
        start: Date.UTC(2026, 2, 10),
        end: Date.UTC(2026, 3, 1),
      }).occurrences(ev),
    ];
    expect(a).to.have.length(19);
    expect(b).to.have.length(22);
    // 10–19 March, in both: the very same objects, not expanded again.
    expect(b.slice(0, 10)).to.deep.equal(a.slice(9));
    for (let i = 0; i < 10; i++) expect(b[i]).to.equal(a[9 + i]);
  });

  it('follows a write into the buckets it holds, expanding only the changed event again', () => {
    const f = calendarFixture({ timezone: 'UTC' });
    const make = (title: string) =>
      f.run((s, c) =>
        decideCreateEvent(
          s,
          { title, date: '2026-01-05', time: '08:00', repeatFrequency: 'daily' },
          c,
        ),
      ).result;
    const kept = make('Kept');
    const moved = make('Moved');
    const march = { start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) };
    const before = [...occurrenceWindow(f.state, 'calendar', march).occurrences(kept)];
    f.run((s, c) => decideUpdateEvent(s, moved.id, { time: '09:00' }, c));
    const after = occurrenceWindow(f.state, 'calendar', march);
    const keptAfter = [...after.occurrences(kept)];
    expect(keptAfter[0]).to.equal(before[0]);
    const now = events(f).find((e) => e.id === moved.id)!;
    expect([...after.occurrences(now)].map((o) => new Date(o.start).toISOString())[0]).to.equal(
      '2026-03-01T09:00:00.000Z',
    );
  });

  it('keeps answering what the read that took it saw after events change, leave and the family moves', () => {
    const f = calendarFixture({ timezone: 'Europe/Berlin' });
    const make = (title: string, date: string) =>
      f.run((s, c) =>
        decideCreateEvent(s, { title, date, time: '18:00', repeatFrequency: 'weekly' }, c),
      ).result;
    const ev = make('Weekly', '2026-01-06');
    const gone = make('Deleted later', '2026-01-07');
    const away = make('Moved away later', '2026-01-08');
    const march = { start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) };
    const taken = occurrenceWindow(f.state, 'calendar', march);
    const want = (e: EventRecord) => [...occurrencesFrom(e, 'Europe/Berlin', march)].map(plain);
    const wanted = [ev, gone, away].map(want);
    f.run((s, c) => decideUpdateEvent(s, ev.id, { time: '07:00' }, c));
    f.run((s, c) => decideDeleteEvent(s, gone.id, c));
    f.run((s, c) => decideUpdateEvent(s, away.id, { date: '2026-06-04' }, c));
    // A later read follows the writes into the same buckets…
    checkWindow(f, march);
    expect(events(f).map((e) => e.title)).to.have.members(['Weekly', 'Moved away later']);
    // …while the window taken before still answers the records it was taken with.
    expect([ev, gone, away].map((e) => [...taken.occurrences(e)].map(plain))).to.deep.equal(wanted);
    expect([ev, gone, away].map((e) => taken.any(e))).to.deep.equal([true, true, true]);
    f.run((s, c) => decideUpdateFamily(s, { timezone: 'America/New_York' }, c));
    checkWindow(f, march);
    expect([...taken.occurrences(ev)].map(plain)).to.deep.equal(wanted[0]);
  });

  it('walks ranges longer than it serves, and keeps a family within its limits', () => {
    const f = calendarFixture({ timezone: 'UTC' });
    f.run((s, c) =>
      decideCreateEvent(
        s,
        { title: 'Daily', date: '2020-01-01', time: '08:00', repeatFrequency: 'daily' },
        c,
      ),
    );
    const long = { start: Date.UTC(2026, 0, 1), end: Date.UTC(2027, 6, 1) };
    checkWindow(f, long);
    expect(occurrenceIndexSize(f.state).buckets).to.equal(0);
    for (let m = 0; m < INDEX_LIMITS.buckets + 10; m++)
      checkWindow(f, { start: Date.UTC(2021, m, 3), end: Date.UTC(2021, m, 5) });
    expect(occurrenceIndexSize(f.state).buckets).to.equal(INDEX_LIMITS.buckets);
  });
});
