import { expect } from 'chai';
import { decideCreateEvent, type EventInput } from '../../../src/domain/calendar/events.js';
import { eventEnd, listEvents, type EventListQuery } from '../../../src/domain/calendar/listing.js';
import {
  decideDeleteEventScoped,
  decideUpdateEvent,
} from '../../../src/domain/calendar/occurrences.js';
import type { EventData, EventRecord } from '../../../src/domain/calendar/types.js';
import { Invalid } from '../../../src/domain/shared/errors.js';
import { calendarFixture, thrown } from './fixture.js';

type F = ReturnType<typeof calendarFixture>;

function create(f: F, input: Partial<EventInput> = {}): EventRecord {
  return f.run((s, c) => decideCreateEvent(s, { title: 'Event', date: '2026-12-01', ...input }, c))
    .result;
}

const NOW = new Date('2026-11-22T08:30:00.000Z');

function list(f: F, q: EventListQuery, now = NOW) {
  return listEvents(f.state, q, now);
}

/** "date time" of an occurrence's data, "all-day" for the time when it has none. */
function when(data: unknown): string {
  const d = data as { date: string; time?: string | null };
  return `${d.date} ${d.time ?? 'all-day'}`;
}

function rows(f: F, q: EventListQuery, now = NOW): string[] {
  return list(f, q, now).events.map((e) => `${when(e.data)} ${e.title}`);
}

