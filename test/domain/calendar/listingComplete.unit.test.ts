/**
 * A listing page is complete up to its limit: random calendars (daily, weekly, monthly and
 * yearly series, some in other zones, with changed, moved, cancelled and re-statused
 * occurrences, and one-off events) × random windows, words and statuses. Every page of every
 * limit from 1 to 50 is the start of a brute-force expansion (written here, from the rules as
 * documented, not from the listing's code) filtered afterwards and sorted, and following
 * nextCursor gives the rest. Seeded: a failure names its seed and repeats.
 */
import { expect } from 'chai';
import { decideCreateEvent, type EventInput } from '../../../src/domain/calendar/events.js';
import { listEvents, type EventListQuery } from '../../../src/domain/calendar/listing.js';
import {
  decideDeleteEventScoped,
  decideUpdateEvent,
} from '../../../src/domain/calendar/occurrences.js';
import { Invalid } from '../../../src/domain/shared/errors.js';
import { calendarFixture } from './fixture.js';

const FAMILY = 'Europe/Berlin';
const NOW = new Date('2026-11-22T08:30:00.000Z');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- dates and zones, independently of the daemon's own helpers -----------------------------

const day = (s: string) => Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10));
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const plusDays = (s: string, n: number) => iso(day(s) + n * 86_400_000);
function plusMonths(s: string, n: number): string {
  const d = new Date(day(s));
  return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate()));
}

const formats = new Map<string, Intl.DateTimeFormat>();
function wall(zone: string, ms: number): { date: string; time: string; ms: number } {
  let f = formats.get(zone);
  if (!f)
    formats.set(
      zone,
      (f = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })),
    );
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
  const date = `${p.year}-${p.month}-${p.day}`;
  const time = `${p.hour}:${p.minute}`;
  return { date, time, ms: day(date) + (+p.hour * 60 + +p.minute) * 60_000 };
}
/** The instant of a wall time in `zone` (none of the times used falls in a DST gap). */
function instant(zone: string, date: string, time: string): number {
  const w = day(date) + (+time.slice(0, 2) * 60 + +time.slice(3, 5)) * 60_000;
  let t = w - (wall(zone, w).ms - w);
  t = w - (wall(zone, t).ms - t);
  return t;
}

// ---- the model --------------------------------------------------------------------------------

interface Series {
  id: string;
  title: string;
  note?: string;
  status: string;
  date: string;
  time?: string;
  minutes: number;
  zone: string;
  freq?: 'daily' | 'weekly' | 'monthly' | 'yearly';
  interval: number;
  until?: string;
  changes: Map<
    string,
    { removed?: boolean; title?: string; status?: string; date?: string; time?: string }
  >;
}

interface Row {
  key: string[];
  label: string;
}

/** Own start dates of a series from its start up to `to`. */
function starts(s: Series, to: string): string[] {
  const out: string[] = [];
  for (let k = 0; ; k++) {
    const d = !s.freq
      ? k === 0
        ? s.date
        : '9999-12-31'
      : s.freq === 'daily'
        ? plusDays(s.date, k * s.interval)
        : s.freq === 'weekly'
          ? plusDays(s.date, 7 * k * s.interval)
          : s.freq === 'monthly'
            ? plusMonths(s.date, k * s.interval)
            : plusMonths(s.date, 12 * k * s.interval);
    if (d > to || (s.until && d > s.until)) return out;
    out.push(d);
  }
}

function fold(t: string): string {
  return t
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

function brute(all: Series[], q: EventListQuery): string[] {
  const rows: Row[] = [];
  const terms = q.query ? fold(q.query).split(/\s+/).filter(Boolean) : [];
  for (const s of all) {
    for (const occ of starts(s, plusDays(q.to!, 3))) {
      const x = s.changes.get(occ) ?? {};
      if (x.removed) continue;
      const title = x.title ?? s.title;
      const status = x.status ?? s.status;
      if (q.status ? status !== q.status : status === 'archived') continue;
      // The words the test uses appear only in titles and notes.
      const text = fold(`${title}\n${s.note ?? ''}`);
      if (!terms.every((t) => text.includes(t))) continue;
      const date = x.date ?? occ;
      const time = x.time ?? s.time;
      let at: { date: string; time: string | null; end: string };
      if (time === undefined) at = { date, time: null, end: date };
      else {
        const start = instant(s.zone, date, time);
        const w = wall(FAMILY, start);
        at = { date: w.date, time: w.time, end: wall(FAMILY, start + s.minutes * 60_000).date };
      }
      if (at.date > q.to! || at.end < q.from!) continue;
      rows.push({
        key: [
          at.date,
          at.time === null ? '0' : '1',
          at.time ?? '',
          title.toLowerCase(),
          s.id,
          s.freq ? occ : date,
        ],
        label: `${s.id}|${s.freq ? occ : date}`,
      });
    }
  }
  rows.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++)
      if (a.key[i] !== b.key[i]) return a.key[i] < b.key[i] ? -1 : 1;
    return 0;
  });
  return rows.map((r) => r.label);
}

