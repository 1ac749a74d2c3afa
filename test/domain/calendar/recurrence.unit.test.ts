import { expect } from 'chai';
import { createRequire } from 'node:module';
import {
  isOccurrenceStart,
  occurrenceStarts,
  rruleFor,
  type SeriesTiming,
  spanDays,
} from '../../../src/domain/calendar/recurrence.js';
import { addDays, weekday } from '../../../src/domain/shared/time.js';

// ical.js ships no types; it is the reference implementation here, used untyped.
const ICAL = createRequire(import.meta.url)('ical.js');

/** Start dates ical.js's own RRULE iterator gives for `rrule` from `start`, up to `to`. */
function icalStarts(rrule: string, start: string, to: string): string[] {
  const it = ICAL.Recur.fromString(rrule).iterator(ICAL.Time.fromDateString(start));
  const out: string[] = [];
  for (let next = it.next(); next; next = it.next()) {
    const s: string = next.toString();
    if (s > to) break;
    out.push(s);
  }
  return out;
}

function ours(t: SeriesTiming, from: string | undefined, to: string): string[] {
  return [...occurrenceStarts(t, from === undefined ? { to } : { from, to })];
}

/**
 * ical.js's occurrences of the series that overlap [from, to], spans included, plus the series
 * start, which ical.js drops when it is off the rule (a weekdays series starting on a Sunday)
 * and recurrence.ts always counts (RFC 5545: DTSTART is the first instance).
 */
function reference(t: SeriesTiming, from: string | undefined, to: string): string[] {
  const span = t.endDate
    ? Math.round((Date.parse(t.endDate) - Date.parse(t.date)) / 86_400_000)
    : 0;
  const starts = icalStarts(rruleFor(t)!, t.date, to);
  if (starts[0] !== t.date && t.date <= to) starts.unshift(t.date);
  return starts.filter((s) => from === undefined || addDays(s, span) >= from);
}

function expectSameAsIcal(t: SeriesTiming, from: string | undefined, to: string): string[] {
  const got = ours(t, from, to);
  expect(got).to.deep.equal(reference(t, from, to));
  return got;
}

describe('rruleFor', () => {
  it('maps every frequency to its RRULE FREQ', () => {
    const d = '2026-03-04'; // a Wednesday
    expect(rruleFor({ date: d, repeatFrequency: 'daily' })).to.equal('FREQ=DAILY');
    expect(rruleFor({ date: d, repeatFrequency: 'weekdays' })).to.equal(
      'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
    );
    expect(rruleFor({ date: d, repeatFrequency: 'weekends' })).to.equal('FREQ=WEEKLY;BYDAY=SA,SU');
    expect(rruleFor({ date: d, repeatFrequency: 'weekly' })).to.equal('FREQ=WEEKLY;BYDAY=WE');
    expect(rruleFor({ date: d, repeatFrequency: 'weekly', repeatDays: [0, 3, 1, 3] })).to.equal(
      'FREQ=WEEKLY;BYDAY=MO,WE,SU',
    );
    expect(rruleFor({ date: d, repeatFrequency: 'monthly' })).to.equal('FREQ=MONTHLY');
    expect(rruleFor({ date: d, repeatFrequency: 'yearly' })).to.equal('FREQ=YEARLY');
    expect(rruleFor({ date: d, repeatFrequency: 'custom', repeatDays: [4, 1] })).to.equal(
      'FREQ=WEEKLY;BYDAY=MO,TH',
    );
  });
  it('writes INTERVAL, WKST for multi-week intervals, and an inclusive UNTIL date', () => {
    expect(
      rruleFor({
        date: '2026-03-02',
        repeatFrequency: 'custom',
        repeatInterval: 2,
        repeatDays: [1, 3],
        repeatUntil: '2027-01-01',
      }),
    ).to.equal('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO;UNTIL=20270101');
    expect(rruleFor({ date: '2026-03-02', repeatFrequency: 'daily', repeatInterval: 3 })).to.equal(
      'FREQ=DAILY;INTERVAL=3',
    );
    expect(rruleFor({ date: '2026-03-02', repeatFrequency: 'daily', repeatInterval: 1 })).to.equal(
      'FREQ=DAILY',
    );
  });
  it('writes a 29 February yearly series as every 12 months on the 29th', () => {
    expect(rruleFor({ date: '2028-02-29', repeatFrequency: 'yearly' })).to.equal(
      'FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=29',
    );
    expect(rruleFor({ date: '2028-02-29', repeatFrequency: 'yearly', repeatInterval: 2 })).to.equal(
      'FREQ=MONTHLY;INTERVAL=24;BYMONTHDAY=29',
    );
  });
  it('answers null for events that do not repeat', () => {
    expect(rruleFor({ date: '2026-03-02' })).to.equal(null);
    expect(rruleFor({ date: '2026-03-02', repeatFrequency: 'none' })).to.equal(null);
  });
  it('refuses custom repeats without days, bad days, bad intervals and an until before the start', () => {
    expect(() => rruleFor({ date: '2026-03-02', repeatFrequency: 'custom' })).to.throw(RangeError);
    expect(() =>
      rruleFor({ date: '2026-03-02', repeatFrequency: 'custom', repeatDays: [] }),
    ).to.throw(RangeError);
    expect(() =>
      rruleFor({ date: '2026-03-02', repeatFrequency: 'weekly', repeatDays: [7] }),
    ).to.throw(RangeError);
    expect(() =>
      rruleFor({ date: '2026-03-02', repeatFrequency: 'daily', repeatInterval: 0 }),
    ).to.throw(RangeError);
    expect(() =>
      rruleFor({ date: '2026-03-02', repeatFrequency: 'daily', repeatUntil: '2026-03-01' }),
    ).to.throw(RangeError);
  });
});