describe('calendar listing (domain)', () => {
  it('sorts by date, all-day first, then time, then title', () => {
    const f = calendarFixture();
    create(f, { title: 'b late', time: '18:00' });
    create(f, { title: 'Breakfast', time: '07:30' });
    create(f, { title: 'Holiday' });
    create(f, { title: 'a late', time: '18:00' });
    create(f, { title: 'Before', date: '2026-11-30', time: '23:00' });
    expect(rows(f, { from: '2026-11-01', to: '2026-12-31' })).to.deep.equal([
      '2026-11-30 23:00 Before',
      '2026-12-01 all-day Holiday',
      '2026-12-01 07:30 Breakfast',
      '2026-12-01 18:00 a late',
      '2026-12-01 18:00 b late',
    ]);
  });

  it('expands series inside the window with the series id and occurrenceDate, multi-day ones overlapping it', () => {
    const f = calendarFixture();
    const trip = create(f, {
      title: 'Trip',
      date: '2026-11-27',
      endDate: '2026-11-29',
      repeatFrequency: 'weekly',
    });
    const page = list(f, { from: '2026-12-01', to: '2026-12-06' });
    expect(
      page.events.map((e) => [e.id, e.occurrenceDate, e.data.date, e.data.endDate]),
    ).to.deep.equal([[trip.id, '2026-12-04', '2026-12-04', '2026-12-06']]);
    // A window that only meets the tail of an occurrence still lists it.
    expect(
      list(f, { from: '2026-11-29', to: '2026-11-29' }).events.map((e) => e.occurrenceDate),
    ).to.deep.equal(['2026-11-27']);
  });

  it('pages with limit and cursor through exactly the full list, stopping early', () => {
    const f = calendarFixture();
    for (let i = 0; i < 7; i++)
      create(f, { title: `S${i}`, date: '2026-01-01', time: `0${i}:00`, repeatFrequency: 'daily' });
    const full = rows(f, { from: '2026-03-01', to: '2026-03-10', limit: 50 });
    expect(full).to.have.length(50);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 20; n++) {
      const page = list(f, {
        from: '2026-03-01',
        to: '2026-03-10',
        limit: 6,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.events.map((e) => `${when(e.data)} ${e.title}`));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).to.have.length(70);
    expect(seen.slice(0, 50)).to.deep.equal(full);
    expect(
      thrown(() => list(f, { from: '2026-03-01', to: '2026-03-10', cursor: 'garbage' })),
    ).to.be.instanceOf(Invalid);
  });

  it('answers a page of a long-running daily series over ten years without walking it all', () => {
    const f = calendarFixture();
    for (let i = 0; i < 200; i++)
      create(f, { title: `S${i}`, date: '2000-01-01', time: '09:00', repeatFrequency: 'daily' });
    const t = process.hrtime.bigint();
    const page = list(f, { from: '2026-01-01', to: '2035-12-31', limit: 50 });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    expect(page.events).to.have.length(50);
    expect(page.events.every((e) => e.data.date === '2026-01-01')).to.equal(true);
    // Walking 200 daily series for ten years takes seconds; jumping, milliseconds.
    expect(ms).to.be.below(2_000);
  });

  it('shows a moved occurrence on its new date only and leaves out removed dates', () => {
    const f = calendarFixture();
    const ev = create(f, {
      title: 'Swim',
      date: '2026-12-01',
      time: '16:00',
      repeatFrequency: 'weekly',
    });
    f.run((s, c) =>
      decideUpdateEvent(
        s,
        ev.id,
        {
          editScope: 'occurrence',
          occurrenceDate: '2026-12-08',
          date: '2026-12-10',
          time: '09:00',
        },
        c,
      ),
    );
    f.run((s, c) =>
      decideDeleteEventScoped(
        s,
        ev.id,
        { editScope: 'occurrence', occurrenceDate: '2026-12-15' },
        c,
      ),
    );
    const page = list(f, { from: '2026-12-01', to: '2026-12-31' });
    expect(page.events.map((e) => [e.occurrenceDate, e.data.date, e.data.time])).to.deep.equal([
      ['2026-12-01', '2026-12-01', '16:00'],
      ['2026-12-08', '2026-12-10', '09:00'],
      ['2026-12-22', '2026-12-22', '16:00'],
      ['2026-12-29', '2026-12-29', '16:00'],
    ]);
    expect(list(f, { from: '2026-12-08', to: '2026-12-09' }).events).to.have.length(0);
  });

  it('filters by status (archived left out by default) and query, per occurrence', () => {
    const f = calendarFixture();
    const ev = create(f, {
      title: 'Piano',
      date: '2026-12-01',
      repeatFrequency: 'daily',
      note: 'Crème brûlée after',
    });
    create(f, { title: 'Old', date: '2026-12-02' });
    const old = create(f, { title: 'Archived', date: '2026-12-02' });
    f.run((s, c) => decideUpdateEvent(s, old.id, { status: 'archived' }, c));
    f.run((s, c) =>
      decideUpdateEvent(
        s,
        ev.id,
        { editScope: 'occurrence', occurrenceDate: '2026-12-02', status: 'done' },
        c,
      ),
    );
    const q = { from: '2026-12-01', to: '2026-12-03' };
    expect(rows(f, q)).to.deep.equal([
      '2026-12-01 all-day Piano',
      '2026-12-02 all-day Old',
      '2026-12-02 all-day Piano',
      '2026-12-03 all-day Piano',
    ]);
    expect(rows(f, { ...q, status: 'done' })).to.deep.equal(['2026-12-02 all-day Piano']);
    expect(rows(f, { ...q, status: 'archived' })).to.deep.equal(['2026-12-02 all-day Archived']);
    expect(rows(f, { ...q, query: 'CREME' })).to.have.length(3);
  });

  it('without both bounds lists events unexpanded whose span meets the bounds', () => {
    const f = calendarFixture();
    const series = create(f, {
      title: 'Series',
      date: '2026-01-05',
      repeatFrequency: 'weekly',
      repeatUntil: '2026-03-01',
    });
    create(f, { title: 'Later', date: '2026-06-01' });
    create(f, { title: 'Early', date: '2025-06-01' });
    expect(rows(f, {})).to.deep.equal([
      '2025-06-01 all-day Early',
      '2026-01-05 all-day Series',
      '2026-06-01 all-day Later',
    ]);
    expect(rows(f, { from: '2026-02-01' })).to.deep.equal([
      '2026-01-05 all-day Series',
      '2026-06-01 all-day Later',
    ]);
    expect(rows(f, { from: '2026-03-02' })).to.deep.equal(['2026-06-01 all-day Later']);
    expect(rows(f, { to: '2026-01-04' })).to.deep.equal(['2025-06-01 all-day Early']);
    const page = list(f, {});
    expect(page.events[1].id).to.equal(series.id);
    expect(page.events[1].occurrenceDate).to.equal(undefined);
    expect(thrown(() => list(f, { from: '2026-02-02', to: '2026-02-01' }))).to.be.instanceOf(
      Invalid,
    );
  });

  describe('excludeEnded and the end rules', () => {
    const tz = 'Europe/Berlin';
    const end = (d: Partial<EventData>) => eventEnd({ date: '2026-03-28', ...d }, tz).toISOString();

    it('ends at endDate/endTime, else start + durationMinutes, else + 60 min, else the end of the last day', () => {
      expect(end({ time: '10:00', endTime: '11:30' })).to.equal('2026-03-28T10:30:00.000Z');
      expect(end({ time: '10:00', durationMinutes: 15 })).to.equal('2026-03-28T09:15:00.000Z');
      expect(end({ time: '10:00' })).to.equal('2026-03-28T10:00:00.000Z');
      expect(end({})).to.equal('2026-03-28T23:00:00.000Z');
      // Over the DST change (Mar 29): the day ends at 22:00 UTC.
      expect(end({ endDate: '2026-03-29' })).to.equal('2026-03-29T22:00:00.000Z');
      expect(end({ time: '22:00', endDate: '2026-03-29', endTime: '03:00' })).to.equal(
        '2026-03-29T01:00:00.000Z',
      );
      expect(end({ time: '22:00', endDate: '2026-03-29' })).to.equal('2026-03-29T22:00:00.000Z');
    });

    it('drops events and occurrences already over in the family zone', () => {
      const f = calendarFixture({ timezone: tz });
      create(f, { title: 'Done', date: '2026-11-22', time: '08:00' }); // 07:00–08:00 UTC
      create(f, { title: 'Running', date: '2026-11-22', time: '09:00', durationMinutes: 30 }); // 08:00–08:30 UTC
      create(f, { title: 'Today', date: '2026-11-22' });
      create(f, { title: 'Daily', date: '2026-11-01', time: '07:00', repeatFrequency: 'daily' });
      const q = { from: '2026-11-21', to: '2026-11-23', excludeEnded: true };
      expect(rows(f, q, new Date('2026-11-22T08:29:59Z'))).to.deep.equal([
        '2026-11-22 all-day Today',
        '2026-11-22 09:00 Running',
        '2026-11-23 07:00 Daily',
      ]);
      // At 08:30 UTC "Running" ends; the cached page must not outlive it.
      expect(rows(f, q, new Date('2026-11-22T08:30:00Z'))).to.deep.equal([
        '2026-11-22 all-day Today',
        '2026-11-23 07:00 Daily',
      ]);
      expect(rows(f, { excludeEnded: true }, new Date('2026-11-22T08:30:00Z'))).to.deep.equal([
        '2026-11-01 07:00 Daily',
        '2026-11-22 all-day Today',
      ]);
      expect(rows(f, { excludeEnded: true }, new Date('2026-11-22T23:00:00Z'))).to.deep.equal([
        '2026-11-01 07:00 Daily',
      ]);
    });
  });
});
