import { expect } from 'chai';
import {
  addDays,
  daysBetween,
  formatTime12,
  fromDayNumber,
  instantToLocal,
  isCalendarDate,
  localToInstant,
  normalizeTimeZone,
  offsetSecondsAt,
  parseLocalTime,
  toDayNumber,
  todayIn,
  weekday,
  zoneTransitions,
} from '../../../src/domain/shared/time.js';

describe('isCalendarDate', () => {
  it('accepts real dates and leap days of leap years', () => {
    for (const d of [
      '2026-01-01',
      '2026-12-31',
      '2028-02-29',
      '2000-02-29',
      '0001-01-01',
      '9999-12-31',
    ]) {
      expect(isCalendarDate(d), d).to.equal(true);
    }
  });
  it('rejects 29 February of common years, including century years', () => {
    expect(isCalendarDate('2026-02-29')).to.equal(false);
    expect(isCalendarDate('2100-02-29')).to.equal(false);
  });
  it('rejects impossible days and months and other shapes', () => {
    for (const d of [
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-01',
      '20260101',
      '2026-01-01T00:00',
      ' 2026-01-01',
      '',
    ]) {
      expect(isCalendarDate(d), d).to.equal(false);
    }
  });
});

describe('day arithmetic', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-12-31', 1)).to.equal('2027-01-01');
    expect(addDays('2028-02-28', 1)).to.equal('2028-02-29');
    expect(addDays('2026-03-01', -1)).to.equal('2026-02-28');
    expect(addDays('2026-03-29', 1)).to.equal('2026-03-30'); // a DST day is still one day
  });
  it('counts the days from a to b', () => {
    expect(daysBetween('2026-01-01', '2027-01-01')).to.equal(365);
    expect(daysBetween('2028-01-01', '2029-01-01')).to.equal(366);
    expect(daysBetween('2026-03-10', '2026-03-01')).to.equal(-9);
  });
  it('numbers days from 1970-01-01 and back, also for years before 100', () => {
    expect(toDayNumber('1970-01-01')).to.equal(0);
    expect(toDayNumber('1969-12-31')).to.equal(-1);
    for (const d of ['0050-03-01', '1600-02-29', '2026-11-22', '9999-12-31'])
      expect(fromDayNumber(toDayNumber(d))).to.equal(d);
  });
  it('names the weekday with 0 for Sunday', () => {
    expect(weekday('2026-11-22')).to.equal(0);
    expect(weekday('2026-11-23')).to.equal(1);
    expect(weekday('2026-11-28')).to.equal(6);
    expect(weekday('1969-12-31')).to.equal(3);
  });
  it('throws RangeError for an invalid date', () => {
    expect(() => addDays('2026-02-29', 1)).to.throw(RangeError);
  });
});

describe('parseLocalTime', () => {
  it('normalizes 24-hour times', () => {
    expect(parseLocalTime('09:05')).to.equal('09:05');
    expect(parseLocalTime('9:05')).to.equal('09:05');
    expect(parseLocalTime('00:00')).to.equal('00:00');
    expect(parseLocalTime('23:59')).to.equal('23:59');
  });
  it('reads 12-hour times in any case, with or without a space or minutes', () => {
    expect(parseLocalTime('3:30 PM')).to.equal('15:30');
    expect(parseLocalTime('3:30pm')).to.equal('15:30');
    expect(parseLocalTime('12:05 AM')).to.equal('00:05');
    expect(parseLocalTime('12 pm')).to.equal('12:00');
    expect(parseLocalTime('7 Am')).to.equal('07:00');
    expect(parseLocalTime(' 11:59 PM ')).to.equal('23:59');
  });
  it('answers null for anything else', () => {
    for (const t of [
      '24:00',
      '12:60',
      '13:00 PM',
      '0:30 AM',
      '9',
      '9:5',
      '09:05:00',
      '3:30  PM',
      'noon',
      '',
    ]) {
      expect(parseLocalTime(t), t).to.equal(null);
    }
  });
});