describe('occurrenceStarts against ical.js', () => {
  it('repeats the 31st of the month only in months that have one, across a year', () => {
    const got = expectSameAsIcal(
      { date: '2026-01-31', repeatFrequency: 'monthly' },
      undefined,
      '2026-12-31',
    );
    expect(got).to.deep.equal([
      '2026-01-31',
      '2026-03-31',
      '2026-05-31',
      '2026-07-31',
      '2026-08-31',
      '2026-10-31',
      '2026-12-31',
    ]);
  });
  it('repeats the 30th every second month, skipping February', () => {
    expectSameAsIcal(
      { date: '2025-12-30', repeatFrequency: 'monthly', repeatInterval: 2 },
      undefined,
      '2027-12-31',
    );
  });
  it('repeats 29 February only in leap years, across eight years and across 2100', () => {
    const got = expectSameAsIcal(
      { date: '2028-02-29', repeatFrequency: 'yearly' },
      undefined,
      '2036-12-31',
    );
    expect(got).to.deep.equal(['2028-02-29', '2032-02-29', '2036-02-29']);
    expect(
      ours({ date: '2096-02-29', repeatFrequency: 'yearly' }, undefined, '2108-12-31'),
    ).to.deep.equal(['2096-02-29', '2104-02-29', '2108-02-29']);
    expectSameAsIcal({ date: '2096-02-29', repeatFrequency: 'yearly' }, undefined, '2108-12-31');
  });
  it('does not follow ical.js into 1 March for a literal FREQ=YEARLY, which is why rruleFor avoids it', () => {
    expect(icalStarts('FREQ=YEARLY', '2028-02-29', '2029-12-31')).to.deep.equal([
      '2028-02-29',
      '2029-03-01',
    ]);
    expect(
      ours({ date: '2028-02-29', repeatFrequency: 'yearly' }, undefined, '2029-12-31'),
    ).to.deep.equal(['2028-02-29']);
  });
  it('repeats an ordinary yearly date every year and every third year', () => {
    expectSameAsIcal({ date: '2026-11-22', repeatFrequency: 'yearly' }, undefined, '2040-12-31');
    expectSameAsIcal(
      { date: '2026-11-22', repeatFrequency: 'yearly', repeatInterval: 3 },
      undefined,
      '2050-12-31',
    );
  });
  it('gives every weekday of a month for weekdays', () => {
    const got = expectSameAsIcal(
      { date: '2026-03-02', repeatFrequency: 'weekdays' },
      undefined,
      '2026-03-31',
    );
    expect(got).to.have.length(22);
    expect(got.every((d) => weekday(d) >= 1 && weekday(d) <= 5)).to.equal(true);
  });
  it('gives every Saturday and Sunday of a month for weekends', () => {
    const got = expectSameAsIcal(
      { date: '2026-03-01', repeatFrequency: 'weekends' },
      undefined,
      '2026-03-31',
    );
    expect(got).to.deep.equal([
      '2026-03-01',
      '2026-03-07',
      '2026-03-08',
      '2026-03-14',
      '2026-03-15',
      '2026-03-21',
      '2026-03-22',
      '2026-03-28',
      '2026-03-29',
    ]);
  });
  it('repeats weekly on repeatDays, or on the start weekday without them', () => {
    expectSameAsIcal(
      { date: '2026-03-03', repeatFrequency: 'weekly', repeatDays: [2, 5] },
      undefined,
      '2026-06-30',
    );
    const got = expectSameAsIcal(
      { date: '2026-03-04', repeatFrequency: 'weekly' },
      undefined,
      '2026-04-01',
    );
    expect(got).to.deep.equal([
      '2026-03-04',
      '2026-03-11',
      '2026-03-18',
      '2026-03-25',
      '2026-04-01',
    ]);
  });
  it('repeats a custom Monday and Thursday every second week, counting weeks from the start week', () => {
    const got = expectSameAsIcal(
      { date: '2026-03-02', repeatFrequency: 'custom', repeatInterval: 2, repeatDays: [1, 4] },
      undefined,
      '2026-04-30',
    );
    expect(got).to.deep.equal([
      '2026-03-02',
      '2026-03-05',
      '2026-03-16',
      '2026-03-19',
      '2026-03-30',
      '2026-04-02',
      '2026-04-13',
      '2026-04-16',
      '2026-04-27',
      '2026-04-30',
    ]);
  });
  it('keeps weekends together when they repeat every second week from a Sunday start', () => {
    expectSameAsIcal(
      { date: '2026-03-08', repeatFrequency: 'weekends', repeatInterval: 2 },
      undefined,
      '2026-06-30',
    );
  });
  it('repeats daily every third day', () => {
    const got = expectSameAsIcal(
      { date: '2026-03-01', repeatFrequency: 'daily', repeatInterval: 3 },
      undefined,
      '2026-03-20',
    );
    expect(got).to.deep.equal([
      '2026-03-01',
      '2026-03-04',
      '2026-03-07',
      '2026-03-10',
      '2026-03-13',
      '2026-03-16',
      '2026-03-19',
    ]);
  });
  it('includes the repeatUntil date itself and nothing after it', () => {
    const t: SeriesTiming = {
      date: '2026-03-01',
      repeatFrequency: 'daily',
      repeatUntil: '2026-03-05',
    };
    const got = expectSameAsIcal(t, undefined, '2026-12-31');
    expect(got).to.deep.equal([
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
    ]);
    expectSameAsIcal(
      {
        date: '2026-03-02',
        repeatFrequency: 'custom',
        repeatDays: [1, 4],
        repeatInterval: 2,
        repeatUntil: '2026-03-16',
      },
      undefined,
      '2026-12-31',
    );
  });
  it('keeps a multi-day weekly occurrence that started before the window but reaches into it', () => {
    const t: SeriesTiming = {
      date: '2026-03-06',
      endDate: '2026-03-08',
      repeatFrequency: 'weekly',
    }; // Fri..Sun
    const got = expectSameAsIcal(t, '2026-03-15', '2026-03-31');
    expect(got).to.deep.equal(['2026-03-13', '2026-03-20', '2026-03-27']);
    expect(spanDays(t), 'each occurrence ends two days after its start').to.equal(2);
    expect(ours(t, '2026-03-16', '2026-03-19')).to.deep.equal([]);
  });
  it('jumps to a window ten years after the start of a daily series without walking there', () => {
    const t: SeriesTiming = { date: '2016-01-01', repeatFrequency: 'daily' };
    const started = process.hrtime.bigint();
    const got = ours(t, '2026-01-01', '2026-12-31');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(got).to.have.length(365);
    expect(got[0]).to.equal('2026-01-01');
    expect(got).to.deep.equal(reference(t, '2026-01-01', '2026-12-31'));
    // Jumping costs well under a millisecond; the bound only has to hold on a loaded machine.
    expect(ms).to.be.below(250);
  });
  it('agrees with ical.js on windows far from the start for every frequency', () => {
    const from = '2031-05-10';
    const to = '2032-08-20';
    const series: SeriesTiming[] = [
      { date: '2020-02-29', repeatFrequency: 'daily', repeatInterval: 7 },
      { date: '2020-03-31', repeatFrequency: 'monthly' },
      { date: '2020-01-31', repeatFrequency: 'monthly', repeatInterval: 5 },
      { date: '2020-02-29', repeatFrequency: 'yearly' },
      { date: '2020-06-14', endDate: '2020-06-16', repeatFrequency: 'weekdays', repeatInterval: 3 },
      { date: '2020-06-13', repeatFrequency: 'weekends', repeatInterval: 2 },
      { date: '2020-06-15', repeatFrequency: 'custom', repeatInterval: 4, repeatDays: [0, 1, 6] },
      { date: '2020-06-15', endDate: '2020-06-25', repeatFrequency: 'weekly', repeatInterval: 3 },
    ];
    for (const t of series)
      expect(ours(t, from, to), JSON.stringify(t)).to.deep.equal(reference(t, from, to));
  });
  it('agrees with ical.js over a grid of starts, intervals and windows', () => {
    const freqs = [
      'daily',
      'weekdays',
      'weekends',
      'weekly',
      'monthly',
      'yearly',
      'custom',
    ] as const;
    const starts = ['2027-01-31', '2027-02-28', '2028-02-29', '2027-06-01', '2027-06-06'];
    const windows: [string, string][] = [
      ['2027-01-01', '2027-03-31'],
      ['2027-12-20', '2029-03-15'],
      ['2030-02-01', '2030-02-28'],
    ];
    let checked = 0;
    for (const repeatFrequency of freqs) {
      for (const date of starts) {
        for (const repeatInterval of [1, 2, 3]) {
          // Custom days include the start's weekday so ical.js, which drops a start off the rule, is comparable.
          const t: SeriesTiming = {
            date,
            endDate: addDays(date, repeatInterval - 1),
            repeatFrequency,
            repeatInterval,
            repeatDays: [weekday(date), 3],
          };
          for (const [from, to] of windows) {
            expect(ours(t, from, to), `${JSON.stringify(t)} ${from}..${to}`).to.deep.equal(
              reference(t, from, to),
            );
            checked++;
          }
        }
      }
    }
    expect(checked).to.equal(7 * 5 * 3 * 3);
  });
});

