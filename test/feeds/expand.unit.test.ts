import { expect } from 'chai';
import IcalExpander from 'ical-expander';
import { feedOccurrenceOn, feedOccurrences } from '../../src/domain/feeds/expand.js';
import type { FeedRecurrence } from '../../src/domain/feeds/types.js';

function dates(r: FeedRecurrence, from: string, to: string): string[] {
  return Array.from(feedOccurrences(r, { from, to }), (o) => o.date);
}

const berlin = (
  start: string,
  rrule: string,
  extra: Partial<FeedRecurrence> = {},
): FeedRecurrence => ({
  start,
  tz: 'Europe/Berlin',
  durationSec: 3600,
  rrule,
  zone: 'Europe/Berlin',
  ...extra,
});

describe("expanding a feed's own recurrence rules", () => {
  it("finds today's occurrences of a daily series from 2020, which ical-expander's default of 1,000 iterations drops", () => {
    const r = berlin('2020-01-06T09:15:00', 'FREQ=DAILY');
    expect(dates(r, '2026-11-22', '2026-11-24')).to.deep.equal([
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
    ]);
    const ics = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'UID:x',
      'DTSTART:20200106T081500Z',
      'DURATION:PT1H',
      'RRULE:FREQ=DAILY',
      'SUMMARY:Stand-up',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const found = new IcalExpander({ ics }).between(
      new Date('2026-11-22T00:00:00Z'),
      new Date('2026-11-25T00:00:00Z'),
    );
    expect(found.occurrences).to.have.length(0);
  });

  it('keeps the last occurrence of a UTC UNTIL in a zone east of UTC', () => {
    // Thunderbird: 09:00 London (08:00Z) daily UNTIL 08:00Z on the 27th: the 27th is the last one.
    const r: FeedRecurrence = {
      start: '2025-04-23T09:00:00',
      tz: 'Europe/London',
      durationSec: 3600,
      rrule: 'FREQ=DAILY;UNTIL=20250427T080000Z',
      zone: 'Europe/London',
    };
    expect(dates(r, '2025-04-01', '2025-05-31')).to.deep.equal([
      '2025-04-23',
      '2025-04-24',
      '2025-04-25',
      '2025-04-26',
      '2025-04-27',
    ]);
    // A date UNTIL includes that day; a floating one compares wall clocks.
    expect(
      dates({ ...r, rrule: 'FREQ=DAILY;UNTIL=20250425' }, '2025-04-01', '2025-05-31'),
    ).to.deep.equal(['2025-04-23', '2025-04-24', '2025-04-25']);
    expect(
      dates({ ...r, rrule: 'FREQ=DAILY;UNTIL=20250425T085959' }, '2025-04-01', '2025-05-31'),
    ).to.deep.equal(['2025-04-23', '2025-04-24']);
  });

  it('skips months without the day and non-leap years, as RFC 5545 says, where ical.js would move them', () => {
    const monthly: FeedRecurrence = {
      start: '2026-01-31',
      days: 1,
      rrule: 'FREQ=MONTHLY',
      zone: 'UTC',
    };
    expect(dates(monthly, '2026-01-01', '2026-08-31')).to.deep.equal([
      '2026-01-31',
      '2026-03-31',
      '2026-05-31',
      '2026-07-31',
      '2026-08-31',
    ]);
    const leap: FeedRecurrence = {
      start: '2024-02-29',
      days: 1,
      rrule: 'FREQ=YEARLY',
      zone: 'UTC',
    };
    expect(dates(leap, '2024-01-01', '2032-12-31')).to.deep.equal([
      '2024-02-29',
      '2028-02-29',
      '2032-02-29',
    ]);
  });

  it('counts DTSTART as an occurrence even off the rule, and merges RDATEs without doubles', () => {
    const r = berlin('2026-11-04T18:00:00', 'FREQ=WEEKLY;COUNT=2;BYDAY=MO', {
      rdates: ['2026-11-09T18:00:00', '2026-11-20T18:00:00'],
    });
    expect(dates(r, '2026-11-01', '2026-12-31')).to.deep.equal([
      '2026-11-04',
      '2026-11-09',
      '2026-11-16',
      '2026-11-20',
    ]);
  });

  it("moves a series' local times where the family's zone changes to DST on another day than the feed's", () => {
    // 09:00 in Berlin, seen from New York: US summer time starts on 8 March 2026, Europe's on 29 March.
    const r: FeedRecurrence = {
      ...berlin('2026-03-02T09:00:00', 'FREQ=WEEKLY;COUNT=6'),
      zone: 'America/New_York',
    };
    expect(
      Array.from(
        feedOccurrences(r, { from: '2026-03-01', to: '2026-04-30' }),
        (o) => `${o.date} ${o.time}`,
      ),
    ).to.deep.equal([
      '2026-03-02 03:00',
      '2026-03-09 04:00',
      '2026-03-16 04:00',
      '2026-03-23 04:00',
      '2026-03-30 03:00',
      '2026-04-06 03:00',
    ]);
  });

  it('ends a rule no date satisfies instead of looping, keeping DTSTART', () => {
    const started = Date.now();
    const r: FeedRecurrence = {
      start: '2026-01-01',
      days: 1,
      rrule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
      zone: 'UTC',
    };
    expect(dates(r, '2020-01-01', '2030-12-31')).to.deep.equal(['2026-01-01']);
    const secondly: FeedRecurrence = {
      start: '1970-01-01T00:00:00',
      tz: 'UTC',
      durationSec: 1,
      rrule: 'FREQ=SECONDLY',
      zone: 'UTC',
    };
    expect(dates(secondly, '2026-01-01', '2026-01-02')).to.deep.equal([]);
    expect(Date.now() - started).to.be.lessThan(5_000);
  });

  it('keeps one occurrence per local date of a rule that repeats within a day', () => {
    const r = berlin('2026-11-22T08:00:00', 'FREQ=HOURLY;INTERVAL=6;COUNT=8');
    expect(
      Array.from(
        feedOccurrences(r, { from: '2026-11-22', to: '2026-11-30' }),
        (o) => `${o.date} ${o.time}`,
      ),
    ).to.deep.equal(['2026-11-22 08:00', '2026-11-23 02:00', '2026-11-24 02:00']);
  });

  it('finds an occurrence by its local date, and reaches multi-day occurrences that began before a window', () => {
    const r: FeedRecurrence = { start: '2026-11-06', days: 3, rrule: 'FREQ=WEEKLY', zone: 'UTC' };
    expect(feedOccurrenceOn(r, '2026-11-13')).to.deep.equal({
      wall: '2026-11-13',
      date: '2026-11-13',
      endDate: '2026-11-15',
    });
    expect(feedOccurrenceOn(r, '2026-11-14')).to.equal(undefined);
    expect(dates(r, '2026-11-15', '2026-11-16')).to.deep.equal(['2026-11-13']);
  });
});
