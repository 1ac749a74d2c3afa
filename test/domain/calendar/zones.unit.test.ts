import { expect } from 'chai';
import { endMs, onFamilyClock, startMs, zoneOf } from '../../../src/domain/calendar/series.js';

const BERLIN = 'Europe/Berlin';
const NY = 'America/New_York';

describe('event zones (series.ts)', () => {
  it("reads an event without timeZone in the family's zone and one with it in its own", () => {
    expect(zoneOf({}, BERLIN)).to.equal(BERLIN);
    expect(zoneOf({ timeZone: NY }, BERLIN)).to.equal(NY);
    const d = { date: '2026-03-10', time: '09:00' };
    expect(new Date(startMs(d, BERLIN)).toISOString()).to.equal('2026-03-10T08:00:00.000Z');
    expect(new Date(startMs({ ...d, timeZone: NY }, BERLIN)).toISOString()).to.equal(
      '2026-03-10T13:00:00.000Z',
    );
  });

  it('starts an all-day event at midnight of its zone and ends it at midnight after its last day', () => {
    const d = { date: '2026-03-10', endDate: '2026-03-11', allDay: true, timeZone: 'Asia/Tokyo' };
    expect(new Date(startMs(d, BERLIN)).toISOString()).to.equal('2026-03-09T15:00:00.000Z');
    expect(new Date(endMs(d, BERLIN)).toISOString()).to.equal('2026-03-11T15:00:00.000Z');
  });

  it("places a timed event of another zone on the family's clock, keeping all-day and family-zone events as written", () => {
    expect(
      onFamilyClock({ date: '2026-03-09', time: '20:00', endTime: '23:30', timeZone: NY }, BERLIN),
    ).to.deep.equal({
      date: '2026-03-10',
      time: '01:00',
      endDate: '2026-03-10',
      endTime: '04:30',
      allDay: false,
    });
    // Without an end it keeps to its start's day, like a family-zone event without one.
    expect(onFamilyClock({ date: '2026-03-09', time: '20:00', timeZone: NY }, BERLIN)).to.include({
      date: '2026-03-10',
      endDate: '2026-03-10',
      endTime: null,
    });
    // A multi-day event without an end time ends with its last day in its own zone.
    expect(
      onFamilyClock(
        { date: '2026-03-09', time: '10:00', endDate: '2026-03-11', timeZone: NY },
        BERLIN,
      ),
    ).to.include({ date: '2026-03-09', time: '15:00', endDate: '2026-03-12', endTime: null });
    expect(
      onFamilyClock({ date: '2026-03-10', allDay: true, timeZone: 'Asia/Tokyo' }, BERLIN),
    ).to.deep.equal({
      date: '2026-03-10',
      time: null,
      endDate: '2026-03-10',
      endTime: null,
      allDay: true,
    });
    expect(onFamilyClock({ date: '2026-03-10', time: '09:00' }, BERLIN)).to.include({
      date: '2026-03-10',
      time: '09:00',
    });
  });
});