describe('occurrenceStarts', () => {
  it('always counts the start, even off the rule, where ical.js would drop it', () => {
    const t: SeriesTiming = { date: '2026-03-04', repeatFrequency: 'custom', repeatDays: [1, 4] }; // a Wednesday
    const got = ours(t, undefined, '2026-03-20');
    expect(got).to.deep.equal(['2026-03-04', ...icalStarts(rruleFor(t)!, t.date, '2026-03-20')]);
    expect(got).to.deep.equal([
      '2026-03-04',
      '2026-03-05',
      '2026-03-09',
      '2026-03-12',
      '2026-03-16',
      '2026-03-19',
    ]);
  });
  it('yields a single event once when its span overlaps the window', () => {
    const t: SeriesTiming = { date: '2026-03-06', endDate: '2026-03-08' };
    expect(ours(t, '2026-03-08', '2026-03-31')).to.deep.equal(['2026-03-06']);
    expect(ours(t, '2026-03-09', '2026-03-31')).to.deep.equal([]);
    expect(ours(t, '2026-03-01', '2026-03-05')).to.deep.equal([]);
    expect([...occurrenceStarts(t)]).to.deep.equal(['2026-03-06']);
  });
  it('is lazy: an endless series gives what is taken', () => {
    const it = occurrenceStarts(
      { date: '2026-03-01', repeatFrequency: 'daily' },
      { from: '2026-06-01' },
    );
    expect([it.next().value, it.next().value]).to.deep.equal(['2026-06-01', '2026-06-02']);
  });
  it('yields nothing for a window before the start or after repeatUntil', () => {
    expect(
      ours({ date: '2026-03-01', repeatFrequency: 'daily' }, '2026-01-01', '2026-02-28'),
    ).to.deep.equal([]);
    expect(
      ours(
        { date: '2026-03-01', repeatFrequency: 'daily', repeatUntil: '2026-03-10' },
        '2026-03-11',
        '2026-12-31',
      ),
    ).to.deep.equal([]);
  });
});