// ---- random calendars -----------------------------------------------------------------------

const TITLES = [
  'Walk the dog',
  'Zebra birthday',
  'Piano lesson',
  'Swim',
  'Dog walk with Zebra',
  'Ünïcode zebra',
];
const WORDS = [undefined, 'zebra', 'walk', 'dog', 'piano', 'lesson zebra', 'zebra dog', 'nothing'];
const STATUSES = [undefined, undefined, undefined, 'done', 'active', 'archived'] as const;
/** Times that end before midnight on the family's clock and never fall in a DST gap. */
const TIMES: Record<string, string[]> = {
  [FAMILY]: ['01:00', '07:30', '09:00', '12:15', '18:00', '21:00'],
  'Asia/Tokyo': ['06:00', '09:00', '12:00', '15:30'],
  'America/New_York': ['08:00', '10:00', '16:00', '20:00'],
};

function calendar(seed: number) {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const f = calendarFixture({ timezone: FAMILY, now: NOW.toISOString() });
  const all: Series[] = [];
  const count = 3 + Math.floor(r() * 7);
  for (let i = 0; i < count; i++) {
    const zone = r() < 0.7 ? FAMILY : pick(['Asia/Tokyo', 'America/New_York']);
    const freq =
      r() < 0.2 ? undefined : pick(['daily', 'daily', 'weekly', 'monthly', 'yearly'] as const);
    const s: Series = {
      id: '',
      title: pick(TITLES),
      status: 'active',
      date: `${2025 + Math.floor(r() * 3)}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`,
      minutes: pick([30, 60]),
      zone,
      interval: freq && r() < 0.3 ? 2 : 1,
      changes: new Map(),
      ...(freq ? { freq } : {}),
      ...(r() < 0.8 ? { time: pick(TIMES[zone]) } : {}),
      ...(r() < 0.2 ? { note: 'bring the zebra' } : {}),
    };
    if (freq && r() < 0.3) s.until = plusDays(s.date, 30 + Math.floor(r() * 800));
    const input: Partial<EventInput> = {
      title: s.title,
      date: s.date,
      ...(s.time ? { time: s.time, durationMinutes: s.minutes } : { allDay: true }),
      ...(zone !== FAMILY ? { timeZone: zone } : {}),
      ...(s.note ? { note: s.note } : {}),
      ...(freq ? { repeatFrequency: freq } : {}),
      ...(s.interval > 1 ? { repeatInterval: s.interval } : {}),
      ...(s.until ? { repeatUntil: s.until } : {}),
    };
    s.id = f.run((st, c) => decideCreateEvent(st, input as EventInput, c)).result.id;
    if (r() < 0.15) {
      s.status = pick(['done', 'archived']);
      f.run((st, c) => decideUpdateEvent(st, s.id, { status: s.status } as never, c));
    }
    if (freq) {
      const dates = starts(s, plusDays(s.date, 3 * 365)).slice(0, 80);
      for (let k = Math.floor(r() * 6); k > 0 && dates.length; k--) {
        const occ = pick(dates);
        if (s.changes.has(occ)) continue;
        const kind = pick(['remove', 'title', 'time', 'move', 'status']);
        if (kind === 'remove') {
          f.run((st, c) =>
            decideDeleteEventScoped(st, s.id, { editScope: 'occurrence', occurrenceDate: occ }, c),
          );
          s.changes.set(occ, { removed: true });
          continue;
        }
        const patch: Record<string, unknown> = { editScope: 'occurrence', occurrenceDate: occ };
        const x: { title?: string; status?: string; date?: string; time?: string } = {};
        if (kind === 'title') patch.title = x.title = pick(TITLES);
        if (kind === 'status') patch.status = x.status = pick(['done', 'archived', 'active']);
        if ((kind === 'time' || kind === 'move') && s.time) patch.time = x.time = pick(TIMES[zone]);
        if (kind === 'move') patch.date = x.date = plusDays(occ, pick([-3, -1, 1, 2, 5]));
        if (Object.keys(patch).length === 2) continue;
        f.run((st, c) => decideUpdateEvent(st, s.id, patch as never, c));
        s.changes.set(occ, x);
      }
    }
    all.push(s);
  }
  // Half the families also have many daily series that no word matches: what starved a query's
  // page before (a budget counted their occurrences).
  if (r() < 0.5)
    for (let i = 6 + Math.floor(r() * 8); i > 0; i--) {
      const s: Series = {
        id: '',
        title: 'Feed the cat',
        status: 'active',
        date: '2024-01-01',
        time: pick(TIMES[FAMILY]),
        minutes: 30,
        zone: FAMILY,
        freq: 'daily',
        interval: 1,
        changes: new Map(),
      };
      const input = {
        title: s.title,
        date: s.date,
        time: s.time,
        durationMinutes: 30,
        repeatFrequency: 'daily',
      };
      s.id = f.run((st, c) => decideCreateEvent(st, input as EventInput, c)).result.id;
      all.push(s);
    }
  return { f, all, r, pick };
}