describe('formatTime12', () => {
  it('writes times the way poll options show them', () => {
    expect(formatTime12('15:30')).to.equal('3:30 PM');
    expect(formatTime12('00:05')).to.equal('12:05 AM');
    expect(formatTime12('12:00')).to.equal('12:00 PM');
    expect(formatTime12('09:00')).to.equal('9:00 AM');
  });
  it('throws RangeError for an invalid time', () => {
    expect(() => formatTime12('25:00')).to.throw(RangeError);
  });
});

describe('normalizeTimeZone', () => {
  it('accepts IANA names and fixes their case without replacing links', () => {
    expect(normalizeTimeZone('Europe/Berlin') !== null).to.equal(true);
    expect(normalizeTimeZone('UTC') !== null).to.equal(true);
    expect(normalizeTimeZone('europe/berlin')).to.equal('Europe/Berlin');
    expect(normalizeTimeZone('Asia/Kolkata')).to.equal('Asia/Kolkata');
  });
  it('refuses unknown names and bare offsets', () => {
    for (const tz of ['Mars/Olympus', '', '+01:00', '-05:00', 'Europe/'])
      expect(normalizeTimeZone(tz) !== null, tz).to.equal(false);
  });
});

describe('localToInstant', () => {
  it('converts wall-clock times in winter and summer', () => {
    expect(localToInstant('2026-01-15', '09:00', 'Europe/Berlin').toISOString()).to.equal(
      '2026-01-15T08:00:00.000Z',
    );
    expect(localToInstant('2026-07-15', '09:00', 'Europe/Berlin').toISOString()).to.equal(
      '2026-07-15T07:00:00.000Z',
    );
    expect(localToInstant('2026-07-15', '9:00 AM', 'America/New_York').toISOString()).to.equal(
      '2026-07-15T13:00:00.000Z',
    );
    expect(localToInstant('2026-07-15', '09:00', 'Asia/Kolkata').toISOString()).to.equal(
      '2026-07-15T03:30:00.000Z',
    );
  });
  it('moves a time in the spring-forward gap forward by the gap', () => {
    expect(localToInstant('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).to.equal(
      '2026-03-29T01:30:00.000Z',
    );
    expect(localToInstant('2026-03-08', '02:30', 'America/New_York').toISOString()).to.equal(
      '2026-03-08T07:30:00.000Z',
    );
  });
  it('takes the earlier instant of a time repeated when clocks fall back', () => {
    expect(localToInstant('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).to.equal(
      '2026-10-25T00:30:00.000Z',
    );
    expect(localToInstant('2026-11-01', '01:30', 'America/New_York').toISOString()).to.equal(
      '2026-11-01T05:30:00.000Z',
    );
  });
  it('keeps DST right far in the future, where temporal-polyfill 0.3 stops knowing it', () => {
    expect(localToInstant('2045-07-01', '12:00', 'Europe/Berlin').toISOString()).to.equal(
      '2045-07-01T10:00:00.000Z',
    );
    expect(localToInstant('2060-01-01', '12:00', 'America/New_York').toISOString()).to.equal(
      '2060-01-01T17:00:00.000Z',
    );
  });
  it('throws RangeError for an invalid date or time', () => {
    expect(() => localToInstant('2026-02-29', '09:00', 'UTC')).to.throw(RangeError);
    expect(() => localToInstant('2026-02-28', '9', 'UTC')).to.throw(RangeError);
  });
});

describe('instantToLocal and todayIn', () => {
  it('shows an instant on the wall clock of the zone', () => {
    expect(instantToLocal(new Date('2026-07-15T07:00:00Z'), 'Europe/Berlin')).to.deep.equal({
      date: '2026-07-15',
      time: '09:00',
    });
    expect(instantToLocal(new Date('2045-07-01T10:00:59Z'), 'Europe/Berlin')).to.deep.equal({
      date: '2045-07-01',
      time: '12:00',
    });
  });
  it('round-trips every hour of a DST-change week except the skipped one', () => {
    for (let h = 0; h < 7 * 24; h++) {
      const instant = new Date(Date.UTC(2026, 2, 26) + h * 3_600_000);
      const local = instantToLocal(instant, 'Europe/Berlin');
      const back = localToInstant(local.date, local.time, 'Europe/Berlin');
      // The repeated hour in autumn would map back to its first instance; March has none.
      expect(back.toISOString(), local.date + ' ' + local.time).to.equal(instant.toISOString());
    }
  });
  it('answers the date of the zone, not of UTC', () => {
    const now = new Date('2026-11-22T23:30:00Z');
    expect(todayIn('UTC', now)).to.equal('2026-11-22');
    expect(todayIn('Europe/Berlin', now)).to.equal('2026-11-23');
    expect(todayIn('America/Los_Angeles', now)).to.equal('2026-11-22');
  });
});

describe('offsetSecondsAt and zoneTransitions', () => {
  it('gives offsets east of Greenwich in seconds', () => {
    expect(offsetSecondsAt(new Date('2026-07-01T00:00:00Z'), 'Europe/Berlin')).to.equal(7200);
    expect(offsetSecondsAt(new Date('2026-01-01T00:00:00Z'), 'America/New_York')).to.equal(-18000);
  });
  it('finds the two DST changes of a year to the second', () => {
    const ts = zoneTransitions(
      'Europe/Berlin',
      new Date('2026-01-01T00:00:00Z'),
      new Date('2027-01-01T00:00:00Z'),
    );
    expect(ts.map((t) => [t.instant.toISOString(), t.offsetBefore, t.offsetAfter])).to.deep.equal([
      ['2026-03-29T01:00:00.000Z', 3600, 7200],
      ['2026-10-25T01:00:00.000Z', 7200, 3600],
    ]);
  });
  it('finds none in a zone without DST', () => {
    expect(
      zoneTransitions(
        'Asia/Tokyo',
        new Date('2020-01-01T00:00:00Z'),
        new Date('2030-01-01T00:00:00Z'),
      ),
    ).to.deep.equal([]);
  });
});

describe('offsetSecondsAt, read once per zone and day', () => {
  // One formatter per zone: making one is what costs (about 0.5 ms each), not formatting.
  const formatters = new Map<string, Intl.DateTimeFormat>();
  /** The offset straight from Intl, as a reference the cache must match. */
  function direct(ms: number, tz: string): number {
    const f = formatters.get(tz) ?? formatterOf(tz);
    const p: Record<string, number> = {};
    for (const x of f.formatToParts(new Date(ms))) if (x.type !== 'literal') p[x.type] = +x.value;
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    return Math.round((wall - Math.floor(ms / 1000) * 1000) / 1000);
  }
  function formatterOf(tz: string): Intl.DateTimeFormat {
    const f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
    return f;
  }

  it('agrees with Intl to the second around every change of zones with odd rules', () => {
    // Half-hour DST (Lord Howe), negative DST (Dublin), a skipped day (Apia, end of 2011), DST
    // that ended (São Paulo 2019), none (Kolkata), and the two of the household.
    const zones = [
      'Australia/Lord_Howe',
      'Europe/Dublin',
      'Pacific/Apia',
      'America/Sao_Paulo',
      'Asia/Kolkata',
      'Europe/Berlin',
      'America/New_York',
    ];
    for (const tz of zones) {
      for (const year of [2011, 2019]) {
        const from = Date.UTC(year, 0, 1);
        const to = Date.UTC(year + 1, 0, 1);
        let before = direct(from, tz);
        for (let t = from; t < to; t += 3 * 3600_000) {
          const now = direct(t, tz);
          expect(offsetSecondsAt(new Date(t), tz), `${tz} ${new Date(t).toISOString()}`).to.equal(
            now,
          );
          if (now !== before) {
            // The change to the second: the cache must know the last second before it too.
            let lo = t - 3 * 3600_000;
            let hi = t;
            while (hi - lo > 1000) {
              const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
              if (direct(mid, tz) === before) lo = mid;
              else hi = mid;
            }
            expect(offsetSecondsAt(new Date(lo), tz)).to.equal(before);
            expect(offsetSecondsAt(new Date(hi), tz)).to.equal(now);
          }
          before = now;
        }
      }
    }
  });
});