describe('isOccurrenceStart', () => {
  const series: SeriesTiming = {
    date: '2026-01-31',
    endDate: '2026-02-01',
    repeatFrequency: 'monthly',
    repeatUntil: '2026-12-31',
  };
  it('is true for the start and every later occurrence start', () => {
    expect(isOccurrenceStart(series, '2026-01-31')).to.equal(true);
    expect(isOccurrenceStart(series, '2026-03-31')).to.equal(true);
    expect(isOccurrenceStart(series, '2026-12-31')).to.equal(true);
  });
  it('is false inside a span, in skipped months, before the start and after repeatUntil', () => {
    expect(isOccurrenceStart(series, '2026-02-01')).to.equal(false);
    expect(isOccurrenceStart(series, '2026-04-30')).to.equal(false);
    expect(isOccurrenceStart(series, '2025-12-31')).to.equal(false);
    expect(isOccurrenceStart({ ...series, repeatUntil: '2026-06-30' }, '2026-07-31')).to.equal(
      false,
    );
    expect(isOccurrenceStart(series, '2026-04-31')).to.equal(false);
  });
  it('is true only for the date of an event that does not repeat', () => {
    expect(isOccurrenceStart({ date: '2026-03-06' }, '2026-03-06')).to.equal(true);
    expect(isOccurrenceStart({ date: '2026-03-06' }, '2026-03-13')).to.equal(false);
  });
  it('knows the off-rule start of a weekly series', () => {
    const t: SeriesTiming = { date: '2026-03-04', repeatFrequency: 'custom', repeatDays: [1, 4] };
    expect(isOccurrenceStart(t, '2026-03-04')).to.equal(true);
    expect(isOccurrenceStart(t, '2026-03-11')).to.equal(false);
    expect(isOccurrenceStart(t, '2026-03-12')).to.equal(true);
  });
});