describe('calendar listing: complete up to its limit (random calendars)', () => {
  let total = 0;
  for (let seed = 1; seed <= 12; seed++) {
    it(`seed ${seed}: every limit's page is the brute-force expansion's start, and cursors give the rest`, function () {
      this.timeout(60_000);
      const { f, all, r, pick } = calendar(seed);
      let listed = 0;
      for (let w = 0; w < 8; w++) {
        const from = plusDays('2025-06-01', Math.floor(r() * 900));
        const to = plusDays(from, Math.floor(r() * (r() < 0.5 ? 40 : 900)));
        const base: EventListQuery = { from, to };
        const query = pick(WORDS);
        const status = pick(STATUSES);
        if (query) base.query = query;
        if (status) base.status = status;
        const want = brute(all, base);
        listed += want.length;
        const what = JSON.stringify(base);
        for (let limit = 1; limit <= 50; limit++) {
          const page = listEvents(f.state, { ...base, limit }, NOW);
          const got = page.events.map(
            (e) => `${e.id}|${e.occurrenceDate ?? (e.data as { date: string }).date}`,
          );
          expect(got, `${what} limit ${limit}`).to.deep.equal(want.slice(0, limit));
          expect(!!page.nextCursor, `${what} limit ${limit}: nextCursor`).to.equal(
            want.length > limit,
          );
        }
        if (want.length > 400) continue;
        const seen: string[] = [];
        let cursor: string | undefined;
        const limit = 1 + Math.floor(r() * 50);
        do {
          const page = listEvents(f.state, { ...base, limit, ...(cursor ? { cursor } : {}) }, NOW);
          seen.push(
            ...page.events.map(
              (e) => `${e.id}|${e.occurrenceDate ?? (e.data as { date: string }).date}`,
            ),
          );
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen, `${what} by pages of ${limit}`).to.deep.equal(want);
      }
      total += listed;
    });
  }

  it('compared windows that list something (not only empty ones)', () => {
    expect(total).to.be.above(1_000);
  });

  it('refuses, naming the window, a page that would look at more than 10,000 occurrences, never answering it short', function () {
    this.timeout(120_000);
    const f = calendarFixture({ timezone: FAMILY, now: NOW.toISOString() });
    // 200 daily series whose words match, each changed on its first 51 days to words that do
    // not: the page must look at every changed occurrence (10,200) before any that matches.
    for (let i = 0; i < 200; i++) {
      const id = f.run((s, c) =>
        decideCreateEvent(
          s,
          {
            title: `Zebra ${i}`,
            date: '2026-01-01',
            time: '09:00',
            repeatFrequency: 'daily',
          },
          c,
        ),
      ).result.id;
      for (let d = 0; d < 51; d++)
        f.run((s, c) =>
          decideUpdateEvent(
            s,
            id,
            {
              editScope: 'occurrence',
              occurrenceDate: plusDays('2026-01-01', d),
              title: 'Walk',
            } as never,
            c,
          ),
        );
    }
    const q: EventListQuery = { from: '2026-01-01', to: '2026-03-01', query: 'zebra', limit: 5 };
    let error: unknown = null;
    try {
      listEvents(f.state, q, NOW);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(Invalid);
    expect((error as Invalid).issues).to.deep.equal([
      {
        path: ['query', 'to'],
        message:
          'makes a window (from 2026-01-01 to 2026-03-01) that needs more than 10000 events and occurrences looked at for one page',
      },
    ]);
    // A window past the changes answers at once.
    const later = listEvents(f.state, { ...q, from: '2026-02-21' }, NOW);
    expect(later.events).to.have.length(5);
  });

  it('answers all ten birthdays of ten years beside four daily series (the review’s family)', () => {
    const f = calendarFixture({ timezone: FAMILY, now: NOW.toISOString() });
    for (const time of ['01:00', '02:00', '03:00', '04:00'])
      f.run((s, c) =>
        decideCreateEvent(
          s,
          {
            title: 'Walk the dog',
            date: '2020-01-01',
            time,
            repeatFrequency: 'daily',
          },
          c,
        ),
      );
    f.run((s, c) =>
      decideCreateEvent(
        s,
        {
          title: 'Zebra birthday',
          date: '2001-05-17',
          allDay: true,
          repeatFrequency: 'yearly',
        },
        c,
      ),
    );
    const page = listEvents(
      f.state,
      { from: '2026-01-01', to: '2036-01-01', limit: 50, query: 'zebra' },
      NOW,
    );
    expect(page.events.map((e) => e.occurrenceDate)).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => `${2026 + i}-05-17`),
    );
    expect(page.nextCursor).to.equal(undefined);
  });
});
